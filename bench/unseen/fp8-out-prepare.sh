#!/usr/bin/env bash
# Build machine: FP8 outputs and computed FP8 tiles (cvt.rn.satfinite in the kernel, the
# reference's own rounding), verified on the GPU against the reference and predicted before
# the run (bench/unseen/fp8-out-2026-11-28):
#   group_quant_e4m3.mlir    per-token-group quantization after a GEMM: Q in e4m3, scales f32;
#   fp8_gemm_e4m3_out.mlir   an e4m3 GEMM with an e4m3 output and an output scale (128x256);
#   gemm_e5m2_out.mlir       a bf16 GEMM with an e5m2 output (128x128);
#   attention_e4m3_out.mlir  attention (d128) with O in e4m3;
#   attention_p_e4m3.mlir    attention (d128) with P fake-quantized to e4m3 in the loop;
#   fp8_store_small.mlir     a tile, its fake quantization and an e5m2 vector (one CTA each).
#   bash bench/unseen/fp8-out-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/unseen-fp8-out OUT  (carry .dev/unseen-fp8-out)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev unseen-fp8-out
F=$ROOT/bench/unseen/fp8-out-2026-11-28
named_bundle group-quant-e4m3 "$F/group_quant_e4m3.mlir"
named_bundle group-quant-e4m3-partial "$F/group_quant_e4m3.mlir" --size=M=1000 --size=N=1280 --size=K=520
named_bundle fp8-gemm-e4m3-out "$F/fp8_gemm_e4m3_out.mlir"
named_bundle gemm-e5m2-out "$F/gemm_e5m2_out.mlir" --size=M=4096 --size=N=4096 --size=K=4096
named_bundle gemm-e5m2-out-partial "$F/gemm_e5m2_out.mlir" --size=M=1000 --size=N=1040 --size=K=520
named_bundle attention-e4m3-out "$F/attention_e4m3_out.mlir" --size=B=4 --size=H=16 --size=S=4096
named_bundle attention-e4m3-out-partial "$F/attention_e4m3_out.mlir" --size=B=2 --size=H=4 --size=S=1000
named_bundle attention-p-e4m3 "$F/attention_p_e4m3.mlir" --size=B=4 --size=H=16 --size=S=4096
named_bundle fp8-store-small "$F/fp8_store_small.mlir" --size=N=1000
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
