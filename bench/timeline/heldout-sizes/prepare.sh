#!/usr/bin/env bash
# Build machine: the assets and bench/unseen's loops under their own schedules at sizes no
# results folder has (a second held-out test of the timeline model: square and skinny GEMMs,
# attention at a short and a long sequence), each compiled into DEV/bundles/NAME--LABEL and
# predicted into DEV/predicted.jsonl before any GPU run (commit it as predictions-DATE.jsonl
# beside this script).
#   bash bench/timeline/heldout-sizes/prepare.sh                                  # .dev/heldout-sizes
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/heldout-sizes OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev heldout-sizes
: > "$DEV/predicted.jsonl"
one() { # IR LABEL SIZE=V...
  local ir=$1 label=$2 name
  shift 2
  name=$(basename "$ir" .mlir)--$label
  local sizes=()
  for s in "$@"; do sizes+=(--size="$s"); done
  bundle "$ir" "$DEV/bundles/$name" "${sizes[@]}"
  "$ROOT/build/bin/stagecraft-timeline" "$ir" "${sizes[@]}" --json |
    python3 -c 'import json, sys; p = json.load(sys.stdin); print(json.dumps({"bundle": sys.argv[1],
      "pred_tflops": p.get("tflops"), "bound": p.get("bound"), "clock_ghz": p.get("sm_clock_ghz"),
      "waves": p.get("waves")}))' "$name" >> "$DEV/predicted.jsonl"
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
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
