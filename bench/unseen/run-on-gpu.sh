#!/usr/bin/env bash
# On the GPU host (carry .dev/unseen): every bundle verified against its IR reference and timed.
#   bench/unseen/run-on-gpu.sh OUT_DIR
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=$1
DEV=$ROOT/.dev/unseen
mkdir -p "$OUT_DIR"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT_DIR/device.txt" 2>&1
: > "$OUT_DIR/results.jsonl"
for b in "$DEV"/bundles/*/; do
  line=$(timeout 120 "$DEV/stagecraft-run" "$b" --reps 20 --warmup 3 --watchdog 30 2>>"$OUT_DIR/stderr.txt" | tail -1)
  [ -n "$line" ] || line="{\"status\":\"no output\",\"bundle\":\"$b\"}"
  echo "$line" >> "$OUT_DIR/results.jsonl"
done
python3 - "$OUT_DIR/results.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    checks = r.get("checks", [])
    ok = r.get("status") == "ok" and checks and all(c.get("passed") for c in checks)
    print(r.get("bundle", "?").rstrip("/").split("/")[-1], "verified" if ok else "NOT verified",
          r.get("status"), f"{r.get('tflops', 0):.1f} TFLOP/s", r.get("error", ""))
PY
