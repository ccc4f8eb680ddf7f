#!/usr/bin/env bash
# Build machine: tiles only the epilogue reads, loaded after the loop where the rings were
# (where kept through the loop they would not fit; ScheduleReport::epilogueLoadsAfterLoop),
# verified on the GPU against each kernel's IR reference and predicted before the run
# (bench/unseen/epilogue-loads-2026-11-28):
#   gemm_residual.mlir        C = A B^T + R, bf16, 128x256 (refused before: 257 KiB);
#   gemm_residual_f32.mlir    the same with an f32 R (128 KiB after the loop);
#   gemm_residual_gate.mlir   C = (A B^T + R) * G, two tiles after the loop on one barrier;
#   attention_gated_d128.mlir O = softmax(Q K^T) V * G: G kept (the default schedule, it fits)
#                             and after the loop (cp-dot1-s3, three K stages: refused before);
# and the plain GEMM asset beside them, the cost of waiting for R after the loop.
#   bash bench/unseen/epilogue-loads-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/unseen-epilogue-loads OUT
#             (carry .dev/unseen-epilogue-loads)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev unseen-epilogue-loads
F=$ROOT/bench/unseen/epilogue-loads-2026-11-28
PART=(--size=M=1000 --size=N=1040 --size=K=520)
named_bundle gemm "$ROOT/assets/gemm.mlir"
named_bundle gemm-residual "$F/gemm_residual.mlir"
named_bundle gemm-residual-partial "$F/gemm_residual.mlir" "${PART[@]}"
named_bundle gemm-residual-f32 "$F/gemm_residual_f32.mlir"
named_bundle gemm-residual-f32-partial "$F/gemm_residual_f32.mlir" "${PART[@]}"
named_bundle gemm-residual-gate "$F/gemm_residual_gate.mlir"
named_bundle gemm-residual-gate-partial "$F/gemm_residual_gate.mlir" "${PART[@]}"
ATT=(--size=B=4 --size=H=16 --size=S=4096)
named_bundle attention-gated "$F/attention_gated_d128.mlir" "${ATT[@]}"
bundle "$F/attention_gated_d128.mlir" "$DEV/bundles/attention-gated--cp_dot1_s3" "${ATT[@]}" \
  --schedule "$S/attention_cp_dot1_s3.json"
cp "$F/attention_gated_d128.mlir" "$DEV/ir/attention-gated-partial.mlir"
bundle "$F/attention_gated_d128.mlir" "$DEV/bundles/attention-gated-partial--cp_dot1_s3" \
  --size=B=2 --size=H=4 --size=S=1000 --schedule "$S/attention_cp_dot1_s3.json"
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
