#!/bin/bash
# Hostile --export targets. Each line: the target, the exit status, the first lines of output.
B=/tmp/sweep9/bin; G=/work/main/assets/gemm_128x128.mlir
cd "$(dirname "$0")"
t() { local tgt="$1"; shift; out=$(timeout 180 $B/stagecraft-compile $G -q "$@" --export "$tgt" 2>&1); rc=$?; echo "--- target [$tgt] $* rc=$rc"; echo "$out" | head -4; }
rm -rf work; mkdir -p work/foreign; echo notes > work/foreign/notes.txt
for n in class def lambda None True import int new delete namespace std cuda kernel Kernel detail shape grid check Sizes Error A B C errno linux unix main NULL assert copy typing enum struct json example test sys builtins _private a__b __init__ _runtime torch numpy ctypes os threading Ñame naïve 日本 x-y 1abc "a b" "a.b"; do t "work/$n"; done
t work/foreign
t work/existing_file_target; touch work/existing_file; t work/existing_file
t ""
t work/trailing_slash/
t work/dot/.
t work/new1/new2/deep
t "work/with space dir/pkg"
t "work/ünïcødé dir/pkg"
long=$(python3 -c 'print("d"*250)'); t "work/$long/$long/pkg"
t "work/$(python3 -c 'print("p"*300)')"
t /proc/stagecraft_pkg
t /sys/kernel/stagecraft_pkg
t /dev/null/pkg
t work/gemm_re; echo "note" > work/gemm_re/NOTES.md; t work/gemm_re; rm work/gemm_re/NOTES.md; mkdir -p work/gemm_re/__pycache__ work/gemm_re/example; touch work/gemm_re/__pycache__/x.pyc work/gemm_re/example/obj; t work/gemm_re; ls -a work/gemm_re | tr '\n' ' '; echo
ln -s foreign work/link_foreign; t work/link_foreign
ln -s gemm_re work/link_export; t work/link_export; ls -la work/link_export | head -2
t work/same -o work/same
t work/pkg_o -o work/pkg_o/bundle
t work/gemm_bad_sched --schedule /work/main/assets/schedules/attention_cp_dot0_s2.json; ls work | grep -c "gemm_bad_sched"
ls -a work | grep -v "^\.\.\?$" | grep "^\." 
