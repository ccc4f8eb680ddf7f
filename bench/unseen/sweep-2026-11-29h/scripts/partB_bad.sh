#!/bin/bash
# Part B: kernels the compiler refuses (earlier sweeps' bad/ inputs) in the app
D=$(cd "$(dirname "$0")/.." && pwd); cd /work/main
for f in bench/unseen/sweep-2026-11-29/bad/x*.mlir bench/unseen/sweep-2026-11-29b/bad/[yz]*.mlir; do t=$(basename $f .mlir)
  $D/scripts/shot.sh B_bad_$t $f | cut -c1-330
done
