#!/bin/bash
# predicted timeline of every lesson schedule and of each lesson's start, one line each
B=/tmp/sweep14/bin; D=$(cd "$(dirname "$0")/.." && pwd); cd /work/main
for n in 1 2 3 4 5 6; do K=$(ls assets/lessons/0$n-*/kernel.mlir)
  echo "L$n start: $(timeout 180 $B/stagecraft-timeline $K 2>&1 | head -1)"
  for s in $D/schedules/l${n}_*.json docs/tutorial/lesson$n-*.json; do [ -f $s ] || continue
    echo "L$n $(basename $s): $(timeout 180 $B/stagecraft-timeline $K --schedule $s 2>&1 | head -1)"; done; done
