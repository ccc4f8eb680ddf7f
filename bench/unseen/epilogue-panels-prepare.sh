#!/usr/bin/env bash
# Build machine: loops written after the epilogue became a panel at a time, none like a bundled
# one (bench/unseen/epilogue-panels-2026-11-28): a row-sum broadcast stored as a 2-d f32 tile (a
# row view) beside a vector store and a column-scaled product; a 128x96 tile (a panel and a half)
# with GELU + residual and a second f16 output, N = 1000; a persistent ping-pong GEMM storing
# (acc + bias + R) / 2 in e4m3 and an iota-masked copy in bf16, tails in M, N and K. Predicted
# before the GPU run (bench/unseen/epilogue-panels-predictions-2026-11-28.jsonl).
#   bash bench/unseen/epilogue-panels-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/epilogue-panels OUT
#             (carry .dev/epilogue-panels)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev epilogue-panels
F=bench/unseen/epilogue-panels-2026-11-28
tagged_bundles default $F/rowview_store.mlir $F/n96_residual_gelu.mlir $F/pp_fp8_masked_residual.mlir
if [[ ${WITH_RB3:-0} == 1 ]]; then # added after the first call (the chunk width's rounding)
  tagged_bundles default $F/rb3_192x128_one_consumer.mlir \
    bench/unseen/sweep-2026-11-28d/p02_pp_128x128_bias_silu_res.mlir \
    bench/unseen/sweep-2026-11-28d/e13_64x256_f32res_f32out_2out.mlir
fi
bundle "$ROOT/$F/n96_residual_gelu.mlir" "$DEV/bundles/n96_residual_gelu--ktail" --size=K=4000 --size=M=1000
bundle "$ROOT/$F/pp_fp8_masked_residual.mlir" "$DEV/bundles/pp_fp8_masked_residual--cooperative" \
  --schedule "$S/consumers_cooperative.json"
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
