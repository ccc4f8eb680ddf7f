#!/bin/bash
# Part B: odd schedule files applied to assets/gemm.mlir (app and stagecraft-timeline)
D=$(cd "$(dirname "$0")/.." && pwd); cd /work/main
for s in $D/schedules/x_*.json /tmp/sw14h/nonexistent.json $D/schedules; do t=$(basename $s .json)
  $D/scripts/shot.sh S_$t assets/gemm.mlir --schedule $s | cut -c1-360
  echo "   timeline: $(timeout 180 /tmp/sweep14/bin/stagecraft-timeline assets/gemm.mlir --schedule $s 2>&1 | head -1 | cut -c1-250)"
done
