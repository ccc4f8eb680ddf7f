#!/usr/bin/env bash
# On the GPU host (after bench/fp8/prepare.sh on the build machine; carry .dev/fp8): runs every
# bundle of .dev/fp8 with the prebuilt stagecraft-run there. Each output is checked against the
# bundle's IR reference and, for the FP8 GEMMs, against cuBLASLt's FP8 matmul (fp32 output); then
# the kernel and its peer (cuBLASLt FP8, fast accumulation, bf16 out) are timed in the same run.
#   bench/fp8/run-on-gpu.sh OUT_DIR        (default bench/results/fp8-latest)
# Writes OUT_DIR/device.txt, results.jsonl (one stagecraft-run result per bundle), summary.md.
# Exit status: 0 when every bundle verified.
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=${1:-${OUT:-$ROOT/bench/results/fp8-latest}}
DEV=$ROOT/.dev/fp8
[ -x "$DEV/stagecraft-run" ] || { echo "no $DEV/stagecraft-run: run bench/fp8/prepare.sh on the build machine" >&2; exit 2; }
mkdir -p "$OUT_DIR"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv; } > "$OUT_DIR/device.txt" 2>&1
cat "$OUT_DIR/device.txt"
RESULTS=$OUT_DIR/results.jsonl
: > "$RESULTS"
: > "$OUT_DIR/stderr.txt"
for b in "$DEV"/bundles/*/; do
  n=$(basename "$b")
  reps=${REPS:-30}
  case $n in *_partial) reps=${PARTIAL_REPS:-5};; esac
  line=$(timeout 300 "$DEV/stagecraft-run" "$b" --reps "$reps" --warmup 5 --watchdog 120 2>"$OUT_DIR/.stderr" | tail -1)
  [ -n "$line" ] || line="{\"status\":\"no output\",\"bundle\":\"$b\"}"
  echo "$line" >> "$RESULTS"
  if [ -s "$OUT_DIR/.stderr" ]; then { echo "== $n"; cat "$OUT_DIR/.stderr"; } >> "$OUT_DIR/stderr.txt"; fi
  echo "$n: $(echo "$line" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r.get("status"), r.get("verified"), r.get("tflops"), r.get("reference_tflops"))')"
done
rm -f "$OUT_DIR/.stderr"
python3 "$DEV/summarize.py" "$RESULTS" | tee "$OUT_DIR/summary.md"
