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
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/cta-placement
rm -rf "$DEV" && mkdir -p "$DEV/bundles" "$DEV/ir"
: > "$DEV/predicted.txt"

for spec in persistent_gemm:row-major:id persistent_gemm:row-major:scatter \
            persistent_gemm:grouped:4:id persistent_gemm:grouped:4:interleave \
            persistent_gemm:grouped:4:scatter \
            persistent_gemm_pingpong:row-major:id persistent_gemm_pingpong:row-major:scatter \
            persistent_gemm_pingpong:grouped:8:id persistent_gemm_pingpong:grouped:8:scatter; do
  asset=${spec%%:*} rest=${spec#*:}
  perm=${rest##*:} order=${rest%:*}
  name=place-$asset--${order/:/}--$perm
  ir=$DEV/ir/$name.mlir
  "$(dirname "$0")/permuted-ir.sh" "$asset" "$perm" "$order" "$ir"
  "$(dirname "$0")/../compile-bundle.sh" "$ir" "$DEV/bundles/$name"
  { echo "== $name"; "$ROOT/build/bin/stagecraft-timeline" "$ir" 2>&1 | head -3; } >> "$DEV/predicted.txt"
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
