#!/bin/bash
# Part B: odd input paths and odd --screenshot/--size/--select/--timeline-iterations values
D=$(cd "$(dirname "$0")/.." && pwd); cd /work/main
mkdir -p /tmp/sw14h/logs; O=/tmp/sw14h/odd; rm -rf $O; mkdir -p $O/ro "$O/sp ace ü κ 日本"
G=assets/gemm.mlir
cp $G "$O/sp ace ü κ 日本/ge mm ü.mlir"
long=$(python3 -c "print('k'*240)"); cp $G "$O/$long.mlir"
deep=$O; for i in $(seq 1 30); do deep="$deep/dddddddddddddddddddddddddddddddddddddddddddddd$i"; done; mkdir -p "$deep"; cp $G "$deep/g.mlir"
cp $G $O/ro/g.mlir; chmod 555 $O/ro; chmod 444 $O/ro/g.mlir
: > $O/empty.mlir; head -c 3000 /dev/urandom > $O/binary.mlir; mkdir -p $O/dir.mlir
cp $G $O/noext; printf '\xff\xfe bad utf8 \xc3\x28\n' | cat - $G > $O/badutf8.mlir
ln -sf $O/nowhere.mlir $O/dangling.mlir; ln -sf $(pwd)/$G $O/link.mlir
mkfifo $O/fifo.mlir 2>/dev/null
sh=$D/scripts/shot.sh
$sh P_space "$O/sp ace ü κ 日本/ge mm ü.mlir"
$sh P_long "$O/$long.mlir"
$sh P_deep "$deep/g.mlir"
$sh P_ro $O/ro/g.mlir
$sh P_empty $O/empty.mlir
$sh P_binary $O/binary.mlir
$sh P_dir $O/dir.mlir
$sh P_dir2 $O
$sh P_noext $O/noext
$sh P_badutf8 $O/badutf8.mlir
$sh P_dangling $O/dangling.mlir
$sh P_link $O/link.mlir
$sh P_missing $O/missing.mlir
( sleep 20; exec 3>$O/fifo.mlir; sleep 1; exec 3>&- ) & fp=$!
$sh P_fifo $O/fifo.mlir; kill $fp 2>/dev/null
# screenshot to odd places
B=/tmp/sweep14/bin/stagecraft
run() { tag=$1; shift; HOME=/tmp/apphome14 timeout 180 xvfb-run -a -s "-screen 0 1720x1040x24" $B "$@" > /tmp/sw14h/logs/$tag.txt 2>&1; echo "rc=$?" >> /tmp/sw14h/logs/$tag.txt; echo "$tag: $(tr '\n' ' ' < /tmp/sw14h/logs/$tag.txt | cut -c1-300)"; }
run O_shot_ro $G --no-runner --no-restore --screenshot $O/ro/out.png
run O_shot_nodir $G --no-runner --no-restore --screenshot $O/nodir/out.png
run O_shot_isdir $G --no-runner --no-restore --screenshot $O/dir.mlir
run O_shot_noext $G --no-runner --no-restore --screenshot $O/shot_noext
run O_shot_unicode $G --no-runner --no-restore --screenshot "$O/sp ace ü κ 日本/shot ü.png"
for s in 0x0 100x100 640x400 4000x2500 abc 1720x -5x-5 99999x99999; do run O_size_$(echo $s|tr -c 'a-z0-9' _) $G --no-runner --no-restore --screenshot /tmp/sw14h/shots/O_size_$(echo $s|tr -c 'a-z0-9' _).png --size $s; done
for s in Nope "" MMA loadA; do run O_select_$s $G --no-runner --no-restore --screenshot /tmp/sw14h/shots/O_select_$s.png --select "$s"; done
for s in 5:2 -1:3 a:b 0:100000 3 0:0 200:300; do run O_ti_$(echo $s|tr -c 'a-z0-9' _) $G --no-runner --no-restore --screenshot /tmp/sw14h/shots/O_ti_$(echo $s|tr -c 'a-z0-9' _).png --timeline-iterations $s; done
run O_unknownflag $G --no-runner --no-restore --frobnicate --screenshot /tmp/sw14h/shots/O_unknownflag.png
run O_twofiles $G assets/fp8_gemm.mlir --no-runner --no-restore --screenshot /tmp/sw14h/shots/O_twofiles.png
run O_panel_bad $G --no-runner --no-restore --panel board --screenshot /tmp/sw14h/shots/O_panel_bad.png
run O_trace_notjson $G --no-runner --no-restore --trace $D/schedules/x_notjson.json --screenshot /tmp/sw14h/shots/O_trace_notjson.png
run O_trace_sched $G --no-runner --no-restore --trace $D/schedules/x_ops_empty.json --screenshot /tmp/sw14h/shots/O_trace_sched.png
run O_trace_dir $G --no-runner --no-restore --trace $D/schedules --screenshot /tmp/sw14h/shots/O_trace_dir.png
run O_lesson_select $G --no-runner --no-restore --lesson 5 --select Softmax --panel timeline --screenshot /tmp/sw14h/shots/O_lesson_select.png
chmod -R u+w $O/ro
