#!/bin/bash
# sweep-2026-11-29g: re-runs everything (about 6 minutes on 2 cores). B = the tools' folder.
export B=${B:-/tmp/sweep13/bin}
set -u
cd "$(dirname "$0")"; mkdir -p logs /tmp/g13
python3 gen_hand.py                                   # kernels/h1_*.mlir: hand-checkable load+dot loops
python3 sweep.py logs/sweep.txt                       # every kernel/schedule: --json + --trace, vtrace.py + checks
./agree.sh logs/sweep.txt > logs/agree.txt            # timeline "buildable" vs stagecraft-compile, one at a time
for f in $(find ../../results -name "*.measured.json.xz" -o -name "*.predicted.json.xz"); do xz -dc $f > /tmp/g13/c.json; python3 vtrace.py /tmp/g13/c.json --quiet | sed "s|/tmp/g13/c.json|$f|"; done > logs/committed-traces-vtrace.txt
python3 gen_traces.py                                 # odd measured traces into /tmp/g13/traces
$B/stagecraft-timeline ../../../assets/gemm.mlir --trace /tmp/g13/traces/predicted_gemm.json > /dev/null
./app_traces.sh > logs/app-traces.txt 2>&1            # the app on each odd trace
./repro.sh > logs/repro.txt 2>&1                      # the findings, one command each
grep -c DISAGREE logs/agree.txt; grep -c PROBLEM logs/sweep.txt
