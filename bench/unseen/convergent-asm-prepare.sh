#!/usr/bin/env bash
# Build machine: the sixth sweep's hang (g07, a bf16 A rounded to f16 in registers, with `Cvt` in
# an earlier stage ordered after its dot) under every schedule that hung, compiled by the compiler
# checked out now (warp-synchronous asm convergent), beside the variant that ran and the default.
#   bash bench/unseen/convergent-asm-prepare.sh
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/convergent-asm OUT  (carry .dev/convergent-asm)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev convergent-asm
F=$ROOT/bench/unseen/sweep-2026-11-28f
G=$F/g07_bf16A_to_f16_regA_128x128.mlir
named_bundle g07 "$G"
bundle "$G" "$DEV/bundles/g07--gm08" --schedule "$F/schedules/gm08_cvt_own_stage.json"
for s in "$F"/schedules/gm08-variants/*.json; do
  bundle "$G" "$DEV/bundles/g07--$(basename "$s" .json)" --schedule "$s" || echo "refused: $s"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
