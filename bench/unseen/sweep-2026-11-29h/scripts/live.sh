#!/bin/bash
# live.sh TAG SECONDS HOME [app args...]: runs the real app (no --screenshot, so autosave is on)
# on its own Xvfb with -fbdir, grabs the screen after SECONDS, then SIGTERMs the app (its pid only).
D=$(cd "$(dirname "$0")/.." && pwd); tag=$1; secs=$2; home=$3; shift 3
FB=/tmp/sw14h/fb_$tag; rm -rf $FB; mkdir -p $FB /tmp/sw14h/shots /tmp/sw14h/logs
disp=$(( 170 + RANDOM % 50 ))
Xvfb :$disp -screen 0 1720x1040x24 -fbdir $FB -nolisten tcp > /dev/null 2>&1 & xp=$!
sleep 1.5
HOME=$home DISPLAY=:$disp timeout 180 /tmp/sweep14/bin/stagecraft "$@" > /tmp/sw14h/logs/$tag.txt 2>&1 & ap=$!
sleep $secs
python3 $D/scripts/xwd2png.py $FB/Xvfb_screen0 /tmp/sw14h/shots/$tag.png
kill -TERM $ap 2>/dev/null; wait $ap; echo "rc=$?" >> /tmp/sw14h/logs/$tag.txt
kill $xp 2>/dev/null; wait $xp 2>/dev/null
echo "$tag: $(tr '\n' ' ' < /tmp/sw14h/logs/$tag.txt | cut -c1-300)"
