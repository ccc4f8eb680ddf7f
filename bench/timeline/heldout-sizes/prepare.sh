#!/usr/bin/env bash
# Build machine: the assets and bench/unseen's loops under their own schedules at sizes no
# results folder has (a second held-out test of the timeline model: square and skinny GEMMs,
# attention at a short and a long sequence), each compiled into DEV/bundles/NAME--LABEL and
# predicted into DEV/predicted.jsonl (bench/timeline/predict_bundles.py) before any GPU run:
# commit it as predictions-DATE.jsonl beside this script.
#   bash bench/timeline/heldout-sizes/prepare.sh                                  # .dev/heldout-sizes
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/heldout-sizes OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev heldout-sizes
one() { # IR LABEL SIZE=V...
  local ir=$1 label=$2
  shift 2
  local sizes=()
  for s in "$@"; do sizes+=(--size="$s"); done
  bundle "$ir" "$DEV/bundles/$(basename "$ir" .mlir)--$label" "${sizes[@]}"
}
A=$ROOT/assets
for g in gemm gemm_128x128 fp8_gemm mxfp8_gemm persistent_gemm persistent_gemm_grouped \
         persistent_gemm_pingpong persistent_gemm_pingpong_64x256 persistent_gemm_cluster; do
  one "$A/$g.mlir" M6144-N6144-K6144 M=6144 N=6144 K=6144
  one "$A/$g.mlir" M3072-N12288-K2048 M=3072 N=12288 K=2048
done
one "$ROOT/bench/unseen/swiglu_dual_gemm.mlir" M6144-N6144-K2048 M=6144 N=6144 K=2048
for a in attention_fwd_d128 attention_fwd_d64 attention_fwd_d128_causal persistent_attention_fwd_d128; do
  one "$A/$a.mlir" B8-H16-S2048 B=8 H=16 S=2048
  one "$A/$a.mlir" B1-H16-S16384 B=1 H=16 S=16384
done
one "$ROOT/bench/unseen/sigmoid_attention.mlir" B8-H16-S2048 B=8 H=16 S=2048
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
