#!/bin/bash
# cmp_msgs.sh: for every refused configuration in /tmp/sweep6/logs, compare the first error line of compile, timeline and reference
for c in /tmp/sweep6/logs/*.compile; do t=${c%.compile}; tag=$(basename $t)
  ce=$(grep -m1 'error:' $c); te=$(grep -m1 'error' $t.timeline | sed 's/^ *"error": *"//; s/",\?$//')
  [ -z "$ce" ] && continue
  if [ "$ce" != "$te" ]; then echo "DIFF $tag"; echo "  compile : ${ce:0:250}"; echo "  timeline: ${te:0:250}"; fi
done
