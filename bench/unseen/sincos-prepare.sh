#!/usr/bin/env bash
# Build machine: math.sin / math.cos as a reduction by 2 pi and sin.approx / cos.approx (the
# kernel; the reference keeps libdevice's f64 functions), against libdevice's __nv_sinf /
# __nv_cosf inlined: each loop compiled by the compiler checked out now as NAME--TAG (TAG
# libdevice / approx), so that both run side by side in one call, verified against their IR
# references. The loops: a GEMM whose epilogue takes the sin and cos of a clamped square (its
# CTA spent 84 us of 141 in that epilogue, traced), rotary sin/cos in a loop, sin in and after a
# loop, sincos in and after a loop, a math zoo.
#   bash bench/unseen/sincos-prepare.sh TAG [--fresh]
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/sincos OUT  (carry .dev/sincos)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
TAG=${1:?TAG}
DEV=$ROOT/.dev/sincos
if [[ ${2:-} == --fresh ]]; then rm -rf "$DEV"; fi
mkdir -p "$DEV/bundles" "$DEV/ir"
tagged_bundles "$TAG" bench/unseen/expanded-2026-11-28/gemm_relu6_sq.mlir \
  bench/unseen/expanded-2026-11-28/ops_expanded.mlir \
  bench/unseen/sweep-2026-11-28b/m01_rotary_sincos_loop.mlir \
  bench/unseen/math-2026-11-28/gemm_math_zoo.mlir test/Inputs/unseen/sin.mlir \
  test/Inputs/unseen/sin-after.mlir test/Inputs/unseen/sincos.mlir test/Inputs/unseen/sincos-after.mlir
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
