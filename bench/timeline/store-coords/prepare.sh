#!/usr/bin/env bash
# Build machine: the persistent GEMMs whose epilogue computed its TMA store's coordinates inside
# the storing thread's branch of each panel (two integer divisions from the tile index, between
# the panel's barriers), compiled by this build's stagecraft-compile into
# .dev/store-coords/bundles/NAME-SUFFIX (SUFFIX "new" by default). Run it once with a build of
# the commit before ConsumerEmitter::emitStore computed them once before the first panel
# (SUFFIX=old) and once with this one, then on the GPU host:
#   ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/store-coords OUT
#   bash bench/timeline/store-coords/trace-on-gpu.sh .dev/store-coords OUT/traces
# The "two" bundles (256 tiles in 132 CTAs: each sampled CTA runs two, its second tile's
# epilogue beside nothing) carry the instrumented kernel for the epilogue's zones.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/store-coords
SUFFIX=${SUFFIX:-new}
mkdir -p "$DEV/bundles"
compile() {  # NAME IR [options...]
  local name=$1 ir=$2; shift 2
  bash "$ROOT/bench/timeline/compile-bundle.sh" "$ir" "$DEV/bundles/$name-$SUFFIX" "$@"
}
A=$ROOT/assets
compile pingpong-two "$A/persistent_gemm_pingpong.mlir" --size M=2048 --size N=2048 --size K=4096 --with-timeline
compile persistent-two "$A/persistent_gemm.mlir" --size M=4096 --size N=2048 --size K=4096 --with-timeline
compile pingpong-K512 "$A/persistent_gemm_pingpong.mlir" --size M=8192 --size N=8192 --size K=512
compile persistent-K512 "$A/persistent_gemm.mlir" --size M=8192 --size N=8192 --size K=512
compile pingpong-8192 "$A/persistent_gemm_pingpong.mlir"
compile persistent-8192 "$A/persistent_gemm.mlir"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
