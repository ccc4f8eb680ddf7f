#!/usr/bin/env bash
# The SASS of bundles' plain and instrumented kernels (cuobjdump, on a GPU host: the build
# machine has no cuobjdump), to compare what the probes change in the code every CTA runs.
#
#   there: bash bench/timeline/sass-on-gpu.sh OUT BUNDLE...
#
# Writes OUT/<bundle>.kernel.sass and OUT/<bundle>.timeline.sass (and the register and
# spill lines of cuobjdump -res-usage in OUT/<bundle>.res.txt).
set -u -o pipefail
OUT_DIR=${1:?OUT_DIR}; shift
mkdir -p "$OUT_DIR"
export PATH=/usr/local/cuda/bin:$PATH
for b in "$@"; do
  name=$(basename "$b")
  for k in kernel timeline; do
    [ -f "$b/$k.cubin" ] || { echo "$b: no $k.cubin"; continue; }
    cuobjdump -sass "$b/$k.cubin" > "$OUT_DIR/$name.$k.sass" 2>&1
    cuobjdump -res-usage "$b/$k.cubin" >> "$OUT_DIR/$name.res.txt" 2>&1
  done
  echo "$name: $(wc -l < "$OUT_DIR/$name.kernel.sass") / $(wc -l < "$OUT_DIR/$name.timeline.sass") SASS lines"
done
