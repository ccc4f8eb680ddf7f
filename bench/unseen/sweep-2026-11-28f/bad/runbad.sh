#!/bin/bash
# runbad.sh FILE [args]: compile, timeline, reference; prints rc and the first error line of each, flags crashes and leftover bundles
f=$1; shift; B=/tmp/sweep6/bin; o=/tmp/sweep6/out/bad_$(basename $f .mlir); rm -rf $o
timeout 60 $B/stagecraft-compile $f -o $o "$@" >/tmp/sweep6/logs/bad.c 2>&1; c=$?
timeout 60 $B/stagecraft-timeline $f --json "$@" >/tmp/sweep6/logs/bad.t 2>&1; t=$?
timeout 60 $B/stagecraft-opt $f -tile-lower-reference -o /dev/null >/tmp/sweep6/logs/bad.r 2>&1; r=$?
cr=$(cat /tmp/sweep6/logs/bad.c /tmp/sweep6/logs/bad.t /tmp/sweep6/logs/bad.r | grep -c -E 'Stack dump|LLVM ERROR|Assertion|Segmentation')
left=$( [ -e $o ] && echo "OUTDIR-LEFT($(ls $o | tr '\n' ' '))" )
echo "$(basename $f) $* c=$c t=$t r=$r crash=$cr $left"
echo "   C: $(grep -m1 -E 'error|Error|rror' /tmp/sweep6/logs/bad.c | cut -c1-260)"
echo "   T: $(grep -m1 -E 'error|Error|rror' /tmp/sweep6/logs/bad.t | cut -c1-260)"
echo "   R: $(grep -m1 -E 'error|Error|rror' /tmp/sweep6/logs/bad.r | cut -c1-200)"
