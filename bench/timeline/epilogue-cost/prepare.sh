#!/usr/bin/env bash
# Build machine: where the partial-tile dual GEMM's time outside its loop goes. The model
# predicts bench/unseen/swiglu_dual_gemm.mlir at 1000x1048x528 at 257 TFLOP/s, measured 142
# (bench/results/probe-idle-launch-h100-2026-11-26): its traced loop takes 6.3 of the launch's
# 19 us. Bundles (plain, no probes) of that kernel and of two edits of its epilogue, at K = 64
# (one iteration), 528 and 1056, beside the single GEMM asset at the same sizes:
#   swiglu      as written: C = silu(A W1^T) * (A W2^T) + R
#   noresidual  without R (C = silu(...) * (...))
#   nosilu      without the SiLU (C = (A W1^T) * (A W2^T) + R)
#   gemm        assets/gemm_128x128.mlir
# into .dev/epilogue-cost with the runner; GPU host: bash bench/timeline/run-bundles-on-gpu.sh
# .dev/epilogue-cost OUT (rounds as ROUNDS says).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/epilogue-cost
rm -rf "$DEV" && mkdir -p "$DEV/ir"
SRC=$ROOT/bench/unseen/swiglu_dual_gemm.mlir
cp "$SRC" "$DEV/ir/swiglu.mlir"
python3 - "$SRC" "$DEV/ir" <<'PY'
import sys
src, out = sys.argv[1], sys.argv[2]
ir = open(src).read()
# Without R: the sum with the residual dropped (R stays an argument, unread).
no_r = ir.replace("    %r = tile.load %R[%m0, %n0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>\n", "")
no_r = no_r.replace("    %rf = arith.extf %r : tensor<128x128xbf16> to tensor<128x128xf32>\n", "")
no_r = no_r.replace("%o = arith.addf %h, %rf", "%o = arith.addf %h, %zero")
assert no_r.count("%rf") == 0 and no_r.count("tile.load %R") == 0
open(f"{out}/noresidual.mlir", "w").write(no_r)
# Without the SiLU: the gate's accumulator used as it is.
no_silu = ir.replace("%h = arith.mulf %silu, %acc#1", "%h = arith.mulf %acc#0, %acc#1")
assert no_silu != ir
open(f"{out}/nosilu.mlir", "w").write(no_silu)
PY
for k in 64 528 1056; do
  for v in swiglu noresidual nosilu; do
    "$ROOT/build/bin/stagecraft-compile" "$DEV/ir/$v.mlir" --size M=1000 --size N=1048 --size K=$k \
      -o "$DEV/bundles/$v-k$k" -q
  done
  "$ROOT/build/bin/stagecraft-compile" "$ROOT/assets/gemm_128x128.mlir" --size M=1000 --size N=1048 --size K=$k \
    -o "$DEV/bundles/gemm-k$k" -q
done
rm -rf "$DEV"/bundles/*/ir "$DEV"/bundles/*/*.ll
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
