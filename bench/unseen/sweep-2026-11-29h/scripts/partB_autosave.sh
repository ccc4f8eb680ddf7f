#!/bin/bash
# Part B: the autosaved session (real app, no --screenshot, own Xvfb; see live.sh)
D=$(cd "$(dirname "$0")/.." && pwd); cd /work/main
L=$D/scripts/live.sh; S=$D/schedules
# 1. save, restore with no file, restore with the same file
H=/tmp/sw14h/home2; rm -rf $H; mkdir -p $H; A=$H/.local/state/stagecraft/autosave.json
$L L_A_first 8 $H assets/gemm.mlir --no-runner --schedule $S/g_gemm_s1w1.json; cp $A /tmp/sw14h/autosave_A.json
$L L_B_nofile 8 $H --no-runner
$L L_C_samefile 8 $H assets/gemm.mlir --no-runner
# 2. a truncated autosave: reported? kept?
head -c 1500 /tmp/sw14h/autosave_A.json > $A; cp $A /tmp/sw14h/autosave_broken.json
$L L_D_broken 8 $H --no-runner
cmp -s $A /tmp/sw14h/autosave_broken.json && echo "D: broken autosave kept" || echo "D: broken autosave OVERWRITTEN by: $(python3 -c "import json;print(json.load(open('$A'))['ir_path'])")"
ls $H/.local/state/stagecraft/
# 3. the file moved away since
H=/tmp/sw14h/home3; rm -rf $H; mkdir -p $H; cp assets/gemm.mlir /tmp/sw14h/gone.mlir
$L L_E1 7 $H /tmp/sw14h/gone.mlir --no-runner --schedule $S/g_gemm_s1w1.json; rm /tmp/sw14h/gone.mlir
$L L_E2_moved 7 $H --no-runner
# 4. the state directory is a file
H=/tmp/sw14h/home4; rm -rf $H; mkdir -p $H/.local/state; echo x > $H/.local/state/stagecraft
$L L_F_unwritable 7 $H assets/gemm.mlir --no-runner --schedule $S/g_gemm_s1w1.json
# 5. valid JSON, wrong content
H=/tmp/sw14h/home5; rm -rf $H; mkdir -p $H/.local/state/stagecraft
echo '{"format":"stagecraft-session","version":1,"ir_path":"/work/main/assets/gemm.mlir","ir_text":"module {}","schedule":"nope"}' > $H/.local/state/stagecraft/autosave.json
$L L_G_badcontent 7 $H --no-runner
echo "G: autosave now for $(python3 -c "import json;print(json.load(open('$H/.local/state/stagecraft/autosave.json'))['ir_path'])")"
# 6. a lesson in progress, closed, reopened
H=/tmp/sw14h/home6; rm -rf $H; mkdir -p $H; A=$H/.local/state/stagecraft/autosave.json
$L L_H1_lesson 7 $H --no-runner --lesson 2 --schedule $S/l2_wait1_s2.json
$L L_H2_reopen 7 $H --no-runner
$L L_H3_relesson 7 $H --no-runner --lesson 2
python3 -c "import json;d=json.load(open('$A'));print('H: after reopening the lesson the autosave holds', len(d['runs']), 'run(s):', [r['steady_state'] for r in d['runs']])"
