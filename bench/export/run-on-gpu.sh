#!/usr/bin/env bash
# On a GPU host (sm_90, CUDA toolkit, torch; no MLIR): checks the packages that
# make-packages.sh exported into .dev/export/ (carried here).
#
#   bench/export/run-on-gpu.sh [OUT_DIR]       (default: $OUT, else bench/results/latest-export)
#
# 1. Python: each exported attention against torch scaled_dot_product_attention,
#    the exported GEMM against a @ b.T, at the compiled and at other sizes;
#    argument errors on real CUDA tensors (no fault: a good call works after);
#    the README's five-line snippet, run as written; timings beside torch's.
# 2. C++: every package's example.cpp built with nvcc (the README's command)
#    and run: it times the kernel and checks sampled outputs on the CPU.
# Output: OUT_DIR/python.json, python.log, examples.log, device.txt, summary.md.
# Exit status 0 only when every check passed.
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_DIR=${1:-${OUT:-$ROOT/bench/results/latest-export}}
PACKAGES=${PACKAGES:-$ROOT/.dev/export}
mkdir -p "$OUT_DIR"
export PATH=/usr/local/cuda/bin:$PATH
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1
  nvcc --version | tail -2
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)" 2>&1
} > "$OUT_DIR/device.txt"
cat "$OUT_DIR/device.txt"
if [ ! -d "$PACKAGES" ]; then
  echo "no packages at $PACKAGES: run bench/export/make-packages.sh on the build machine and carry .dev/export"
  exit 2
fi

status=0
python3 -u "$ROOT/bench/export/check_exported.py" --packages "$PACKAGES" --out "$OUT_DIR/python.json" \
  2>&1 | tee "$OUT_DIR/python.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

# The C++ examples: built from a copy (the carried tree stays as it is).
: > "$OUT_DIR/examples.log"
for pkg in "$PACKAGES"/*/; do
  name=$(basename "$pkg")
  work=$(mktemp -d)
  cp -r "$pkg"/. "$work"
  {
    echo "== $name: nvcc -std=c++17 -O2 -o example example.cpp -lcuda"
    if (cd "$work" && nvcc -std=c++17 -O2 -o example example.cpp -lcuda); then
      (cd "$work" && ./example); rc=$?
      echo "exit $rc"
      [ $rc -eq 0 ] || status=1
      if [ "$name" = "attn" ]; then
        echo "== $name at B=2 H=8 S=1000"
        (cd "$work" && ./example B=2 H=8 S=1000); rc=$?
        echo "exit $rc"; [ $rc -eq 0 ] || status=1
      fi
      if [ "$name" = "gemm" ]; then
        echo "== $name at M=8000 N=8064 K=4000"
        (cd "$work" && ./example M=8000 N=8064 K=4000); rc=$?
        echo "exit $rc"; [ $rc -eq 0 ] || status=1
      fi
    else
      echo "BUILD FAILED"; status=1
    fi
  } 2>&1 | tee -a "$OUT_DIR/examples.log"
  rm -rf "$work"
done
# tee hides the subshell's status: recount from the log.
grep -q "BUILD FAILED\|^exit [^0]" "$OUT_DIR/examples.log" && status=1

python3 - "$OUT_DIR" <<'PY'
import json, sys, os
out = sys.argv[1]
lines = ["# Exported kernels on a GPU", ""]
lines.append(open(os.path.join(out, "device.txt")).read().strip().replace("\n", "  \n"))
lines.append("")
try:
    r = json.load(open(os.path.join(out, "python.json")))
    lines.append("| check | ok | detail |")
    lines.append("|---|---|---|")
    for c in r["checks"]:
        lines.append(f"| {c['name']} | {'yes' if c['ok'] else '**no**'} | {c.get('detail', '')} |")
except Exception as e:
    lines.append(f"python.json unreadable: {e}")
lines.append("")
lines.append("C++ examples (examples.log):")
lines.append("```")
lines.extend(l for l in open(os.path.join(out, "examples.log")).read().splitlines()
             if l.startswith("==") or "CPU check" in l or "TFLOP" in l or l.startswith("exit"))
lines.append("```")
open(os.path.join(out, "summary.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
echo "status: $status"
exit $status
