#!/usr/bin/env bash
# On the build machine: compile what bench/fp8/run-on-gpu.sh runs into .dev/fp8 (only the files
# the runner reads, plus the prebuilt stagecraft-run):
#   - assets/fp8_gemm.mlir (e4m3, per-tensor scales, bf16 out) at 8192^3 with the asset's schedule
#     and the schedules of schedules/*.json (loads 1..3 stages ahead, MMA wait 0/1), and at a
#     partial-tile size (8000x8064x4000, every size a multiple of 16 so that cuBLASLt runs);
#   - the same FP8 GEMM with e5m2 B (e4m3 x e5m2) at 8192^3;
#   - assets/mxfp8_gemm.mlir (dot_scaled) and mxfp8_gemm_upcast.mlir (the upcasts a unit of
#     their own, one stage ahead) at 8192^3 and 8000x8064x4000;
#   - assets/gemm.mlir (bf16) at 8192^3: the FP8 speed-up in the same run.
# Every bundle carries its IR reference; the FP8 GEMMs name cuBLASLt's FP8 matmul as their peer.
#   bench/fp8/prepare.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
COMPILE=${COMPILE:-$ROOT/build/bin/stagecraft-compile}
HERE=$ROOT/bench/fp8
DEV=$ROOT/.dev/fp8
rm -rf "$DEV" && mkdir -p "$DEV/bundles"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
slim() { # bundle dir -> .dev/fp8/bundles/NAME
  local src=$1 dst=$DEV/bundles/$2
  mkdir -p "$dst"
  for f in manifest.json kernel.cubin kernel.ptx reference.ptx schedule.json ptxas.txt; do
    [ -f "$src/$f" ] && cp "$src/$f" "$dst/"
  done
}
build() { # name mlir [compile args...]
  local name=$1 mlir=$2
  shift 2
  "$COMPILE" "$mlir" "$@" -o "$WORK/$name" -q
  slim "$WORK/$name" "$name"
}
A=$ROOT/assets
PARTIAL=(--size M=8000 --size N=8064 --size K=4000)
build fp8_gemm "$A/fp8_gemm.mlir"
build fp8_gemm_partial "$A/fp8_gemm.mlir" "${PARTIAL[@]}"
for s in "$HERE"/schedules/fp8_*.json; do
  build "$(basename "$s" .json)" "$A/fp8_gemm.mlir" --schedule "$s"
done
# e4m3 x e5m2: the same kernel with B's element type changed.
sed -e 's/256x128xf8E4M3FN/256x128xf8E5M2/g' -e 's/@fp8_gemm(/@fp8_gemm_e5m2b(/' \
  "$A/fp8_gemm.mlir" > "$WORK/fp8_gemm_e5m2b.mlir"
build fp8_gemm_e5m2b "$WORK/fp8_gemm_e5m2b.mlir"
build mxfp8_gemm "$A/mxfp8_gemm.mlir"
build mxfp8_gemm_partial "$A/mxfp8_gemm.mlir" "${PARTIAL[@]}"
build mxfp8_gemm_upcast "$A/mxfp8_gemm_upcast.mlir"
build mxfp8_gemm_upcast_partial "$A/mxfp8_gemm_upcast.mlir" "${PARTIAL[@]}"
build bf16_gemm "$A/gemm.mlir"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
cp "$HERE/summarize.py" "$DEV/"
du -sh "$DEV"
ls "$DEV/bundles"
