#!/bin/bash
# ex.sh KERNEL [sizes...]: compile --no-cubin and the timeline's buildable, one line each
B=${B:-/tmp/sweep11/bin}
K=$1; shift
O=/tmp/sweep11/out/ex; rm -rf $O
timeout 180 $B/stagecraft-compile "$K" --no-cubin -q -o $O "$@" > /tmp/sweep11/ex.txt 2>&1; rc=$?
tb=$(timeout 180 $B/stagecraft-timeline "$K" --json "$@" 2>&1 | grep -o '"buildable": *[a-z]*' | head -1)
echo "$(basename $K) $* -> compile rc=$rc timeline $tb"
grep -E "error|note|Assert|dump" /tmp/sweep11/ex.txt | cut -c1-400 | head -4
