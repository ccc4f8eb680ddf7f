#!/usr/bin/env bash
# Build machine: the random-schedule run's hang (p01_persistent_192x128_bias with every unit in
# group 0: one warp group loads and computes, a persistent kernel) beside the same arrangement on
# other persistent and 192-row loops, to tell which of the three it takes; and the one f32 output
# that missed its tolerance (two-stores-shared-f32, MMA in stage 3 and loadB in the consumers).
#   bash bench/unseen/nonws-persistent/prepare.sh
#   GPU host: ROUNDS=1 bash bench/timeline/run-bundles-on-gpu.sh .dev/nonws OUT  (carry it)
set -euo pipefail
. "$(dirname "$0")/../../timeline/prepare-lib.sh"
fresh_dev nonws
H=$ROOT/bench/unseen/nonws-persistent
U=$ROOT/bench/unseen
mkdir -p "$DEV/ir"
one() { # NAME IR SCHEDULE
  bundle "$2" "$DEV/bundles/$1" --schedule "$3" || echo "refused: $1"
}
one p01--rs1 "$U/sweep-2026-11-28/p01_persistent_192x128_bias.mlir" "$ROOT/bench/unseen/random-schedules-2026-11-29/p01_persistent_192x128_bias--rs1.json"
for s in mma_group0 mma_group0_wait0 mma_group0_stage1; do
  one "p01--$s" "$U/sweep-2026-11-28/p01_persistent_192x128_bias.mlir" "$H/$s.json"
done
one pingpong-colreduce--mma_group0 "$ROOT/test/Inputs/unseen/pingpong-colreduce.mlir" "$H/mma_group0.json"
one g19_persistent--mma_group0 "$U/sweep-2026-11-28b/g19_persistent_128x192_bias_silu.mlir" "$H/mma_group0.json"
one p01_pers_res_tails--mma_group0 "$U/sweep-2026-11-28d/p01_pers_128x128_res_tails.mlir" "$H/mma_group0.json"
one p06_pers_rowsum--mma_group0 "$U/sweep-2026-11-28d/p06_pers_rowsum_ktail.mlir" "$H/mma_group0.json"
one g03_192x128--mma_group0 "$U/sweep-2026-11-28/g03_192x128_residual.mlir" "$H/mma_group0.json"
one g05_192x128_ktail--mma_group0 "$U/sweep-2026-11-28f/g05_192x128_ktail.mlir" "$H/mma_group0.json"
one rb3_192x128--mma_group0 "$U/epilogue-panels-2026-11-28/rb3_192x128_one_consumer.mlir" "$H/mma_group0.json"
named_bundle two-stores-shared-f32 "$ROOT/test/Inputs/unseen/two-stores-shared-f32.mlir"
one two-stores-shared-f32--rs0 "$ROOT/test/Inputs/unseen/two-stores-shared-f32.mlir" "$ROOT/bench/unseen/random-schedules-2026-11-29/two-stores-shared-f32--rs0.json"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
