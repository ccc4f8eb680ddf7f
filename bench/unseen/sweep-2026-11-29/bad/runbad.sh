#!/bin/bash
# runbad.sh FILE [args]: compile (--no-cubin), timeline, opt verify + reference; rc and first error line of each
f=$1; shift; B=/tmp/sweep7/bin; L=/tmp/sweep7/logs; n=$(basename $f .mlir); o=/tmp/sweep7/out/bad_$n; rm -rf $o
timeout 180 $B/stagecraft-compile $f -o $o --no-cubin -q "$@" >$L/bad_$n.c 2>&1; c=$?
timeout 180 $B/stagecraft-timeline $f --json "$@" >$L/bad_$n.t 2>&1; t=$?
targs=(); for a in "$@"; do case $a in --schedule=*) targs+=("-tile-apply-schedule=file=${a#--schedule=}");; esac; done
timeout 180 $B/stagecraft-opt $f "${targs[@]}" -tile-verify-schedule=summary -o /dev/null >$L/bad_$n.v 2>&1; v=$?
timeout 180 $B/stagecraft-opt $f "${targs[@]}" -tile-lower-reference -o /dev/null >$L/bad_$n.r 2>&1; r=$?
cr=$(cat $L/bad_$n.* | grep -c -E 'Stack dump|LLVM ERROR|Assertion|Segmentation|PLEASE submit')
left=$( [ -e $o/manifest.json ] && echo "BUNDLE-WRITTEN" )
tb=$(grep -o '"buildable": *[a-z]*' $L/bad_$n.t | head -1)
echo "$n $* c=$c t=$t v=$v r=$r crash=$cr $left $tb" | tee -a results.txt
for x in c t v r; do echo "   $x: $(grep -m1 -E 'error|rror|warning' $L/bad_$n.$x | cut -c1-300)" | tee -a results.txt; done
