#!/usr/bin/env bash
# Build machine: a copy of a bundle with its kernel's PTX edited back to what an older compiler
# emitted, assembled again as stagecraft-compile does (ptxas -arch=sm_90a -O3), for an A/B
# of old and new kernels in one call (run-bundles-on-gpu.sh runs the two side by side).
#   bench/timeline/tensormap-prefetch/edit-ptx.sh BUNDLE OUT MODE
# MODE noprefetch: the prefetch.tensormap of every tensor map deleted (before 4a8e276);
#      divrn:      every div.full.f32 back to the IEEE div.rn.f32 (before a29edd2).
set -euo pipefail
src=${1:?BUNDLE} out=${2:?OUT} mode=${3:?MODE}
work=$(mktemp -d)  # edited here, moved to OUT only when it assembled
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/b"
ptx=$work/b/kernel.ptx
case $mode in
  noprefetch)
    python3 - "$ptx" "$src/kernel.ptx" <<'PY'
import re, sys
p, shown = sys.argv[1], sys.argv[2]
s = open(p).read()
e = re.sub(r"\t// begin inline asm\n\tprefetch\.tensormap \[%rd\d+\];\n\t// end inline asm\n", "", s)
if e == s or "prefetch.tensormap" in e:
    sys.exit(f"edit-ptx.sh: {shown}: no prefetch.tensormap in the form this compiler writes it")
open(p, "w").write(e)
PY
    ;;
  divrn)
    grep -q 'div\.full\.f32' "$ptx" || { echo "edit-ptx.sh: $src/kernel.ptx: no div.full.f32" >&2; exit 1; }
    sed -i 's/div\.full\.f32/div.rn.f32/g' "$ptx"
    ;;
  *) echo "edit-ptx.sh: MODE is noprefetch or divrn, not $mode" >&2; exit 1 ;;
esac
ptxas=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
"$ptxas" -arch=sm_90a -O3 "$ptx" -o "$work/b/kernel.cubin"
rm -rf "$out" && mv "$work/b" "$out"
