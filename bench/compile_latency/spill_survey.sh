#!/usr/bin/env bash
# Compiles every loop the repository holds (assets, test/Inputs/unseen, the held-out sweeps in
# bench/unseen) at its defaults with one stagecraft-compile and prints, per loop, ptxas's
# registers and spill bytes, or "refused"; then the loops that spill. Two builds' outputs
# compared with `join` show what a lowering change did to spills:
#   bench/compile_latency/spill_survey.sh [build/bin/stagecraft-compile] > spills.txt
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
COMPILE=${1:-$ROOT/build/bin/stagecraft-compile}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
spilling=0 total=0
for f in "$ROOT"/assets/*.mlir "$ROOT"/test/Inputs/unseen/*.mlir "$ROOT"/bench/unseen/*.mlir \
         "$ROOT"/bench/unseen/*/*.mlir; do
  name=${f#"$ROOT"/}
  line=$("$COMPILE" "$f" -o "$OUT/b" 2>&1 | grep -o "ptxas: .*" | head -1)
  total=$((total + 1))
  if [ -z "$line" ]; then
    echo "$name refused"
    continue
  fi
  regs=$(sed -E 's/ptxas: ([0-9]+) registers.*/\1/' <<<"$line")
  st=$(sed -E 's/.* ([0-9]+) bytes spill stores.*/\1/' <<<"$line")
  echo "$name regs=$regs spill=$st"
  [ "$st" != 0 ] && spilling=$((spilling + 1))
  rm -rf "$OUT/b"
done
echo "# $total loops, $spilling spill" >&2
