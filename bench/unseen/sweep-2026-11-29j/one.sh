#!/bin/bash
# one.sh KERNEL.mlir TAG [extra args for compile/timeline, e.g. --size=M=256 --schedule=S.json]
# Compiles (with ptxas unless NOCUBIN=1), prints the manifest's outputs, the timeline's buildable line,
# the schedule verification summary and whether the reference lowering runs.
B=${B:-/tmp/sweep16/bin}
K=$1; TAG=$2; shift 2
OUT=/tmp/sw29j/out/$TAG; rm -rf "$OUT"; mkdir -p "$OUT"
NC=; [ "${NOCUBIN:-0}" = 1 ] && NC=--no-cubin
echo "== $TAG: $K $*"
timeout 180 $B/stagecraft-compile "$K" $NC -o "$OUT/b" "$@" > "$OUT/compile.txt" 2>&1; rc=$?
echo "compile rc=$rc"; grep -v "^  *\(predicted\|stages\|buffer\)" "$OUT/compile.txt" | grep -iE "error|warn|note|spill|regist|C7|shared|assert|abort" | head -12
if [ -f "$OUT/b/manifest.json" ]; then
python3 - "$OUT/b/manifest.json" <<'PY'
import json,sys
m=json.load(open(sys.argv[1]))
for o in m['reference']['outputs']:
    print("  out %s norm=%.3g max=%.3g flip=%s"%(o['tensor'],o['norm_rel_tol'],o['max_rel_tol'],o.get('flip_fraction','-')))
print("  flops=%s"%(m.get('flops')))
PY
fi
timeout 180 $B/stagecraft-timeline "$K" "$@" > "$OUT/timeline.txt" 2>&1; echo "timeline rc=$?"; grep -i -E "buildable|compiler|error|TFLOP" "$OUT/timeline.txt" | head -5
SCH=(); for a in "$@"; do case $a in --schedule=*) SCH+=("-tile-apply-schedule=file=${a#--schedule=}");; esac; done
timeout 180 $B/stagecraft-opt "$K" "${SCH[@]}" -tile-verify-schedule=summary -o /dev/null > "$OUT/verify.txt" 2>&1; echo "verify rc=$?"; grep -E "error|steady|shared memory|registers/thread|cluster|consumers" "$OUT/verify.txt" | head -8
