#!/bin/bash
# Compiles every gpu-list.txt line with ptxas (one at a time, timeout 180): rc, registers, spills.
B=${B:-/tmp/sweep12/bin}
cd "$(dirname "$0")/../../.."   # repository root
grep -v '^#' bench/unseen/sweep-2026-11-29f/gpu-list.txt | sed 's/ *#.*//' | while read -r k args; do
  [ -z "$k" ] && continue
  O=/tmp/sweep12/out/gpucheck; rm -rf $O
  timeout 180 $B/stagecraft-compile $k $args -q -o $O > /tmp/sweep12/gpucheck.txt 2>&1; rc=$?
  regs=$(grep -o "Used [0-9]* registers" $O/ptxas.txt 2>/dev/null | head -1)
  spill=$(grep -o "[0-9]* bytes spill stores" $O/ptxas.txt 2>/dev/null | head -1)
  echo "rc=$rc $(basename $k) $args | $regs | $spill | $(grep -c error /tmp/sweep12/gpucheck.txt) errors"
done
