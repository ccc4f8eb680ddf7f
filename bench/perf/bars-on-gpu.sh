#!/usr/bin/env bash
# On the GPU host (after bench/perf/prepare.sh; carry .dev/perf): the issue's bars in one call.
# ROUNDS times (default 3), in turn: the attention bundles, then the attention peers (cuDNN and
# Triton by stagecraft-run's method, bench/peers/attention_peers.py), then the GEMM bundles
# (each timed beside cuBLAS in its own process). Every kernel is verified by stagecraft-run.
# OUT_DIR/bars.md: per problem, our best bundle's median over the rounds and the median of the
# per-round ratios to the peer timed in the same round.
#   bench/perf/bars-on-gpu.sh OUT_DIR
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=${1:?OUT_DIR}
DEV=$ROOT/.dev/perf
mkdir -p "$OUT_DIR"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv; } > "$OUT_DIR/device.txt" 2>&1
ATTN="attn_d128 attn_d128_cp_dot1_s3 attn_d128_176keys_cp_near attn_d128_causal_cp_dot1_s3
      attn_d128_causal_176keys_cp_near attn_d64 attn_d64_192rows attn_d64_192rows_ahead2
      attn_d64_causal attn_d64_causal_192rows attn_d64_causal_192rows_ahead2
      attn_d128_176keys_early_near attn_d128_causal_176keys_early_near attn_d64_early"
GEMM="gemm-8192 persistent_gemm_grouped-8192 persistent_gemm_grouped-4096 persistent_gemm_grouped-8000x8064x4000"
run() { # round bundle
  local line
  line=$(timeout 120 "$DEV/stagecraft-run" "$DEV/bundles/$2" --reps "${REPS:-30}" --warmup 5 --watchdog 30 \
         2>>"$OUT_DIR/stderr.txt" | tail -1)
  [ -n "$line" ] || line="{\"status\":\"no output\",\"bundle\":\"$2\"}"
  python3 -c "import json,sys; r=json.loads(sys.argv[1]); r['round']=int(sys.argv[2]); print(json.dumps(r))" \
    "$line" "$1" >> "$OUT_DIR/results.jsonl"
}
: > "$OUT_DIR/results.jsonl"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for b in $ATTN; do run "$round" "$b"; done
  python3 -u "$ROOT/bench/peers/attention_peers.py" --out "$OUT_DIR/peers-$round" --no-gemm \
    --peers cudnn,triton --reps 30 > "$OUT_DIR/peers-$round.log" 2>&1
  for b in $GEMM; do run "$round" "$b"; done
  echo "round $round done"
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv >> "$OUT_DIR/device.txt" 2>&1
python3 "$ROOT/bench/perf/bars.py" "$OUT_DIR" | tee "$OUT_DIR/bars.md"
