#!/usr/bin/env bash
# Build machine: the persistent GEMMs for Nsight Compute, beside the plain 128x256 GEMM, at
# their default 8192^3: the cooperative persistent kernel, the ping-pong one (two teams of one
# consumer warp group, 128x128 tiles and 64x256), the clustered one and the grouped tile order.
# What it is for: which pipe and clock bound them (the model predicts the ping-pong kernels
# 23-25% off, docs/timeline.md).
#   bash bench/timeline/ncu/persistent-prepare.sh                           # .dev/ncu-persistent
#   GPU host: bash bench/timeline/ncu/ncu-on-gpu.sh .dev/ncu-persistent OUT   (carry it)
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev ncu-persistent
for a in gemm persistent_gemm persistent_gemm_pingpong persistent_gemm_pingpong_64x256 \
         persistent_gemm_cluster persistent_gemm_grouped; do
  bundle "$ROOT/assets/$a.mlir" "$DEV/bundles/$a"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
