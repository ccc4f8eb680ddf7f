#!/bin/bash
# one.sh FILE.mlir TAG [extra args: --size=.. --schedule=..]
# compile --no-cubin, compile (ptxas), timeline (text, --json), opt verify-schedule=summary, opt lower-reference.
# One summary line to summary.txt; logs in logs/TAG.*; bundles in /tmp/sweep8b/out/TAG.
cd "$(dirname "$0")"
f=$1; tag=$2; shift; shift
B=/tmp/sweep8/bin; L=logs; O=/tmp/sweep8b/out; mkdir -p $L $O
rm -rf $O/$tag $O/$tag.nc
t0=$(date +%s.%N)
timeout 180 $B/stagecraft-compile $f -o $O/$tag.nc --no-cubin "$@" >$L/$tag.nc 2>&1; ncrc=$?
t1=$(date +%s.%N)
timeout 180 $B/stagecraft-compile $f -o $O/$tag "$@" >$L/$tag.compile 2>&1; crc=$?
t2=$(date +%s.%N)
timeout 180 $B/stagecraft-timeline $f "$@" >$L/$tag.timeline 2>&1; trc=$?
timeout 180 $B/stagecraft-timeline $f --json "$@" >$L/$tag.tjson 2>&1; tjrc=$?
targs=(); for a in "$@"; do case $a in --schedule=*) targs+=("-tile-apply-schedule=file=${a#--schedule=}");; --cluster=*) cj=/tmp/sweep8b/cluster${a#--cluster=}.json; echo "{\"cluster\": ${a#--cluster=}, \"ops\": []}" > $cj; targs+=("-tile-apply-schedule=file=$cj");; esac; done
timeout 180 $B/stagecraft-opt $f "${targs[@]}" -tile-verify-schedule=summary -o /dev/null >$L/$tag.verify 2>&1; vrc=$?
timeout 180 $B/stagecraft-opt $f "${targs[@]}" -tile-lower-reference -o /dev/null >$L/$tag.ref 2>&1; rrc=$?
regs=$(grep -o "Used [0-9]* registers" $O/$tag/ptxas.txt 2>/dev/null | grep -o '[0-9]*' | tail -1)
spill=$(grep -o "[0-9]* bytes spill stores" $O/$tag/ptxas.txt 2>/dev/null | grep -o '^[0-9]*' | head -1)
crash=$(grep -l -E 'Stack dump|LLVM ERROR|Assertion|Segmentation|PLEASE submit|UNREACHABLE' $L/$tag.* 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')
err=$(grep -m1 -E 'error' $L/$tag.compile | cut -c1-300)
tb=$(grep -o '"buildable": *[a-z]*' $L/$tag.tjson | head -1)
man=""; half=""
if [ $crc -ne 0 ] && [ -e $O/$tag ]; then half="HALF-WRITTEN:$(ls $O/$tag | tr '\n' ,)"; fi
if [ $ncrc -ne 0 ] && [ -e $O/$tag.nc ]; then half="$half HALF-WRITTEN-nc:$(ls $O/$tag.nc | tr '\n' ,)"; fi
if [ -f $O/$tag/manifest.json ]; then man=$(python3 -c "
import json,sys;m=json.load(open('$O/$tag/manifest.json'));print('grid=%s block=%s smem=%s flops=%s peer=%s'%(m['grid'],m['block'][0],m['dynamic_smem_bytes'],m['flops'],m.get('peer',{}).get('kind')))"); fi
printf '%s %s\tnc=%s compile=%s timeline=%s tjson=%s verify=%s ref=%s regs=%s spill=%s tc=%.1fs %s %s crash=[%s]\n   err=%s\n' "$tag" "$*" $ncrc $crc $trc $tjrc $vrc $rrc "$regs" "$spill" $(echo "$t2 - $t1" | bc) "$tb" "$man" "$crash $half" "$err" | tee -a summary.txt
