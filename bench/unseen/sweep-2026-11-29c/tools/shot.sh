#!/bin/bash
# shot.sh NAME FILE.mlir [app args...]: headless screenshot into shots/NAME.png, log into logs/app-NAME.log
H=$(cd "$(dirname "$0")/.." && pwd); cd $H
N=$1; F=$2; shift 2
mkdir -p /tmp/apphome9
start=$(date +%s)
HOME=/tmp/apphome9 timeout 120 xvfb-run -a -s "-screen 0 1720x1040x24" /tmp/sweep9/bin/stagecraft "$F" --no-runner --no-restore --screenshot shots/$N.png "$@" > logs/app-$N.log 2>&1; rc=$?
echo "[$N] rc=$rc $(( $(date +%s) - start ))s png=$( [ -f shots/$N.png ] && echo yes || echo no ) :: $(tail -3 logs/app-$N.log | tr '\n' ' ' | cut -c1-300)"
