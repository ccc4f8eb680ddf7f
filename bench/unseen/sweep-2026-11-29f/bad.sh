#!/bin/bash
# bad.sh FILE [args]: compile (--no-cubin), timeline, verify: rc and the first error lines each
B=${B:-/tmp/sweep12/bin}
K=$1; shift
O=/tmp/sweep12/out/bad; rm -rf $O
timeout 180 $B/stagecraft-compile "$K" --no-cubin -q -o $O "$@" > /tmp/sweep12/bad-c.txt 2>&1; rc=$?
timeout 180 $B/stagecraft-timeline "$K" "$@" > /tmp/sweep12/bad-t.txt 2>&1; rt=$?
echo "== $(basename $K) $* -> compile rc=$rc timeline rc=$rt outdir:$( [ -e $O ] && ls $O | tr '\n' ' ' || echo none)"
grep -E "error|note|Assert|dump|Stack" /tmp/sweep12/bad-c.txt | cut -c1-500 | head -4
echo "  [timeline]"; grep -E "error|Assert|buildable|not|Stack" /tmp/sweep12/bad-t.txt | cut -c1-300 | head -3
