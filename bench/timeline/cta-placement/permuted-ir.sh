#!/usr/bin/env bash
# A persistent asset with its program id permuted before it picks its first tile, in a tile
# order: the IR prepare.sh compiles and bench/timeline/calibrate.py predicts.
#   bench/timeline/cta-placement/permuted-ir.sh ASSET PERM ORDER OUT.mlir
# PERM: id (slot = pid), interleave (slot = (pid % 33) * 4 + pid / 33), scatter (slot =
# 7 pid mod 132); for a grid of 132 programs. ORDER: a --tile-order value (row-major, grouped:4).
# STAGECRAFT_OPT: the stagecraft-opt to run (default build/bin/stagecraft-opt).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
asset=${1:?ASSET} perm=${2:?PERM} order=${3:?ORDER} out=${4:?OUT}
case $perm in
  id) slot= ;;
  interleave) slot='%pl_a = arith.constant 33 : index
    %pl_b = arith.constant 4 : index
    %pl_r = arith.remui %pid, %pl_a : index
    %pl_q = arith.divui %pid, %pl_a : index
    %pl_s = arith.muli %pl_r, %pl_b : index
    %slot = arith.addi %pl_s, %pl_q : index' ;;
  scatter) slot='%pl_a = arith.constant 7 : index
    %pl_b = arith.constant 132 : index
    %pl_m = arith.muli %pid, %pl_a : index
    %slot = arith.remui %pl_m, %pl_b : index' ;;
  *) echo "permuted-ir.sh: unknown permutation '$perm' (id, interleave, scatter)" >&2; exit 2 ;;
esac
tmp=$(mktemp --suffix=.mlir)
trap 'rm -f "$tmp"' EXIT
if [ -z "$slot" ]; then
  cp "$ROOT/assets/$asset.mlir" "$tmp"
else
  awk -v slot="$slot" '
    /%nprog = tile.num_programs/ { print; print "    " slot; next }
    /scf.for %t = %pid to/ { sub(/%t = %pid to/, "%t = %slot to"); found = 1 }
    { print }
    END { if (!found) { print "permuted-ir.sh: no tile loop `scf.for %t = %pid to` in the asset" > "/dev/stderr"; exit 1 } }' \
    "$ROOT/assets/$asset.mlir" > "$tmp"
fi
kind=${order%%:*} group=${order#*:}
option="order=$kind"
[ "$group" != "$order" ] && option+=" group=$group"
"${STAGECRAFT_OPT:-$ROOT/build/bin/stagecraft-opt}" "$tmp" "-tile-set-tile-order=$option" -o "$out"
