#!/bin/bash
# Opens assets/gemm.mlir in the app with each odd trace; logs the app's output (status line) and rc,
# screenshots into /tmp/g13/shots.
B=${B:-/tmp/sweep13/bin}; T=${TRACES:-/tmp/g13/traces}; S=/tmp/g13/shots; mkdir -p $S /tmp/apphome13
cd /work/main
for t in $T/*.json; do
  n=$(basename $t .json)
  HOME=/tmp/apphome13 timeout 180 xvfb-run -a -s "-screen 0 1720x1040x24" $B/stagecraft assets/gemm.mlir \
    --no-runner --no-restore --panel timeline --trace $t --screenshot $S/trace_$n.png > /tmp/g13/app_$n.log 2>&1
  echo "== $n rc=$? $(grep -v '^$' /tmp/g13/app_$n.log | tail -3 | tr '\n' '|' | cut -c1-600)"
done
