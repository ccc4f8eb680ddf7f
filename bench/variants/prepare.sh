#!/usr/bin/env bash
# On the build machine: compile what bench/variants/run-on-gpu.sh runs into
# .dev/variants (only the files the runner reads, to fit a device call):
#   - the GPU set of generated variants (test/variants/make_variants.py --set gpu)
#     at their default (partial-tile) sizes, two of them with chosen register
#     budgets (tile.registers);
#   - persistent assets in other tile orders (stagecraft-compile --tile-order),
#     at full size and at sizes whose last group of tile rows is partial:
#     each checked against its IR reference and, for the GEMMs, cuBLAS (a tile
#     order that dropped or repeated tiles fails the peer check);
#   - the bundled assets at full size with the schedules of the earlier runs, to
#     compare speed with the generators they replace (BASELINE=DIR: bundles the
#     earlier compiler made, copied beside them as baseline-*).
#   bench/variants/prepare.sh [--no-assets]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
COMPILE=${COMPILE:-$ROOT/build/bin/stagecraft-compile}
DEV=$ROOT/.dev/variants
rm -rf "$DEV" && mkdir -p "$DEV/bundles"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
slim() { # bundle dir -> .dev/variants/bundles/NAME
  local src=$1 dst=$DEV/bundles/$2
  mkdir -p "$dst"
  for f in manifest.json kernel.cubin kernel.ptx reference.ptx schedule.json; do
    [ -f "$src/$f" ] && cp "$src/$f" "$dst/"
  done
}
python3 "$ROOT/test/variants/make_variants.py" "$WORK/ir" --set gpu
for f in "$WORK"/ir/*.mlir; do
  n=$(basename "$f" .mlir)
  "$COMPILE" "$f" -o "$WORK/b/$n" -q
  slim "$WORK/b/$n" "$n"
done
A=$ROOT/assets S=$A/schedules
# Tile orders: name mlir compile-options...
tileorder() {
  local name=$1 mlir=$2
  shift 2
  "$COMPILE" "$mlir" "$@" -o "$WORK/t/$name" -q
  slim "$WORK/t/$name" "tileorder-$name"
}
tileorder pgemm_colmajor "$A/persistent_gemm.mlir" --tile-order column-major
tileorder pgemm_grouped4 "$A/persistent_gemm.mlir" --tile-order grouped:4
# 63 tile rows (the last partial) in groups of 4 (the last of 3), 17 tile columns.
tileorder pgemm_grouped4_partial "$A/persistent_gemm.mlir" --tile-order grouped:4 --size M=8000 --size N=4296
tileorder pgemm_pingpong_grouped8 "$A/persistent_gemm_pingpong.mlir" --tile-order grouped:8
# 63 tile rows in groups of 8 (the last of 7), 34 tile columns (the last partial).
tileorder pgemm_pingpong_grouped8_partial "$A/persistent_gemm_pingpong.mlir" --tile-order grouped:8 --size M=8000 --size N=4296
tileorder pgemm_pingpong_colmajor "$A/persistent_gemm_pingpong.mlir" --tile-order column-major
tileorder pattn_colmajor "$A/persistent_attention_fwd_d128.mlir" --tile-order column-major
if [ "${1:-}" != "--no-assets" ]; then
  asset() { # name mlir [schedule]
    "$COMPILE" "$2" ${3:+--schedule "$3"} -o "$WORK/a/$1" -q
    slim "$WORK/a/$1" "asset-$1"
  }
  asset gemm "$A/gemm.mlir"
  asset gemm_128x128 "$A/gemm_128x128.mlir"
  asset attn_d128 "$A/attention_fwd_d128.mlir"
  asset attn_d128_cp_dot1_s3 "$A/attention_fwd_d128.mlir" "$S/attention_cp_dot1_s3.json"
  asset attn_d128_causal_cp_dot1_s3 "$A/attention_fwd_d128_causal.mlir" "$S/attention_cp_dot1_s3.json"
  asset attn_d64 "$A/attention_fwd_d64.mlir"
  # The fastest GEMM with its default register budgets (24 / 240) and with
  # CUTLASS's (40 / 232), chosen in a schedule file (docs/legality.md#registers).
  echo '{"kernel": "", "registers": [40, 232], "ops": []}' > "$WORK/registers_40_232.json"
  asset persistent_gemm_grouped "$A/persistent_gemm_grouped.mlir"
  asset persistent_gemm_grouped_r40_232 "$A/persistent_gemm_grouped.mlir" "$WORK/registers_40_232.json"
  if [ -n "${BASELINE:-}" ]; then
    for b in gemm gemm_128x128 attention_fwd_d128 attention_fwd_d128_cp_dot1_s3 attention_fwd_d64; do
      [ -d "$BASELINE/$b" ] && slim "$BASELINE/$b" "baseline-$b"
    done
  fi
fi
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
ls "$DEV/bundles" | wc -l
