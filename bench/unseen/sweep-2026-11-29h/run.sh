#!/bin/bash
# Re-runs everything of this sweep (about 6 minutes on 2 cores). Screenshots go to /tmp/sw14h/shots
# (only the ones showing a bug are kept in shots/), logs to logs/.
# Tools: copies of build/bin in /tmp/sweep14/bin. Needs xvfb-run, Xvfb, python3.
set -u
D=$(cd "$(dirname "$0")" && pwd); S=$D/scripts
$S/partA.sh            > $D/logs/partA.txt 2>&1      # every lesson schedule with --lesson N --schedule S
$S/partA_lessons_bad.sh > $D/logs/lessons_bad.txt 2>&1 # --lesson with odd values, broken lesson dirs
$S/timelines.sh        > $D/logs/timelines.txt 2>&1  # predicted numbers of every lesson schedule
$S/partA_equiv.sh      > $D/logs/equiv.txt 2>&1      # B1: same PTX, different bonus verdict
$S/partB_assets.sh     > $D/logs/assets.txt 2>&1     # every asset, and --panel timeline
$S/partB_heldout.sh    > $D/logs/heldout.txt 2>&1    # held-out kernels of earlier sweeps
$S/partB_bad.sh        > $D/logs/bad.txt 2>&1        # kernels the compiler refuses
$S/partB_sched.sh      > $D/logs/sched.txt 2>&1      # odd schedule files on assets/gemm.mlir
$S/partB_paths.sh      > $D/logs/paths.txt 2>&1      # odd paths, --size, --select, --timeline-iterations, --trace
$S/partB_autosave.sh   > $D/logs/autosave.txt 2>&1   # B3, B4: the autosaved session
grep -h "rc=" $D/logs/*.txt | grep -v "rc=0\|rc=1 \|rc=2 \|rc=143" | sort | uniq -c   # anything else (crashes)
