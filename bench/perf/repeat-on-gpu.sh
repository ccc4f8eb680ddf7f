#!/usr/bin/env bash
# On the GPU host (after bench/perf/prepare.sh; carry .dev/perf): the named
# bundles run in turn, ROUNDS times (interleaved, so clock and temperature
# drift hit all alike), each verified and timed by stagecraft-run; the
# summary gives each bundle's median TFLOP/s over the rounds and its ratio to
# its cuBLAS peer timed in the same process.
#   bench/perf/repeat-on-gpu.sh OUT_DIR BUNDLE...
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=$1; shift
DEV=${DEV:-$ROOT/.dev/perf}
mkdir -p "$OUT_DIR"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv; } > "$OUT_DIR/device.txt" 2>&1
RESULTS=$OUT_DIR/results.jsonl
: > "$RESULTS"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for n in "$@"; do
    line=$(timeout 120 "$DEV/stagecraft-run" "$DEV/bundles/$n" --reps "${REPS:-50}" --warmup 5 --watchdog 30 2>>"$OUT_DIR/stderr.txt" | tail -1)
    [ -n "$line" ] || line="{\"status\":\"no output\",\"bundle\":\"$n\"}"
    echo "$line" >> "$RESULTS"
  done
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv >> "$OUT_DIR/device.txt" 2>&1
python3 - "$RESULTS" > "$OUT_DIR/summary.md" <<'PY'
import json, statistics, sys, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    name = r.get("bundle", "?").rstrip("/").split("/")[-1]
    runs[name].append(r)
print("| bundle | rounds verified | TFLOP/s (median; all) | cuBLAS (median) | ratio (median of per-round ratios) |")
print("|---|---|---|---|---|")
for name, rs in runs.items():
    ok = [r for r in rs if r.get("status") == "ok" and all(c.get("passed") for c in r.get("checks", []))]
    t = [r["tflops"] for r in ok]
    p = [r["reference_tflops"] for r in ok if r.get("reference_tflops")]
    q = [r["ratio_to_reference"] for r in ok if r.get("ratio_to_reference")]
    f = lambda xs: f"{statistics.median(xs):.1f}" if xs else "-"
    print(f"| {name} | {len(ok)}/{len(rs)} | {f(t)}; {', '.join(f'{x:.1f}' for x in t)} | {f(p)} | "
          f"{statistics.median(q):.3f} |" if q else f"| {name} | {len(ok)}/{len(rs)} | {f(t)} | - | - |")
PY
cat "$OUT_DIR/summary.md"
