#!/usr/bin/env bash
# What the probes cost the CTAs that record (not the launch): bundles on the build machine, then
# the runs on the GPU host. The kernel-level overhead (instrumented vs plain launch) hides a
# recording CTA's own slowdown in a launch of many waves; these runs show it three ways:
#   sampled   the calibration set's attention kernels with 7 CTAs recording at different tile
#             rows: each recording CTA's span against the plain launch's time per round
#   all       attention d64 and d128 with every CTA recording: the overhead is then the
#             per-CTA cost, and the spans of all CTAs are there
# Build machine:  bash bench/timeline/probe-cost/recorded-cta.sh prepare
# GPU host:       bash bench/timeline/probe-cost/recorded-cta.sh run OUT   (carry .dev/recorded-cta)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/recorded-cta
case ${1:?prepare or run} in
  prepare)
    rm -rf "$DEV" && mkdir -p "$DEV/sampled" "$DEV/all"
    python3 - "$DEV/sampled" <<'PY'
import sys
sys.path.insert(0, "bench/timeline")
import assets
cfgs = [c for c in assets.CALIBRATION if c[0].startswith("attention") and c[1] in ("default", "cp-dot1-s3")]
assets.compile_all(sys.argv[1], cfgs, ctas=7)
PY
    for a in attention_fwd_d64:8192:B=4,H=32,S=8192 attention_fwd_d128:4096:B=4,H=16,S=8192; do
      IFS=: read -r name n sizes <<< "$a"
      args=$(echo "$sizes" | tr ',' '\n' | sed 's/^/--size=/' | tr '\n' ' ')
      # shellcheck disable=SC2086
      "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/assets/$name.mlir" "$DEV/all/$name--all" $args \
        --with-timeline --timeline-ctas="$n" --timeline-capacity=640
    done
    cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
    du -sh "$DEV" ;;
  run)
    OUT=${2:?OUT}
    mkdir -p "$OUT"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$OUT/device.txt"
    export PYTHONUNBUFFERED=1
    for r in 1 2; do
      mkdir -p "/tmp/rc-sampled$r"
      for b in "$DEV"/sampled/*/; do
        n=$(basename "$b")
        "$DEV/stagecraft-run" "$b" --trace "/tmp/rc-sampled$r/$n.measured.json" > "/tmp/rc-sampled$r/$n.result.json" 2> /dev/null
      done
      echo "== sampled, round $r"; python3 "$ROOT/bench/timeline/recorded_span.py" "/tmp/rc-sampled$r"
    done | tee "$OUT/sampled.txt"
    mkdir -p /tmp/rc-all
    for b in "$DEV"/all/*/; do
      n=$(basename "$b")
      "$DEV/stagecraft-run" "$b" --trace "/tmp/rc-all/$n.measured.json" > "/tmp/rc-all/$n.result.json" 2> /dev/null
    done
    python3 "$ROOT/bench/timeline/recorded_span.py" --summary /tmp/rc-all | tee "$OUT/all.txt" ;;
esac
