#!/bin/bash
# one.sh KERNEL.mlir TAG [extra args for compile/timeline, e.g. --size=M=256 --schedule=S.json]
# Compiles (--no-cubin unless CUBIN=1), prints the manifest's outputs, the timeline's summary,
# the schedule verification and whether the reference lowering runs.
B=${B:-/tmp/sweep12/bin}
K=$1; TAG=$2; shift 2
OUT=/tmp/sweep12/out/$TAG; rm -rf "$OUT"; mkdir -p "$OUT"
NC=--no-cubin; [ "${CUBIN:-0}" = 1 ] && NC=
echo "== $TAG: $K $*"
timeout 180 $B/stagecraft-compile "$K" $NC -q -o "$OUT/b" "$@" > "$OUT/compile.txt" 2>&1; rc=$?
echo "compile rc=$rc"; head -c 2500 "$OUT/compile.txt"
if [ -f "$OUT/b/manifest.json" ]; then
python3 - "$OUT/b/manifest.json" <<'PY'
import json,sys
m=json.load(open(sys.argv[1]))
ts={t['name']:t for t in m.get('tensors',[])} if isinstance(m.get('tensors'),list) else {}
for o in m['reference']['outputs']:
    t=ts.get(o['tensor'],{})
    print("  out %s dtype=%s norm=%.3g max=%.3g flip=%s | %s"%(o['tensor'],t.get('dtype','?'),o['norm_rel_tol'],o['max_rel_tol'],o.get('flip_fraction','-'),o.get('basis','')[:300]))
print("  flops=%s peer=%s"%(m.get('flops'), (m.get('peer') or {}).get('kind') if isinstance(m.get('peer'),dict) else m.get('peer')))
PY
fi
SZ=(); SCH=()
for a in "$@"; do case $a in --size=*) SZ+=("$a");; --schedule=*) SCH+=("-tile-apply-schedule=file=${a#--schedule=}");; esac; done
timeout 180 $B/stagecraft-timeline "$K" "$@" > "$OUT/timeline.txt" 2>&1; echo "timeline rc=$?"; grep -i -E "buildable|iteration|bound|TFLOP|error|trips|steady" "$OUT/timeline.txt" | head -8
timeout 180 $B/stagecraft-opt "$K" "${SCH[@]}" -tile-verify-schedule=summary -o /dev/null > "$OUT/verify.txt" 2>&1; echo "verify rc=$?"; grep -E "error|steady|warning|shared memory|registers/thread" "$OUT/verify.txt" | head -6
timeout 180 $B/stagecraft-opt "$K" "${SCH[@]}" -tile-lower-reference -o "$OUT/ref.mlir" > "$OUT/ref.txt" 2>&1; echo "lower-reference rc=$?"; head -c 1000 "$OUT/ref.txt"
