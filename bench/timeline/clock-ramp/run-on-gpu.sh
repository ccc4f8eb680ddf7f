#!/usr/bin/env bash
# GPU host: clock_ramp.cu built and run from an idle GPU with a short kernel (30000 cycles, about
# 16 us: a one-wave launch of the calibration's small attention and GEMM sizes) and a long one
# (2.8M cycles, about 1.5 ms: the 8192^3 GEMM's launch), each as the runner's burst of 25
# launches, then back to back for a second; then launch_inside.cu: the clock inside a launch of
# exp2 and FMA chains, sampled every ~1.3 us over its first 64 us, and the tensor cores' cycles
# a round of mma.sync over a launch's first 30 us, three launches each.
#   bash bench/timeline/clock-ramp/run-on-gpu.sh OUT
set -eu
OUT=${1:?OUT}
mkdir -p "$OUT"
HERE=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > "$OUT/device.txt"
/usr/local/cuda/bin/nvcc -arch=sm_90a -O3 -o /tmp/clock_ramp "$HERE/clock_ramp.cu"
for cycles in 30000 2800000; do
  echo "== spin $cycles cycles"
  /tmp/clock_ramp "$cycles" 3000
done | tee "$OUT/clock-ramp.txt"
# Inside a launch that keeps every SM busy (launch_inside.cu): the clock under exp2 and FMA
# chains, then the tensor cores' cycles a round of mma.sync, over its first tens of microseconds.
/usr/local/cuda/bin/nvcc -arch=sm_90a -O3 -o /tmp/launch_inside "$HERE/launch_inside.cu"
/tmp/launch_inside clock "${STEP:-50}" 3 | tee "$OUT/clock-inside.txt"
/tmp/launch_inside tensor "${TENSOR_STEP:-16}" 3 | tee "$OUT/tensor-inside.txt"
