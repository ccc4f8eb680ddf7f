#!/usr/bin/env bash
# What a TMA load costs its issuing thread and how long it takes to land (GPU host; needs only
# the CUDA toolkit): builds tma_issue.cu, runs its modes (MODES, default "streams depth rounds share"; also "chain"), keeps its SASS.
#
#   bash bench/timeline/tma-issue/run-on-gpu.sh OUT
set -eu -o pipefail
OUT=${1:?OUT}
HERE=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > "$OUT/device.txt" 2>&1
"$NVCC" -arch=sm_90a -O3 -o "$OUT/tma_issue" "$HERE/tma_issue.cu" -lcuda
/usr/local/cuda/bin/cuobjdump -sass "$OUT/tma_issue" > "$OUT/tma_issue.sass" 2>&1 || true
for mode in ${MODES:-streams depth rounds share}; do
  case $mode in
    streams) "$OUT/tma_issue" | tee "$OUT/tma_issue.txt" ;;
    *) "$OUT/tma_issue" "$mode" | tee "$OUT/tma_issue-$mode.txt" ;;
  esac
done
rm -f "$OUT/tma_issue"
