#!/bin/bash
# Kernels of sweep-f with their arguments renamed (inputs/names/), exported, then: Python import +
# plan() with fake tensors, the README snippet's call form, g++ -Werror of NAME.h.
H=$(cd "$(dirname "$0")/.." && pwd); cd $H
F=/work/main/bench/unseen/sweep-2026-11-29f/kernels; Bk=/work/main/bench/unseen/sweep-2026-11-29b
E=${EXPORTS:-/tmp/sweep15/exports}; W=/tmp/sweep15/names; rm -rf $W; mkdir -p inputs/names $W
L01=$F/l01_linear_attn_exclusive.mlir; N04=$Bk/n04_size_offsets_in_coords.mlir
mk() { out=inputs/names/$1.mlir; src=$2; shift 2; sed "$@" $src > $out; }
mk nm_tensor_T $L01 -e 's/%T\b/%Tsz/g' -e 's/%V\b/%T/g'                       # tensor named like a size (the size shows in shapes)
mk nm_tensor_KS $N04 -e 's/%KS\b/%KSz/g' -e 's/%B\b/%KS/g'   # tensor named like a keyword-only size
mk nm_e $L01 -e 's/%K\b/%e/g'
mk nm_CUdeviceptr $L01 -e 's/%K\b/%CUdeviceptr/g'
mk nm_int64_t $L01 -e 's/%K\b/%int64_t/g'
mk nm_std $L01 -e 's/%K\b/%std/g'
mk nm_out_out_ $L01 -e 's/%Ot\b/%out/g' -e 's/%Sf\b/%out_/g'
mk nm_dot_underscore $L01 -e 's/%Q\b/%q.x/g' -e 's/%K\b/%q_x/g'
mk nm_size_out $N04 -e 's/"MV"/"out"/' -e 's/MV\]/out]/g' -e 's/MV =/out =/' -e 's/, MV\b/, out/g'
mk nm_builtins $L01 -e 's/%Q\b/%print/g' -e 's/%K\b/%len/g' -e 's/%V\b/%id/g'
for f in inputs/names/*.mlir; do n=$(basename $f .mlir)
  out=$(timeout 180 ${STAGECRAFT_BIN:-/tmp/sweep15/bin}/stagecraft-compile $f -q --export $W/$n 2>&1); rc=$?
  if [ $rc -ne 0 ]; then echo "$n: export rc=$rc $(echo "$out" | grep -m1 error | cut -c1-200)"; continue; fi
  sig=$(grep -m1 "^def run" $W/$n/__init__.py)
  py=$(cd $W && PYTHONDONTWRITEBYTECODE=1 python3 $H/tools/plan_at.py $W/$n 2>&1 | tail -1 | cut -c1-200)
  hdr=$(g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -x c++ -I/usr/local/cuda/include $W/$n/$n.h 2>&1 | grep -m1 error | sed "s|$W/||" | cut -c1-200)
  ex=$(g++ -std=c++17 -fsyntax-only -I/usr/local/cuda/include -I$W/$n $W/$n/example.cpp 2>&1 | grep -m1 error | sed "s|$W/||" | cut -c1-160)
  snip=$(sed -n '/^```python/,/^```$/p' $W/$n/README.md | grep "\.run(")
  echo "$n: $sig | plan: $py | header: ${hdr:-ok} | example: ${ex:-ok} | README: $snip"
done
