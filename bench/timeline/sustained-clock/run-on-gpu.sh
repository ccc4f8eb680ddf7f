#!/usr/bin/env bash
# The SM clock and power while one kernel runs back to back for seconds (GPU host).
#
#   bash bench/timeline/sustained-clock/run-on-gpu.sh OUT RUNNER BUNDLE...
#
# Per bundle: one verified run with the runner's defaults (what the calibration measured: a
# burst of 5 + 20 launches after the checks), then a run of about
# SECONDS (default 3) of warm-up and as long again timed (`--no-verify`; the output
# was checked by the first run) while nvidia-smi samples clocks.sm, power.draw and the
# throttle reasons every 20 ms. The kernel's phase is the runner's first
# 2 x SECONDS of GPU activity; a GEMM's cuBLAS timing follows it. clocks.py reads
# OUT/<bundle>.smi.csv and OUT/<bundle>.json.
set -u -o pipefail
OUT=${1:?OUT}; RUNNER=${2:?RUNNER}; shift 2
SECONDS_EACH=${SECONDS_EACH:-3}
mkdir -p "$OUT"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv
  echo "host time (UTC): $(date -u +'%Y/%m/%d %H:%M:%S.%N')"
  echo "nvidia-smi time: $(nvidia-smi --query-gpu=timestamp --format=csv,noheader)"; } > "$OUT/device.txt" 2>&1
for b in "$@"; do
  name=$(basename "$b")
  sleep 3 # from a GPU back at idle, as a run in a calibration call mostly is
  "$RUNNER" "$b" > "$OUT/$name.verified.json" 2> "$OUT/$name.verified.err"
  med=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['median_us'] if r.get('status')=='ok' and r.get('verified') else '')" "$OUT/$name.verified.json")
  if [ -z "$med" ]; then echo "$name: not verified, skipped"; continue; fi
  reps=$(python3 -c "import math,sys; print(max(20, int(math.ceil($SECONDS_EACH * 1e6 / float(sys.argv[1])))))" "$med")
  sleep 2 # let the clock settle back
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active \
    --format=csv,noheader,nounits -lms 20 > "$OUT/$name.smi.csv" 2>&1 &
  smi=$!
  sleep 0.5
  start=$(date +%s.%N)
  "$RUNNER" "$b" --no-verify --warmup "$reps" --reps "$reps" > "$OUT/$name.json" 2> "$OUT/$name.err"
  end=$(date +%s.%N)
  sleep 0.3
  kill $smi 2>/dev/null; wait $smi 2>/dev/null
  echo "{\"bundle\": \"$name\", \"median_us\": $med, \"reps\": $reps, \"start\": $start, \"end\": $end}" > "$OUT/$name.window.json"
  echo "$name: median $med us, $reps + $reps launches, $(python3 -c "print(round($end - $start, 1))") s"
done
