#!/usr/bin/env bash
# Build machine: whether the TMA descriptors' L2 promotion (the manifest's "l2_promotion",
# 256B as stagecraft-compile writes it) is what a row pitch only 64-byte aligned costs
# (bench/results/ncu-sizes-h100-2026-11-28: 9-25% and 1.4-1.6x the DRAM bytes a flop). The
# GEMMs at K = 4000 (8000-byte rows) and 4096 (8192) with every descriptor's promotion set to
# none, 64B, 128B and 256B; nothing else changes (the same cubin).
#   bash bench/timeline/ncu/promotion-prepare.sh                                       # .dev/ncu-promotion
#   GPU host: CLOCKS=1 bash bench/timeline/ncu/ncu-on-gpu.sh .dev/ncu-promotion OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev ncu-promotion
sweep_schedules gemm:2:1 gemm_128x128:3:1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for size in 8192x8192x4000 8192x8192x4096; do
  sweep_bundles "$TMP" "$size"
  IFS=x read -r M N K <<< "$size"
  bundle "$ROOT/assets/persistent_gemm.mlir" "$TMP/persistent_gemm--$size" \
    --size M="$M" --size N="$N" --size K="$K"
done
for b in "$TMP"/*; do
  for p in none 64B 128B 256B; do
    with_promotion "$b" "$DEV/bundles/$(basename "$b")--l2-$p" "$p"
  done
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
