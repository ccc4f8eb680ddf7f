#!/bin/bash
# B1: Triton's schedule B with the producer's loads first in the body compiles to the same PTX
# as docs/tutorial/lesson5-triton-b.json, yet lesson 5's bonus rejects it.
D=$(cd "$(dirname "$0")/.." && pwd); cd /work/main; B=/tmp/sweep14/bin
K=assets/lessons/05-attention-computation-pipelining/kernel.mlir
rm -rf /tmp/sw14h/c5a /tmp/sw14h/c5b
timeout 180 $B/stagecraft-compile $K --schedule docs/tutorial/lesson5-triton-b.json --no-cubin -o /tmp/sw14h/c5a -q
timeout 180 $B/stagecraft-compile $K --schedule $D/schedules/l5_triton_b_loadsfirst.json --no-cubin -o /tmp/sw14h/c5b -q
cmp /tmp/sw14h/c5a/kernel.ptx /tmp/sw14h/c5b/kernel.ptx && echo "kernel.ptx identical"
for s in docs/tutorial/lesson5-triton-b.json $D/schedules/l5_triton_b_loadsfirst.json; do
  timeout 180 $B/stagecraft-opt $K -tile-apply-schedule=file=$s -tile-verify-schedule -o /dev/null 2>&1 | grep -o 'steady state:.*' | head -1; done
