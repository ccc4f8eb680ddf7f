#!/bin/bash
# example.cpp of GEMM packages against mock/compute/libcuda.so.1, whose launch computes the GEMM on
# the host from the tensor maps (a correct kernel): the example's CPU check should then say ok.
H=$(cd "$(dirname "$0")/.." && pwd)
run() { local n=$1 g=$2; shift 2
  ps=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(",".join("128" if p["kind"]=="tensormap" else ("8" if p["kind"]=="pointer" or p.get("dtype")=="i64" else "4") for p in m["params"]))' $H/exports/$n/manifest.json)
  (cd /tmp/ckbuild/$n && LD_LIBRARY_PATH=$H/mock/compute MOCK_CUDA_PARAMS=$ps MOCK_GEMM=$g timeout 300 ./example_mock "$@" > /tmp/cex.out 2>&1); rc=$?
  echo "[$n $*] MOCK_GEMM=$g rc=$rc $(grep -E 'CPU check|example:' /tmp/cex.out | tail -1)"
}
run gemm128 0,1,2 M=256 N=128 K=64
run gemm_base 0,1,2 M=1000 N=1040 K=520
run v02 0,1,2 M=130 N=260 K=72
run v07 0,1,2,0 M=256 N=136 K=72
run pgemm 0,1,2 M=1000 N=1000 K=64
run cl2 0,1,2 M=512 N=512 K=128
run v06 0,1,2 BT=2 M=256 N=128 K=64
run v06 0,1,2 BT=3 M=256 N=128 K=512
run v06 0,1,2 BT=1 M=256 N=128 K=64
run fp8gemm 0,1,4,1,2,3,0 M=256 N=256 K=256
run fp8prom 0,1,4,1,2,3,0 M=256 N=256 K=384
run fp8split 0,1,4,1,2,3,0 M=256 N=256 K=384
