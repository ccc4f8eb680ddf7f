#!/bin/bash
# stagecraft-timeline's "buildable" against stagecraft-compile's exit status, one compile at a time.
# input: the sweep log (sweep.py); output: lines "AGREE|DISAGREE tl=... compile=rc spec"
B=${B:-/tmp/sweep13/bin}; LOG=$1; N=${N:-80}
cd /work/main
{ grep "buildable=False" $LOG; grep "buildable=True" $LOG | awk 'NR % 6 == 0' | head -$N; } | while read -r line; do
  spec=${line%%: rc=*}; tl=$(echo "$line" | grep -o 'buildable=[A-Za-z]*' | cut -d= -f2)
  k=${spec%% + *}; args=()
  case "$spec" in *" + "*) s=${spec#* + }; s=${s%% *}; [ -f assets/schedules/$s ] && args+=(--schedule assets/schedules/$s); [ -f test/Inputs/$s ] && args+=(--schedule test/Inputs/$s);; esac
  case "$k" in *" --size"*) for a in ${k#* }; do args+=($a); done; k=${k%% *};; esac
  rm -rf /tmp/g13/agree-bundle
  out=$(timeout 180 $B/stagecraft-compile $k "${args[@]}" --no-cubin -o /tmp/g13/agree-bundle 2>&1); rc=$?
  c=$([ $rc = 0 ] && echo True || echo False)
  v=$([ "$c" = "$tl" ] && echo AGREE || echo DISAGREE)
  echo "$v tl=$tl compile=$rc $spec :: $(echo "$out" | grep -m1 error | cut -c1-200)"
done
