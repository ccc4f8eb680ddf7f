#!/usr/bin/env bash
# The probe overhead of two sets of bundles, A/B, in fresh runner processes taking turns:
# every bundle DIR/* run ROUNDS times (default 3) with `stagecraft-run --trace`, the order
# rotating each round; prints per bundle the overhead, its code and records parts of each run.
#
#   there: bash bench/timeline/probe-cost/ab-overhead.sh DIR RUNNER OUT [ROUNDS]
set -u -o pipefail
DIR=${1:?bundles}; RUNNER=${2:?runner}; OUT=${3:?out}; ROUNDS=${4:-3}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt" 2>&1
bundles=("$DIR"/*/)
for r in $(seq 1 "$ROUNDS"); do
  n=${#bundles[@]}
  for i in $(seq 0 $((n - 1))); do
    b=${bundles[$(( (i + r) % n ))]%/}
    name=$(basename "$b")
    "$RUNNER" "$b" --reps 20 --trace "$OUT/$name.$r.trace.json" > "$OUT/$name.$r.result.json" 2> "$OUT/$name.$r.stderr"
  done
done
python3 - "$OUT" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(out, "*.result.json"))):
    name, r = os.path.basename(f).rsplit(".result.json", 1)[0].rsplit(".", 1)
    res = json.load(open(f))
    t = res.get("trace") or {}
    rows.setdefault(name, []).append((res.get("verified"), t.get("overhead"), t.get("code_overhead"), t.get("recording_overhead")))
for name, runs in rows.items():
    cells = ", ".join(f"{100*o:+.2f}% (code {100*c:+.2f}%, records {100*rr:+.2f}%)" if o is not None else "no trace"
                      for v, o, c, rr in runs)
    print(f"{name}: verified {all(v for v, *_ in runs)}; {cells}")
PY
