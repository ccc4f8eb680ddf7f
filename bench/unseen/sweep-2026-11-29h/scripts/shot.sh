#!/bin/bash
# usage: shot.sh TAG FILE.mlir [app args...]  -> /tmp/sw14h/shots/TAG.png, logs/TAG.txt
B=/tmp/sweep14/bin
D=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p /tmp/sw14h/shots /tmp/sw14h/logs
tag=$1; shift; f=$1; shift
HOME=${APPHOME:-/tmp/apphome14} timeout 180 xvfb-run -a -s "-screen 0 1720x1040x24" $B/stagecraft "$f" --no-runner --no-restore --screenshot /tmp/sw14h/shots/$tag.png "$@" > "/tmp/sw14h/logs/$tag.txt" 2>&1
rc=$?
echo "rc=$rc" >> "/tmp/sw14h/logs/$tag.txt"
echo "$tag rc=$rc $(tail -c 300 "/tmp/sw14h/logs/$tag.txt" | tr '\n' ' ')"
