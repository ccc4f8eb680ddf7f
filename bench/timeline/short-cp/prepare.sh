#!/usr/bin/env bash
# Build machine: where Triton's second form (cp-dot1-s3) loses at 1000 keys. The generated
# attention variant in 64-key blocks (attn_d64_bn64_bm128w2_bf16_bf16_none, make_variants.py)
# under the default, cp-dot1-s3 and cp-dot0-s2 schedules at B2 H8 S1000 (128 CTAs, one wave,
# every CTA recording) and at B4 H32 S8192 (8192 CTAs, 132 of them recording), with the runner.
#   bash bench/timeline/short-cp/prepare.sh            # .dev/short-cp
#   GPU host: bash bench/timeline/short-cp/traces-on-gpu.sh OUT       (carry .dev/short-cp)
#   here:     python3 bench/timeline/short-cp/iterations.py OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev short-cp
generate_variants
for s in default cp_dot1_s3 cp_dot0_s2; do
  ir=$VARS/attn_d64_bn64_bm128w2_bf16_bf16_none_$s.mlir
  bash "$ROOT/bench/timeline/compile-bundle.sh" "$ir" "$DEV/bundles/s1000-$s" \
    --size=B=2 --size=H=8 --size=S=1000 --with-timeline --timeline-ctas=128
  bash "$ROOT/bench/timeline/compile-bundle.sh" "$ir" "$DEV/bundles/s8192-$s" \
    --size=B=4 --size=H=32 --size=S=8192 --with-timeline --timeline-ctas=132
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
