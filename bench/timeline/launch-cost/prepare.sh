#!/usr/bin/env bash
# Build machine: the generated 64/128-row GEMM variants of `assets.py --set short` compiled at
# several K (the loop's length) and M (one round of CTAs or two), plain kernels only, into
# .dev/launch-cost/bundles (ir/ and kernel.ll left out to keep the carry small) and the runner
# into .dev/launch-cost/stagecraft-run. What it is for: a kernel's time against its K gives
# the loop's slope and the intercept the set-up and epilogue (README.md).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/launch-cost
rm -rf "$DEV" && mkdir -p "$DEV/bundles" "$DEV/mlir"
python3 "$ROOT/test/variants/make_variants.py" "$DEV/mlir" --set all > /dev/null
KERNELS=${KERNELS:-"gemm_bf16_aK_bK_none_bf16_128x128_ws_ahead2 gemm_bf16_aK_bK_none_bf16_128x256_ws_ahead2
  gemm_bf16_aK_bK_none_bf16_64x128_one_group gemm_bf16_aK_bK_none_bf16_64x128_ws_ahead1
  gemm_bf16_aK_bK_none_bf16_64x128_ws_ahead2"}
for k in $KERNELS; do
  for m in ${MS:-1000 896}; do
    for kk in ${KS:-64 192 528 1056 2112}; do
      b=$DEV/bundles/$k--M$m-K$kk
      "$ROOT/build/bin/stagecraft-compile" "$DEV/mlir/$k.mlir" --size=M=$m --size=N=1048 --size=K=$kk \
        -o "$b" > "$b.log" 2>&1 || { echo "compile failed: $b (see $b.log)"; exit 1; }
      rm -rf "$b/ir" "$b/kernel.ll" "$b.log"
    done
  done
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
# then, on the GPU host: bash bench/timeline/run-bundles-on-gpu.sh .dev/launch-cost "$OUT"
du -sh "$DEV"
