#!/bin/bash
# sweep-2026-11-29i: exports of the sweep-f loop families (+ a few of -29b/-29e), no GPU.
#   bash run.sh            everything below (about 8 minutes; logs/ rewritten)
#   bash run.sh export     re-export the packages only (for gpu_check.py)
# Env: STAGECRAFT_BIN (default /tmp/sweep15/bin), EXPORTS (default /tmp/sweep15/exports).
# Packages, the mock driver and builds live under /tmp/sweep15 and $EXPORTS, never in this folder.
set -u
H=$(cd "$(dirname "$0")" && pwd); cd $H
export STAGECRAFT_BIN=${STAGECRAFT_BIN:-/tmp/sweep15/bin} EXPORTS=${EXPORTS:-/tmp/sweep15/exports}
export PYTHONDONTWRITEBYTECODE=1
what=${1:-all}
bash tools/exports.sh 2>&1 | tee logs/exports.log
[ "$what" = export ] && exit 0
mkdir -p /tmp/sweep15/mock
gcc -shared -fPIC -O1 -o /tmp/sweep15/mock/libcuda.so.1 /work/main/test/export/mock_libcuda.c
tools/mockall.sh > logs/mock-python.log 2>&1                        # run() vs manifest at the compiled sizes
tools/sizes.sh > logs/sizes-compiler-vs-launcher.log 2>&1            # B1
python3 tools/probes.py $EXPORTS > logs/probes.log 2>&1              # argument probes (plan)
python3 tools/split_tables.py $EXPORTS > logs/split-tables.log 2>&1  # M: "split or merged"
tools/mknames.sh > logs/names.log 2>&1                               # B4 (names) and renamings that work
timeout 180 $STAGECRAFT_BIN/stagecraft-compile inputs/p01_small_scale_range.mlir -q --export /tmp/sweep15/names/p01small > /dev/null 2>&1; grep -H "Input values" /tmp/sweep15/names/p01small/README.md | cut -c1-120 > logs/p01small-range.log   # B3
timeout 170 python3 tools/r01_example_fill.py > logs/r01-example-fill.log 2>&1   # B2
bash tools/reexport.sh > logs/reexport.log 2>&1
ps() { python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(",".join("128" if p["kind"]=="tensormap" else ("8" if p["kind"]=="pointer" or p.get("dtype")=="i64" else "4") for p in m["params"]))' $1/manifest.json; }
(LD_LIBRARY_PATH=/tmp/sweep15/mock MOCK_CUDA_PARAMS=$(ps $EXPORTS/n04) MOCK_CUDA_LOG=/tmp/sweep15/fs.log python3 tools/float_size.py $EXPORTS) > logs/float-size.log 2>&1
rm -f /tmp/sweep15/sbs.log; (LD_LIBRARY_PATH=/tmp/sweep15/mock MOCK_CUDA_PARAMS=$(ps $EXPORTS/l01) MOCK_CUDA_LOG=/tmp/sweep15/sbs.log python3 tools/side_by_side.py $EXPORTS /tmp/sweep15/names) > logs/side-by-side.log 2>&1
tools/cpp.sh > logs/cpp.log 2>&1                                     # headers/examples -Werror, examples vs the mock
# B1 in C++: the examples (launch() and check()) at sizes the compiler refuses, against the mock
for a in "l07 BH=2 T=8192" "a03 B=1 H=2 S=16384"; do set -- $a
  rm -f /tmp/sweep15/big-$1.log; (cd /tmp/sweep15/cppbuild && LD_LIBRARY_PATH=/tmp/sweep15/mock MOCK_CUDA_PARAMS=$(ps $EXPORTS/$1) MOCK_CUDA_LOG=/tmp/sweep15/big-$1.log timeout 120 ./$1 ${@:2}; echo "rc=$? launches=$(grep -c cuLaunch /tmp/sweep15/big-$1.log)")
done > logs/cpp-unsafe-sizes.log 2>&1
python3 -m py_compile gpu_check.py && rm -rf __pycache__ && echo "gpu_check.py compiles"
