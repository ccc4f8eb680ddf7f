#!/usr/bin/env bash
# Build machine: a copy of a bundle whose TMA loads carry an L2 eviction priority, the kernel's
# PTX edited and assembled again as stagecraft-compile does (ptxas -arch=sm_90a -O3): each load
# of tensor-map parameter K gets `.L2::cache_hint` and a policy made once at the kernel's start
# by `createpolicy.fractional.L2::evict_last` (or evict_first) with fraction 1.0.
#   bench/timeline/l2-hints/edit-ptx.sh BUNDLE OUT SPEC
# SPEC: comma-separated K=last|first (K the kernel's parameter index: 0 for A, 1 for B in the
# GEMM assets), e.g. "1=last" or "0=first,1=last".
set -euo pipefail
src=${1:?BUNDLE} out=${2:?OUT} spec=${3:?SPEC}
work=$(mktemp -d)  # edited here, moved to OUT only when it assembled
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/b"
python3 - "$work/b/kernel.ptx" "$src/kernel.ptx" "$spec" <<'PY'
import re, sys
path, shown, spec = sys.argv[1:]
s = open(path).read()
want = {int(k): v for k, v in (x.split("=") for x in spec.split(","))}
if any(v not in ("last", "first") for v in want.values()):
    sys.exit(f"edit-ptx.sh: SPEC {spec}: each priority is last or first")
# The registers that hold each tensor map's address: mov.b64 %rdY, NAME_param_K; cvta.param.u64 %rdX, %rdY.
param_of = {m.group(1): int(m.group(2)) for m in re.finditer(r"mov\.b64 \t(%rd\d+), \w+_param_(\d+);", s)}
addr_of = {}
for m in re.finditer(r"cvta\.param\.u64 \t(%rd\d+), (%rd\d+);", s):
    if m.group(2) in param_of:
        addr_of[m.group(1)] = param_of[m.group(2)]
edited = 0
def hint(m):
    global edited
    k = addr_of.get(m.group(3))
    if k not in want:
        return m.group(0)
    edited += 1
    return f"{m.group(1)}.L2::cache_hint {m.group(2)}, %l2pol{k};"
s = re.sub(r"(cp\.async\.bulk\.tensor\.\dd\.shared::cluster\.global\.tile\.mbarrier::complete_tx::bytes)"
           r"( \[[^\]]+\], \[(%rd\d+), \{[^}]*\}\], \[[^\]]+\]);", hint, s)
if not edited:
    sys.exit(f"edit-ptx.sh: {shown}: no TMA load of parameters {sorted(want)} in the form this compiler writes")
# The policies, made once where the kernel's body starts (after its register declarations).
decl = "\t.reg .b64 \t%l2pol<8>;\n" + "".join(
    f"\tcreatepolicy.fractional.L2::evict_{v}.b64 \t%l2pol{k}, 1.0;\n" for k, v in sorted(want.items()))
# (The plain kernel and its instrumented copy: every entry.)
s, entries = re.subn(r"(\.entry [^{]*\{\n(?:\t\.reg [^\n]*\n|\t\.shared [^\n]*\n|\n)*)",
                     lambda m: m.group(1) + decl, s)
if not entries:
    sys.exit(f"edit-ptx.sh: {shown}: no kernel entry")
open(path, "w").write(s)
print(f"{shown}: {edited} TMA loads hinted ({spec})")
PY
ptxas=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
"$ptxas" -arch=sm_90a -O3 "$work/b/kernel.ptx" -o "$work/b/kernel.cubin"
rm -rf "$out" && mv "$work/b" "$out"
