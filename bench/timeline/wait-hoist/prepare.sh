#!/usr/bin/env bash
# Build machine: does ptxas hoisting the wait that retires MMA1 cost Triton's second form and
# FlashAttention-3's order their overlap? (The SASS of their plain kernels has the consumer wait
# for its own MMA1 before its softmax; their instrumented kernels, a %globaltimer read before
# the wait, do not: bench/results/short-cp-h100-2026-11-27.) Each bundle twice: as compiled, and
# with a mark put before every `wgmma.wait_group.sync.aligned 0;` of its PTX (`-$MARK`, below),
# both assembled here by ptxas with the compiler's flags.
#   bash bench/timeline/wait-hoist/prepare.sh           # .dev/wait-hoist
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/wait-hoist OUT
#             bash bench/timeline/sass-on-gpu.sh OUT/sass .dev/wait-hoist/bundles/*
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
fresh_dev wait-hoist
generate_variants
# The mark put before each wait (MARK=clock: a %clock read, which ptxas drops as unused; MARK=
# store, the default: a store predicated on %globaltimer_hi being all ones, which it cannot prove
# never happens: the high word of a nanosecond clock reaches it after 584 years).
MARK=${MARK:-store}
mark() {
  case $MARK in
    clock) echo '{ .reg .b32 %hoistmark; mov.u32 %hoistmark, %clock; }' ;;
    store) echo '{ .reg .b32 %hoistmark; .reg .b64 %hoista; .reg .pred %hoistp; mov.u32 %hoistmark, %globaltimer_hi; setp.eq.u32 %hoistp, %hoistmark, -1; cvt.u64.u32 %hoista, %hoistmark; @%hoistp st.global.u32 [%hoista], %hoistmark; }' ;;
  esac
}
compile() { # name IR [options]
  local name=$1 ir=$2; shift 2
  bash "$ROOT/bench/timeline/compile-bundle.sh" "$ir" "$DEV/bundles/$name" "$@"
  cp -r "$DEV/bundles/$name" "$DEV/bundles/$name-$MARK"
  sed -i "s/^\(\s*\)wgmma.wait_group.sync.aligned 0;/\1$(mark)\n\1wgmma.wait_group.sync.aligned 0;/" \
    "$DEV/bundles/$name-$MARK/kernel.ptx"
  for b in "$DEV/bundles/$name" "$DEV/bundles/$name-$MARK"; do
    "$PTXAS" -arch=sm_90a -O3 "$b/kernel.ptx" -o "$b/kernel.cubin"
  done
  echo "$name: $(grep -c hoistmark "$DEV/bundles/$name-$MARK/kernel.ptx") marks"
}
compile d64-cp_dot1_s3 "$ROOT/assets/attention_fwd_d64.mlir" --schedule "$S/attention_cp_dot1_s3.json"
compile d64-cp_mul_early "$ROOT/assets/attention_fwd_d64.mlir" --schedule "$S/attention_cp_mul_early.json"
compile d64-default "$ROOT/assets/attention_fwd_d64.mlir"
compile d128-cp_dot1_s3 "$ROOT/assets/attention_fwd_d128.mlir" --schedule "$S/attention_cp_dot1_s3.json"
compile d128-cp_mul_early "$ROOT/assets/attention_fwd_d128.mlir" --schedule "$S/attention_cp_mul_early.json"
compile bn64-cp_dot1_s3 "$VARS/attn_d64_bn64_bm128w2_bf16_bf16_none_cp_dot1_s3.mlir" \
  --size=B=4 --size=H=32 --size=S=8192
compile bn64-default "$VARS/attn_d64_bn64_bm128w2_bf16_bf16_none_default.mlir" \
  --size=B=4 --size=H=32 --size=S=8192
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
