#!/usr/bin/env bash
# A non-persistent GEMM asset (gemm, gemm_128x128: grid x = tile rows, y = tile columns) with
# another raster, to check what the two CTAs of a TPC (2k, 2k+1: consecutive in x) share:
#   rows     the asset as it is: the pair computes two rows of one column (shares the B box)
#   columns  grid x = tile columns, y = rows: the pair shares the A box
#   apart    grid as the asset, but CTA x's column turned by 16 when x is odd: the pair
#            shares neither box (every tile still computed once)
#   bench/timeline/tpc-raster/raster-ir.sh ASSET RASTER OUT.mlir
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
asset=${1:?ASSET} raster=${2:?RASTER} out=${3:?OUT}
src=$ROOT/assets/$asset.mlir
grep -q '%pm = tile.program_id 0 : index' "$src" && grep -q '%pn = tile.program_id 1 : index' "$src" || {
  echo "raster-ir.sh: $asset has no (program_id 0, program_id 1) = (row, column) grid" >&2; exit 2; }
case $raster in
  rows) sed "s/@$asset(/@${asset}_rows(/" "$src" > "$out" ;;
  columns)
    # Swap the grid's two dimensions and the program ids that read them.
    sed -E -e "s/@$asset\(/@${asset}_columns(/" \
      -e 's/tile.grid = affine_map<\(\)\[M, N, K\] -> \((M ceildiv [0-9]+), (N ceildiv [0-9]+)\)>/tile.grid = affine_map<()[M, N, K] -> (\2, \1)>/' \
      -e 's/%pm = tile.program_id 0 : index/%pm = tile.program_id 1 : index/' \
      -e 's/%pn = tile.program_id 1 : index/%pn = tile.program_id 0 : index/' "$src" > "$out"
    grep -q 'affine_map<()\[M, N, K\] -> (N ceildiv' "$out" || { echo "raster-ir.sh: grid not swapped" >&2; exit 1; } ;;
  apart)
    # pn = (y + 16 * (x mod 2)) mod (tile columns).
    awk -v asset="$asset" '
      { sub("@" asset "\\(", "@" asset "_apart(") }
      /%pn = tile.program_id 1 : index/ {
        print "    %ra_y = tile.program_id 1 : index"
        print "    %ra_ny = tile.num_programs 1 : index"
        print "    %ra_2 = arith.constant 2 : index"
        print "    %ra_16 = arith.constant 16 : index"
        print "    %ra_odd = arith.remui %pm, %ra_2 : index"
        print "    %ra_turn = arith.muli %ra_odd, %ra_16 : index"
        print "    %ra_sum = arith.addi %ra_y, %ra_turn : index"
        print "    %pn = arith.remui %ra_sum, %ra_ny : index"
        next }
      { print }' "$src" > "$out" ;;
  *) echo "raster-ir.sh: unknown raster '$raster' (rows, columns, apart)" >&2; exit 2 ;;
esac
