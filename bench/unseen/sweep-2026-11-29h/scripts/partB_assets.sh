#!/bin/bash
# Part B: every asset, plus timeline-only panel, in the app
D=$(cd "$(dirname "$0")/.." && pwd); cd /work/main
for f in assets/*.mlir; do t=$(basename $f .mlir)
  $D/scripts/shot.sh B_asset_$t $f
done
for f in assets/gemm.mlir assets/persistent_gemm_pingpong.mlir assets/attention_fwd_d128.mlir; do t=$(basename $f .mlir)
  $D/scripts/shot.sh B_tl_$t $f --panel timeline
done
