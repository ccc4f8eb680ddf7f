#!/usr/bin/env bash
# GPU host: the ninth sweep's exported packages (bench/unseen/sweep-2026-11-29c, exported again
# by the exporter checked out: `STAGECRAFT_BIN=build/bin EXPORT_ONLY=1`, see its run.sh), run
# with torch against torch references (gpu_check.py), and six C++ examples built with nvcc and
# run (each checks sampled outputs on the CPU where the kernel is a GEMM or attention).
#   bash bench/unseen/exports9-on-gpu.sh DIR OUT    (DIR: exports/, gpu_check.py, gpu-list.txt)
set -u
DIR=$(cd "${1:?DIR}" && pwd)
OUT=${2:?OUT}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/device.txt" 2>&1
(cd "$DIR" && timeout 300 python3 gpu_check.py > "$OUT/gpu_check.txt" 2>&1; echo "rc=$?" >> "$OUT/gpu_check.txt")
run_example() {
  local n=$1
  shift
  (cd "$DIR/exports/$n" && /usr/local/cuda/bin/nvcc -std=c++17 -O2 -o example example.cpp -lcuda &&
    timeout 120 ./example "$@"; echo "rc=$?") > "$OUT/example-$n.txt" 2>&1
}
run_example v06 BT=3 M=500 N=384 K=256
run_example gemm128 M=1000 N=1000 K=1000
run_example gemm_base
run_example v02 M=130 N=260 K=72
run_example fp8gemm M=1024 N=512 K=384
run_example attn128 B=1 H=2 S=1000
