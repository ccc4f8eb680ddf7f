#!/usr/bin/env bash
# Build machine: the fourth held-out sweep (2026-11-28d): a helper's loops written against the
# tools without the compiler's authors (bench/unseen/sweep-2026-11-28d/, README.md: epilogue-heavy
# GEMMs with residuals, gates, biases, layer norms, several outputs; persistent and ping-pong
# kernels with residuals and tails; attention with gates, residuals, LSE in other dtypes, GQA;
# odd spellings), the ones that compile, each under its IR's schedule or one of the sweep's
# (NAME--SCHEDULE), at the IR's default sizes; with the loop whose K walks a permuted block order
# (test/Inputs/unseen/permuted-k.mlir) and the ping-pong GEMM with a residual. Predicted
# (bench/timeline/predict_bundles.py) before any GPU run: commit the predictions as
# bench/unseen/sweep-predictions-2026-11-28d.jsonl.
#   bash bench/unseen/sweep-d-prepare.sh
#   GPU host: ROUNDS=2 bash bench/timeline/run-bundles-on-gpu.sh .dev/unseen-sweep-d OUT  (carry .dev/unseen-sweep-d)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev unseen-sweep-d
F=$ROOT/bench/unseen/sweep-2026-11-28d
# NAME or NAME:SCHEDULE (a file of $F/schedules, or assets/schedules/ with assets:).
CONFIGS=(e01_256_bk32_6st_resf32 e01_256_bk32_6st_resf32:s18_mma_stage0_wait1_after
  e05_128_rowbias_colbias_res e05_128_rowbias_colbias_res:s01_gemm_2st
  e05_128_rowbias_colbias_res:s11_gemm_cluster2 e06_192x128_res_colbias e07_64x256_layernorm
  e08_128x256_res_layernorm e09_256x128_rowcol_f16out e10_128x256_pre_and_gelu
  e10_128x256_pre_and_gelu:s02_gemm_staggered e11_128x192_pre_f32_silu_f16
  e14_128x128_res_f32out_rms e15b_128x128_res_and_loopstore e16_128x128_f32R_in_and_after
  e17_128x256_alpha_beta_extract e18_128x128_kscale_extract_in_and_after
  g01_amajor_128x256_res_tails g02_bnmajor_128x192_rowscale_f16 g03_256x128_res_f32out_k32
  g05_192x128_f16_res_f32 p01_pers_128x128_res_tails
  p05_pp_128x128_two_out_f16:s19_cooperative_on_pp p06_pers_rowsum_ktail
  p06_pers_rowsum_ktail:s11_gemm_cluster2 p08_pp_128x64_res_f32 p08_pp_128x64_res_f32:s01_gemm_2st
  p02_pp_128x128_bias_silu_res a01_d64_bk128_gate a02_d96_bk64_resf32_f16out
  a03_d128_bk64_gqa8_lse_f32out a03_d128_bk64_gqa8_lse_f32out:s16_attn_staggered
  a04_d256_bk64_bq64_gate a05_d128_res_lse_bf16 a05_d128_res_lse_bf16:assets:attention_cp_dot0_s2
  a06_d64_bk64_f16_causal_lse a07_d128_gate_res a07_d128_gate_res:assets:attention_cp_dot1_s3
  a08_d96_gqa4_causal_gate a09_d256_bk64_bq128_res a10_d128_bk128_gqa2_lsef16_partial
  x01_res_loaded_before_loop_bk32_6st x02_gathered_residual_128x256 x03_res_colmax_128x256
  x04_spellings x06_loop_desc_reloaded_after)
for c in "${CONFIGS[@]}"; do
  name=${c%%:*}
  if [[ $c == *:* ]]; then
    s=${c#*:}
    if [[ $s == assets:* ]]; then sched=$S/${s#assets:}.json; label=${s#assets:}; else sched=$F/schedules/$s.json; label=$s; fi
    mkdir -p "$DEV/ir" && cp "$F/$name.mlir" "$DEV/ir/$name.mlir"
    bundle "$F/$name.mlir" "$DEV/bundles/$name--$label" --schedule "$sched" || echo "refused: $c"
  else
    named_bundle "$name" "$F/$name.mlir" || echo "refused: $c"
  fi
done
named_bundle permuted-k "$ROOT/test/Inputs/unseen/permuted-k.mlir"
named_bundle persistent-pingpong-residual "$ROOT/test/Inputs/unseen/persistent-pingpong-residual.mlir"
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
