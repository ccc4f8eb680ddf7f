#!/usr/bin/env bash
# On the build machine: the attention kernels that set the peers' bars (the assets and the
# fastest shapes of bench/attention/tiles.py), compiled by the current build into
# .dev/compare/bundles/LABEL-NAME, so that two compilers' kernels (build, change, build
# again with another LABEL) can be timed interleaved on a GPU:
#   bench/attention/compare-prepare.sh LABEL
#   cp build/bin/stagecraft-run .dev/compare/
#   GPU (carry .dev/compare): DEV=.dev/compare ROUNDS=3 bash bench/perf/repeat-on-gpu.sh OUT $(ls .dev/compare/bundles)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LABEL=${1:?LABEL}
COMPILE=${COMPILE:-$ROOT/build/bin/stagecraft-compile}
DEV=$ROOT/.dev/compare
mkdir -p "$DEV/bundles"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
A=$ROOT/assets S=$A/schedules
source "$ROOT/bench/lib/bundle.sh"
bundle() { # name mlir [compile args...]: LABEL-name
  local name=$1; shift
  compile_bundle "$LABEL-$name" "$@"
}
bundle d128 "$A/attention_fwd_d128.mlir"
bundle d128-cp "$A/attention_fwd_d128.mlir" --schedule "$S/attention_cp_dot1_s3.json"
bundle d128c-cp "$A/attention_fwd_d128_causal.mlir" --schedule "$S/attention_cp_dot1_s3.json"
bundle d64 "$A/attention_fwd_d64.mlir" --size H=32
# Both computation-pipelining forms against the default, at both head dims.
bundle d128-cp0 "$A/attention_fwd_d128.mlir" --schedule "$S/attention_cp_dot0_s2.json"
bundle d64-cp0 "$A/attention_fwd_d64.mlir" --size H=32 --schedule "$S/attention_cp_dot0_s2.json"
bundle d64-cp "$A/attention_fwd_d64.mlir" --size H=32 --schedule "$S/attention_cp_dot1_s3.json"
# FlashAttention-3's order: the rescale with MMA0(i+1) in flight, the softmax under MMA1(i).
bundle d128-early "$A/attention_fwd_d128.mlir" --schedule "$S/attention_cp_mul_early.json"
bundle d128c-early "$A/attention_fwd_d128_causal.mlir" --schedule "$S/attention_cp_mul_early.json"
bundle d64-early "$A/attention_fwd_d64.mlir" --size H=32 --schedule "$S/attention_cp_mul_early.json"
# GEMMs whose epilogue is a large share (the staging writes: stmatrix).
[ -n "${NO_GEMM:-}" ] || {
  bundle gemm-pgrouped-4096 "$A/persistent_gemm_grouped.mlir" --size M=4096 --size N=4096 --size K=4096
  bundle gemm-pingpong-4096 "$A/persistent_gemm_pingpong.mlir" --size M=4096 --size N=4096 --size K=4096
  bundle gemm-4096 "$A/gemm.mlir" --size M=4096 --size N=4096 --size K=4096
}
# The fastest shapes (bench/results/attention-tiles-h100-2026-11-23), generated as a user writes them.
T=$WORK/tiles
python3 "$ROOT/bench/attention/tiles.py" compile --out "$T" --sets near,d64w3 \
  --only bn176_bm128w2 > /dev/null
python3 "$ROOT/bench/attention/tiles.py" compile --out "$T" --sets near,d64w3 \
  --only bn128_bm192w3 > /dev/null
for b in "$T"/bundles/*; do
  n=$(basename "$b")
  case "$n" in
    *bn176*none_cp_dot1_s3_near*) short=d128-176-near ;;
    *bn176*causal_cp_dot1_s3_near*) short=d128c-176-near ;;
    *bn128_bm192w3*none_default*) short=d64-192x3 ;;
    *bn128_bm192w3*causal_ahead2*) short=d64c-192x3-ahead2 ;;
    *) continue ;;
  esac
  rm -rf "$DEV/bundles/$LABEL-$short" && mkdir -p "$DEV/bundles/$LABEL-$short"
  for f in manifest.json kernel.cubin kernel.ptx reference.ptx schedule.json; do
    [ -f "$b/$f" ] && cp "$b/$f" "$DEV/bundles/$LABEL-$short/"
  done
done
ls "$DEV/bundles" | grep "^$LABEL-"
