#!/bin/bash
# Part A: every lesson schedule applied with --lesson N --schedule S
D=$(cd "$(dirname "$0")/.." && pwd); cd /work/main
for s in $D/schedules/l[1-6]_*.json; do
  n=$(basename $s | cut -c2); t=$(basename $s .json)
  $D/scripts/shot.sh A_$t "" --lesson $n --schedule $s
done
