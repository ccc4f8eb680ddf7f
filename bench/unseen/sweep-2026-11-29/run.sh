#!/bin/bash
# run.sh FILE.mlir [TAG] [extra args: --size=.. --schedule=..]: compile --no-cubin, compile (ptxas),
# timeline, opt verify-schedule + lower-reference; one summary line to run-summary.txt; logs in /tmp/sweep7/logs/TAG.*
f=$1; tag=${2:-$(basename $f .mlir)}; shift; shift
B=/tmp/sweep7/bin; L=/tmp/sweep7/logs; O=/tmp/sweep7/out; mkdir -p $L $O
rm -rf $O/$tag $O/$tag.nc
timeout 180 $B/stagecraft-compile $f -o $O/$tag.nc -q --no-cubin "$@" >$L/$tag.nc 2>&1; ncrc=$?
s=$(date +%s.%N)
timeout 180 $B/stagecraft-compile $f -o $O/$tag -q "$@" >$L/$tag.compile 2>&1; crc=$?
e=$(date +%s.%N)
timeout 180 $B/stagecraft-timeline $f "$@" >$L/$tag.timeline 2>&1; trc=$?
timeout 180 $B/stagecraft-timeline $f --json "$@" >$L/$tag.tjson 2>&1
targs=(); for a in "$@"; do case $a in --schedule=*) targs+=("-tile-apply-schedule=file=${a#--schedule=}");; esac; done
timeout 180 $B/stagecraft-opt $f "${targs[@]}" -tile-verify-schedule=summary -o /dev/null >$L/$tag.verify 2>&1; vrc=$?
timeout 180 $B/stagecraft-opt $f "${targs[@]}" -tile-lower-reference -o /dev/null >$L/$tag.ref 2>&1; rrc=$?
regs=$(grep -o "Used [0-9]* registers" $O/$tag/ptxas.txt 2>/dev/null | grep -o '[0-9]*' | tail -1)
spill=$(grep -o "[0-9]* bytes spill stores" $O/$tag/ptxas.txt 2>/dev/null | grep -o '^[0-9]*' | head -1)
crash=$(grep -l -E 'Stack dump|LLVM ERROR|Assertion|Segmentation|PLEASE submit' $L/$tag.* 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')
err=$(grep -m1 -E 'error' $L/$tag.compile | cut -c1-240)
tb=$(grep -o '"buildable": *[a-z]*' $L/$tag.tjson | head -1)
printf '%s %s\tnc=%s compile=%s timeline=%s verify=%s ref=%s regs=%s spill=%s t=%.1fs %s crash=[%s]\n   err=%s\n' "$tag" "$*" $ncrc $crc $trc $vrc $rrc "$regs" "$spill" $(echo "$e - $s" | bc) "$tb" "$crash" "$err" | tee -a run-summary.txt
