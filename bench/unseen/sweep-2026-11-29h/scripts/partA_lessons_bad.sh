#!/bin/bash
# Part A: --lesson with odd values and broken lesson directories (copies of lesson 1 under /tmp)
D=$(cd "$(dirname "$0")/.." && pwd); cd /work/main
L=/tmp/sw14h/lessons; rm -rf $L; mkdir -p $L; l1=/work/main/assets/lessons/01-why-pipeline
mk() { cp -r $l1 "$L/$1"; }
mk badkind; sed -i 's/"ahead"/"fast"/' $L/badkind/goal.json
mk badunit; sed -i 's/"loadA", "of"/"loadZ", "of"/' $L/badunit/goal.json
mk nokernel; rm $L/nokernel/kernel.mlir
mk notjson; echo '{"criteria": [' > $L/notjson/goal.json
mk "space ünï"
mk nocrit; echo '{"format":"stagecraft-lesson-goal","version":1,"summary":"x","criteria":[]}' > $L/nocrit/goal.json
mk emptymd; : > $L/emptymd/lesson.md
mk minmax; sed -i 's/"stages", "min": 2/"stages", "min": 3, "max": 2/' $L/minmax/goal.json
mk badmlir; echo 'module { garbage' > $L/badmlir/kernel.mlir
for a in 0 7 -1 abc 1.5 01 "$L/badkind" "$L/badunit" "$L/nokernel" "$L/notjson" "$L/space ünï" "$L/nocrit" "$L/emptymd" "$L/minmax" "$L/badmlir" /nonexistent /work/main/assets/lessons; do
  t=Lbad_$(echo "$a" | tr -c 'a-zA-Z0-9' '_' | tail -c 20); $D/scripts/shot.sh $t "" --lesson "$a" | cut -c1-300; done
