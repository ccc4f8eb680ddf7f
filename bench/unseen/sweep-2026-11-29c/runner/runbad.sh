#!/bin/bash
# stagecraft-run on every bundle in bad/: exit status, status and error (or what went wrong)
cd "$(dirname "$0")"
for d in bad/*/; do d=${d%/}
  start=$(date +%s.%N)
  out=$(timeout 60 /tmp/sweep9/bin/stagecraft-run "$d" 2>/tmp/runerr.txt); rc=$?
  t=$(python3 -c "print(f'{$(date +%s.%N)-$start:.2f}')")
  line=$(echo "$out" | python3 summ.py)
  echo "$(basename $d) rc=$rc t=${t}s :: $line :: stderr=$(head -c 200 /tmp/runerr.txt | tr '\n' ' ')"
done
