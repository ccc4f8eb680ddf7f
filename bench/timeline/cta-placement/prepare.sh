#!/usr/bin/env bash
# Build machine: does it matter WHICH CTAs share an operand panel, with the same panels read per
# round? The persistent GEMMs (grid of 132 programs, tile t = slot, slot + 132, ...) compiled with
# the program id permuted before it picks its first tile, so a round covers the same tiles (the
# same footprint, the same DRAM traffic in lockstep) while the CTAs that share a panel change:
#   id          slot = pid
#   interleave  slot = (pid % 33) * 4 + pid / 33   (grouped:4: A-sharers adjacent, B-sharers
#                                                    33 apart: row-major's pattern in grouped:4)
#   scatter     slot = (pid * 7) % 132             (sharers spread over the launch order)
# The permutation is written in the kernel's IR (permuted-ir.sh) (the reference is made from that same IR, so
# every run is verified as usual). Bundles in .dev/cta-placement/bundles/place-ASSET--ORDER--PERM,
# the model's predictions beside them (predicted.txt).
#   bench/timeline/cta-placement/prepare.sh
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/cta-placement "$OUT"
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev cta-placement
: > "$DEV/predicted.txt"

for spec in "${PLACEMENTS[@]}"; do
  name=$(placed_ir "$spec")
  bundle "$DEV/ir/$name.mlir" "$DEV/bundles/$name"
  { echo "== $name"; "$ROOT/build/bin/stagecraft-timeline" "$DEV/ir/$name.mlir" 2>&1 | head -3; } >> "$DEV/predicted.txt"
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
cat "$DEV/predicted.txt"
du -sh "$DEV"

# Which SM each CTA runs on, and how long each CTA's first tiles take: the two persistent_gemm
# orders with every CTA recording its first two tiles (the runner's trace has a process per CTA
# with its SM). GPU host: bench/timeline/cta-placement/traces-on-gpu.sh OUT
mkdir -p "$DEV/traces"
for order in row-major grouped:4; do
  b=$DEV/traces/all-ctas-persistent_gemm--${order/:/}
  "$ROOT/build/bin/stagecraft-compile" "$ROOT/assets/persistent_gemm.mlir" --tile-order "$order" \
    --with-timeline --timeline-ctas=132 --timeline-tiles=2 -o "$b" -q
  rm -rf "$b/ir" "$b/kernel.ll" "$b/timeline.ll"
done
du -sh "$DEV"
