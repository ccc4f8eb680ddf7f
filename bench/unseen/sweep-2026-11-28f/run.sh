#!/bin/bash
# run.sh FILE.mlir [TAG] [extra compile/timeline args...]: the three tools on one loop, one summary line
# appended to run-summary.txt; full outputs under /tmp/sweep6/logs/TAG.*
f=$1; tag=${2:-$(basename $f .mlir)}; shift; shift
B=/tmp/sweep6/bin; L=/tmp/sweep6/logs; mkdir -p $L /tmp/sweep6/out
rm -rf /tmp/sweep6/out/$tag
start=$(date +%s.%N)
timeout 120 $B/stagecraft-compile $f -o /tmp/sweep6/out/$tag "$@" >$L/$tag.compile 2>&1; crc=$?
end=$(date +%s.%N)
timeout 120 $B/stagecraft-timeline $f --json "$@" >$L/$tag.timeline 2>&1; trc=$?
targs=(); for a in "$@"; do case $a in --schedule=*) targs+=("-tile-apply-schedule=file=${a#--schedule=}");; esac; done
timeout 120 $B/stagecraft-opt $f "${targs[@]}" -tile-lower-reference -o /dev/null >$L/$tag.ref 2>&1; rrc=$?
regs=$(grep -o 'ptxas: [0-9]* registers' $L/$tag.compile | grep -o '[0-9]*' | head -1)
spill=$(grep -o '[0-9]* bytes spill stores' $L/$tag.compile | grep -o '^[0-9]*' | head -1)
notes=$(grep -o 'C75[0-9][0-9]' $L/$tag.compile | sort -u | tr '\n' ' ')
crash=$(grep -l -E 'Stack dump|LLVM ERROR|Assertion|Segmentation|signal' $L/$tag.compile $L/$tag.timeline $L/$tag.ref 2>/dev/null | tr '\n' ' ')
err=$(grep -m1 -E 'error' $L/$tag.compile | cut -c1-220)
tbuild=$(grep -o '"buildable": *[a-z]*' $L/$tag.timeline | head -1)
terr=$(grep -m1 -o '"error": *"[^"]\{0,120\}' $L/$tag.timeline)
printf '%s\tcompile=%s\ttimeline=%s\tref=%s\tregs=%s\tspill=%s\tnotes=%s\tcrash=%s\t%s\t%s\tt=%.1fs\terr=%s\n' "$tag" $crc $trc $rrc "$regs" "$spill" "$notes" "$crash" "$tbuild" "$terr" $(echo "$end - $start" | bc) "$err" | tee -a run-summary.txt
