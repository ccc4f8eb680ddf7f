#!/usr/bin/env bash
# Build machine: the fifth held-out sweep's narrow-tile loops (bench/unseen/sweep-2026-11-28e,
# README.md: its B1, the last 8 columns of a 24-, 40- or 56-column panel left unwritten), the
# direct-store control and two odd widths, compiled at their defaults.
#   bash bench/unseen/sweep-e-narrow-prepare.sh
#   GPU host: ROUNDS=1 bash bench/timeline/run-bundles-on-gpu.sh .dev/sweep-e-narrow OUT  (carry it)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev sweep-e-narrow
F=bench/unseen/sweep-2026-11-28e
tagged_bundles default $F/g15_128x24_bf16_narrow.mlir $F/g15b_128x40_f16_narrow.mlir \
  $F/g15c_64x56_bf16_narrow.mlir $F/g15d_128x24_f32_narrow.mlir $F/g15e_128x24_f32_direct.mlir \
  $F/p12_pers_128x24_narrow.mlir $F/g15f_128x200_bf16.mlir $F/g15g_128x72_f32.mlir
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
