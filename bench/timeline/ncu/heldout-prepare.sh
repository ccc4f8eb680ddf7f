#!/usr/bin/env bash
# Build machine: kernels none of the ncu folders of 2026-11-27 profiled, to check the timeline
# model's power clock on kernels it was not measured on: its clock for each is written to
# DEV/predicted.txt before any GPU run, then Nsight Compute reads the SM clock
# (bench/timeline/ncu/power_clock.py --rows, after calibrate.py --rows, compares the two).
#   bash bench/timeline/ncu/heldout-prepare.sh                                        # .dev/ncu-heldout
#   GPU host: CLOCKS=1 bash bench/timeline/ncu/ncu-on-gpu.sh .dev/ncu-heldout OUT   (carry it)
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev ncu-heldout
generate_variants
: > "$DEV/predicted.txt"
one() { # NAME IR [stagecraft-compile options...]
  local name=$1 ir=$2
  shift 2
  bundle "$ir" "$DEV/bundles/$name" "$@"
  { echo "== $name"; "$ROOT/build/bin/stagecraft-timeline" "$ir" "$@" 2>&1 | grep -E "^kernel|SM clock"; } \
    >> "$DEV/predicted.txt"
}
one attention_fwd_d64_causal "$ROOT/assets/attention_fwd_d64_causal.mlir"
one attention_fwd_d128_causal "$ROOT/assets/attention_fwd_d128_causal.mlir"
one mxfp8_gemm "$ROOT/assets/mxfp8_gemm.mlir"
one mxfp8_gemm_upcast "$ROOT/assets/mxfp8_gemm_upcast.mlir"
one gemm_e4m3_aK_bK_tensorscale_bf16_128x256_ws_ahead2 \
  "$VARS/gemm_e4m3_aK_bK_tensorscale_bf16_128x256_ws_ahead2.mlir" --size=M=8192 --size=N=8192 --size=K=8192
one swiglu_dual_gemm "$ROOT/bench/unseen/swiglu_dual_gemm.mlir" --size=M=4096 --size=N=4096 --size=K=4096
for v in attn_d128_bn128_bm128w2_bf16_bf16_softcap_default attn_d128_bn128_bm128w2_bf16_bf16_softcap_cp_dot1_s3; do
  one "$v" "$VARS/$v.mlir" "${BIG[@]/H=32/H=16}"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
cat "$DEV/predicted.txt"
du -sh "$DEV"
