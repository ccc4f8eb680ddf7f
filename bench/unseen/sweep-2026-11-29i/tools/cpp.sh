#!/bin/bash
# Per package: NAME.h alone and example.cpp with g++ -std=c++17 -Wall -Wextra -Werror; example linked
# against the mock libcuda and run at the compiled sizes (the mock's kernels write nothing, so a
# checked output must come back WRONG, an unchecked one must say so), its launch compared with manifest.json.
H=$(cd "$(dirname "$0")/.." && pwd); E=${EXPORTS:-/tmp/sweep15/exports}; CU=/usr/local/cuda
M=/tmp/sweep15/mock; W=/tmp/sweep15/cppbuild; mkdir -p $W
for p in ${@:-$E/*/}; do p=${p%/}; n=$(basename $p)
  h=$(g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -x c++ -I$CU/include $p/$n.h 2>&1 | grep -m1 -E "error" | cut -c1-200)
  ex=$(g++ -std=c++17 -Wall -Wextra -Werror -O1 -I$CU/include -I$p $p/example.cpp -o $W/$n -L$M -l:libcuda.so.1 2>&1 | grep -m1 -E "error" | cut -c1-200)
  r="not built"
  if [ -x $W/$n ] && [ -z "$ex" ]; then
    ps=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(",".join("128" if p["kind"]=="tensormap" else ("8" if p["kind"]=="pointer" or p.get("dtype")=="i64" else "4") for p in m["params"]))' $p/manifest.json)
    rm -f /tmp/sweep15/cpp-$n.log
    out=$(cd $W && LD_LIBRARY_PATH=$M MOCK_CUDA_PARAMS=$ps MOCK_CUDA_LOG=/tmp/sweep15/cpp-$n.log timeout 300 ./$n 2>&1); rc=$?
    cmp=$(python3 /work/main/bench/unseen/sweep-2026-11-29c/tools/cpp_vs_manifest.py $p /tmp/sweep15/cpp-$n.log 2>&1 | tail -1 | cut -c1-120)
    r="rc=$rc $(echo "$out" | tail -3 | tr '\n' '|' | cut -c1-330) || launch vs manifest: $cmp"
  fi
  echo "$n: header: ${h:-ok} | example build (-Werror): ${ex:-ok} | run: $r"
done
