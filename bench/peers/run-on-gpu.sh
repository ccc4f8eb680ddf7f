#!/usr/bin/env bash
# On the GPU host (torch, Triton; no MLIR, no build): times the attention and GEMM peers
# with stagecraft-run's method and, for comparison, the old methods (bench/peers/README.md).
#
#   bench/peers/run-on-gpu.sh OUT_DIR [--quick] [extra attention_peers.py options]
#
# --quick: B4 H16 S8192 D128 full and causal and GEMM 8192^3 only, 10 repetitions (about a
# minute); otherwise the default problems, 30 repetitions. Both with --compare.
# Output: OUT_DIR/peers.jsonl, summary.md, device.txt, peers.log.
# Exit status: the harness's (0: every peer timed or unavailable; 1: a peer failed its
# check or errored; 2: usage or no GPU).
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -lt 1 ] || [ "${1#-}" != "$1" ]; then
  echo "usage: $0 OUT_DIR [--quick] [attention_peers.py options]" >&2
  exit 2
fi
OUT_DIR=$1
shift
ARGS=(--compare)
if [ "${1:-}" = "--quick" ]; then
  shift
  ARGS+=(--attention 4,16,8192,128,full --attention 4,16,8192,128,causal --gemm 8192,8192,8192 --reps 10)
fi
mkdir -p "$OUT_DIR"
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv 2>&1
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cudnn', torch.backends.cudnn.version())" 2>&1
  python3 -c "import triton; print('triton', triton.__version__)" 2>&1
} > "$OUT_DIR/device.txt"
cat "$OUT_DIR/device.txt"

python3 -u "$ROOT/bench/peers/attention_peers.py" --out "$OUT_DIR" "${ARGS[@]}" "$@" 2>&1 | tee "$OUT_DIR/peers.log"
status=${PIPESTATUS[0]}
# The clocks after the run: a power-limited GPU runs slower when hot.
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> "$OUT_DIR/device.txt" 2>&1
[ -f "$OUT_DIR/summary.md" ] && cat "$OUT_DIR/summary.md"
echo "status: $status"
exit "$status"
