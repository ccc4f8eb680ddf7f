#!/usr/bin/env bash
# Build machine: FP8 GEMMs that accumulate in place against ones that promote their partial
# sums to fp32 registers (assets/fp8_gemm_promoted.mlir: each K step of 128 summed from zero by
# the wgmma, added to the running sum by the CUDA cores), f32 output, so that the runner's
# error figures show the FP8 wgmma's 13-bit accumulation and what promotion buys, and the
# TFLOP/s what it costs, each against cuBLASLt summing the same way (fast accumulation for the
# in-place kernels, accurate for the promoted ones: the manifest's peer.accumulation).
#   - the 128x128 e4m3 GEMM with an f32 output in place (the generated variant
#     gemm_e4m3_aK_bK_none_f32_128x128_ws_ahead2, test/Inputs/gemm_e4m3_f32_out.mlir)
#   - the promoted asset under its schedule (MMA(i) Promote(i): the adds after each wgmma) and
#     under schedule-overlap.json (MMA wait 1, Promote a stage later: MMA(i+1) Promote(i), the
#     adds under the next wgmma)
#   - assets/fp8_gemm_promoted_split.mlir: a 128x256 tile promoted as two 128x128 halves (the
#     registers a 128x256 promoted tile needs at once exceed a consumer's budget), against the
#     128x256 in-place f32-output variant gemm_e4m3_aK_bK_none_f32_128x256_ws_ahead1
#   - the FP8 asset (128x256, bf16 output, in place): the fastest FP8 kernel, for scale
# each at 8192^3 and 4096x6144x3072 (where the in-place f32-output kernel lands 1e-3 from
# exact sums). Predictions (bench/timeline/predict_bundles.py) in DEV/predicted.jsonl before
# any GPU run.
#   bash bench/fp8/promotion/prepare.sh                                            # .dev/fp8-promotion
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/fp8-promotion OUT
set -euo pipefail
. "$(dirname "$0")/../../timeline/prepare-lib.sh"
fresh_dev fp8-promotion
HERE=$ROOT/bench/fp8/promotion
generate_variants
INPLACE=gemm_e4m3_aK_bK_none_f32_128x128_ws_ahead2
INPLACE256=gemm_e4m3_aK_bK_none_f32_128x256_ws_ahead1
for size in M8192-N8192-K8192 M4096-N6144-K3072; do
  IFS=- read -r m n k <<< "$size"
  S=(--size="M=${m#M}" --size="N=${n#N}" --size="K=${k#K}")
  bundle "$VARS/$INPLACE.mlir" "$DEV/bundles/$INPLACE--$size" "${S[@]}"
  bundle "$ROOT/assets/fp8_gemm_promoted.mlir" "$DEV/bundles/fp8_gemm_promoted--$size" "${S[@]}"
  bundle "$ROOT/assets/fp8_gemm_promoted.mlir" "$DEV/bundles/fp8_gemm_promoted--overlap-$size" "${S[@]}" \
    --schedule "$HERE/schedule-overlap.json"
  bundle "$ROOT/assets/fp8_gemm_promoted_split.mlir" "$DEV/bundles/fp8_gemm_promoted_split--$size" "${S[@]}"
  bundle "$VARS/$INPLACE256.mlir" "$DEV/bundles/$INPLACE256--$size" "${S[@]}"
  bundle "$ROOT/assets/fp8_gemm.mlir" "$DEV/bundles/fp8_gemm--$size" "${S[@]}"
done
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
