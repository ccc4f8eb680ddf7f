#!/usr/bin/env bash
# On the GPU host (after bench/ab/compile.sh under two tags; carry .dev/ab): every bundle name's
# tags timed in turn, ROUNDS times (default 4), each by stagecraft-run (verified against its IR
# reference; cuBLAS timed in the same process for a GEMM). One line per run:
#   round bundle tag status verified TFLOP/s cuBLAS-TFLOP/s
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEV=$ROOT/.dev/ab
RUNNER=$DEV/stagecraft-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in $(seq 1 "${1:-4}"); do
  for name in $(ls "$DEV/bundles" | sed 's/-[^-]*$//' | sort -u); do
    for b in "$DEV"/bundles/"$name"-*; do
      tag=${b##*-}
      [ "${b%-*}" = "$DEV/bundles/$name" ] || continue
      timeout 300 "$RUNNER" "$b" --reps "${REPS:-30}" --warmup 5 2>/dev/null | tail -1 |
        python3 -c "
import json, sys
d = json.loads(sys.stdin.read() or '{}')
print($r, '$name', '$tag', d.get('status'), d.get('verified'), round(d.get('tflops') or 0, 1),
      round(d.get('reference_tflops') or 0, 1))"
    done
  done
done
