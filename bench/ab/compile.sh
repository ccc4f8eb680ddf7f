#!/usr/bin/env bash
# A/B of a compiler change on the GPU: compile the same bundles with two builds of the compiler
# (say, before and after a change), each under its own tag, then time the pairs interleaved in
# one GPU call (bench/ab/run-on-gpu.sh), every run verified by stagecraft-run.
#
#   here:  bench/ab/compile.sh old       # with the first build (COMPILE=... to pick another)
#          ... rebuild ...
#          bench/ab/compile.sh new
#          cp build/bin/stagecraft-run .dev/ab/
#   there: bash bench/ab/run-on-gpu.sh [ROUNDS]      (carry .dev/ab)
#
# The bundles: the persistent GEMMs (row-major, grouped, ping-pong 64x256) at three sizes or
# one, persistent attention, and the non-persistent GEMM as a control. Writes
# .dev/ab/bundles/<name>-<tag>.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TAG=${1:?TAG}
COMPILE=${COMPILE:-$ROOT/build/bin/stagecraft-compile}
DEV=$ROOT/.dev/ab
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$DEV/bundles"
source "$ROOT/bench/lib/bundle.sh"
A=$ROOT/assets
b() { compile_bundle "$1-$TAG" "${@:2}"; }
b persistent_gemm-8192 "$A/persistent_gemm.mlir"
b persistent_gemm-4096 "$A/persistent_gemm.mlir" --size M=4096 --size N=4096 --size K=4096
b persistent_gemm-8000x8064x4000 "$A/persistent_gemm.mlir" --size M=8000 --size N=8064 --size K=4000
b persistent_gemm_grouped-8192 "$A/persistent_gemm_grouped.mlir"
b persistent_gemm_pingpong-8192 "$A/persistent_gemm_pingpong.mlir"
b persistent_gemm_pingpong_64x256-8192 "$A/persistent_gemm_pingpong_64x256.mlir"
b persistent_attn_d128 "$A/persistent_attention_fwd_d128.mlir"
b gemm-8192 "$A/gemm.mlir"
ls "$DEV/bundles" | grep -c -- "-$TAG\$"
