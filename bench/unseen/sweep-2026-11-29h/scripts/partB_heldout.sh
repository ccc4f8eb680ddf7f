#!/bin/bash
# Part B: every held-out kernel of sweep-2026-11-29e in the app (and stagecraft-timeline's verdict)
D=$(cd "$(dirname "$0")/.." && pwd); cd /work/main
for f in bench/unseen/sweep-2026-11-2*/kernels/*.mlir; do t=$(basename $f .mlir)
  $D/scripts/shot.sh B_ho_$t $f | cut -c1-250
  echo "   timeline: $(timeout 180 /tmp/sweep14/bin/stagecraft-timeline $f 2>&1 | head -1 | cut -c1-200)"
done
