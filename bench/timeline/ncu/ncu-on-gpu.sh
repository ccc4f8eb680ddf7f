#!/usr/bin/env bash
# GPU host: each bundle of DIR/bundles timed and verified by DIR/stagecraft-run, then its plain
# kernel's third launch profiled by Nsight Compute (clocks left alone): the sections of the
# issue slots, pipes and warp states, and the per-instruction SASS counters (warp stall samples).
#   bash bench/timeline/ncu/ncu-on-gpu.sh DIR OUT
# Writes OUT/results.jsonl (the runner's JSON), OUT/NAME.details.csv, OUT/NAME.raw.csv,
# OUT/NAME.source.csv and OUT/device.txt.
# CLOCKS=1: only the clocks, the tensor pipe and the memory side's traffic (CLOCK_METRICS, one
# pass a kernel: seconds, not minutes, so a survey of many bundles fits a call), no source page.
# LAUNCHES=N: profile N launches from the third on (one row each in NAME.raw.csv; default 1), to
# see whether a kernel's launches differ (two modes).
set -u -o pipefail
DIR=$(cd "${1:?DIR}" && pwd)
OUT=${2:?OUT}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/device.txt" 2>&1
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" | tee -a "$OUT/device.txt"
"$NCU" --version >> "$OUT/device.txt" 2>&1
CLOCK_METRICS=sm__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second,\
dram__bytes_read.sum.per_second,dram__bytes_write.sum.per_second,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,\
sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
if [ -n "${CLOCKS:-}" ]; then WHAT=(--metrics "$CLOCK_METRICS"); else WHAT=(--set full --import-source no); fi
for b in "$DIR"/bundles/*; do
  name=$(basename "$b")
  timeout 300 "$DIR/stagecraft-run" "$b" --reps 30 --warmup 5 2>/dev/null | tail -1 >> "$OUT/results.jsonl"
  tail -1 "$OUT/results.jsonl" | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print('$name', d.get('status'), d.get('verified'), d.get('median_us'), round(d.get('tflops') or 0,1))"
  # The plain kernel (the manifest's; the IR reference is NAME_reference), its third launch.
  kernel=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['kernel'])" "$b/manifest.json")
  timeout 600 "$NCU" --clock-control none --kernel-name-base function --kernel-name "regex:^$kernel\$" \
    --launch-skip 2 --launch-count "${LAUNCHES:-1}" "${WHAT[@]}" -f -o "$OUT/$name" \
    "$DIR/stagecraft-run" "$b" --reps $((2 + ${LAUNCHES:-1})) --warmup 1 --untimed > "$OUT/$name.ncu.log" 2>&1
  if [ -f "$OUT/$name.ncu-rep" ]; then
    "$NCU" -i "$OUT/$name.ncu-rep" --page details --csv > "$OUT/$name.details.csv" 2>&1
    "$NCU" -i "$OUT/$name.ncu-rep" --page raw --csv > "$OUT/$name.raw.csv" 2>&1
    [ -n "${CLOCKS:-}" ] ||
      "$NCU" -i "$OUT/$name.ncu-rep" --page source --csv --print-source sass > "$OUT/$name.source.csv" 2>&1
    rm -f "$OUT/$name.ncu-rep"
  fi
  grep -v "^{" "$OUT/$name.ncu.log" | tail -3
done
(cd "$OUT" && tar cJf ncu.tar.xz $(cd "$OUT" && ls *.csv *.ncu.log 2>/dev/null) && rm -f *.csv *.ncu.log)
ls -la "$OUT"
