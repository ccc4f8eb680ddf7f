#!/bin/bash
# checkpkg.sh PKG_DIR [NAME=V ...]: syntax checks, builds, and mock runs of one exported package.
H=$(cd "$(dirname "$0")/.." && pwd)
P=$(cd "$1" && pwd); shift
N=$(basename "$P")
CU=/usr/local/cuda
fail=0
say() { echo "[$N] $*"; }
for f in "$P"/*.py; do
  python3 -c 'import ast,sys; ast.parse(open(sys.argv[1]).read())' "$f" || { say "AST FAIL $f"; fail=1; }
  python3 -c 'import py_compile,sys; py_compile.compile(sys.argv[1], cfile="/tmp/pyc_check.pyc", doraise=True)' "$f" || { say "PY_COMPILE FAIL $f"; fail=1; }
done
g++ -std=c++17 -Wall -Wextra -fsyntax-only -x c++ -I$CU/include "$P/$N.h" 2>/tmp/hdr.err || { say "HEADER FAIL"; head -20 /tmp/hdr.err; fail=1; }
[ -s /tmp/hdr.err ] && { say "header warnings:"; grep -c warning /tmp/hdr.err; grep -m2 "warning" /tmp/hdr.err; }
g++ -std=c++17 -Wall -Wextra -fsyntax-only -I$CU/include -I"$P" "$P/example.cpp" 2>/tmp/ex.err || { say "EXAMPLE SYNTAX FAIL"; head -20 /tmp/ex.err; fail=1; }
[ -s /tmp/ex.err ] && { say "example warnings:"; grep -c warning /tmp/ex.err; }
B=/tmp/ckbuild/$N; mkdir -p $B
g++ -std=c++17 -O1 -I$CU/include -I"$P" "$P/example.cpp" -o $B/example_stub -L$CU/lib64/stubs -lcuda 2>/tmp/link.err || { say "LINK (stub) FAIL"; head -20 /tmp/link.err; fail=1; }
g++ -std=c++17 -O1 -I$CU/include -I"$P" "$P/example.cpp" -o $B/example_mock -L$H/mock -l:libcuda.so.1 2>/tmp/link2.err || { say "LINK (mock) FAIL"; head /tmp/link2.err; fail=1; }
# mock param sizes from the manifest
PS=$(python3 -c '
import json,sys
m=json.load(open(sys.argv[1]))
print(",".join("128" if p["kind"]=="tensormap" else ("8" if p["kind"]=="pointer" or p.get("dtype")=="i64" else "4") for p in m["params"]))' "$P/manifest.json")
export MOCK_CUDA_PARAMS=$PS LD_LIBRARY_PATH=$H/mock PYTHONDONTWRITEBYTECODE=1
rm -f /tmp/mock-$N.log; export MOCK_CUDA_LOG=/tmp/mock-$N.log
out=$(timeout 180 python3 $H/tools/mockrun.py "$P" 2>&1 | tail -3); rc=$?
say "python@compiled: $out"
if [ $# -gt 0 ]; then rm -f /tmp/mock-$N.log; out=$(timeout 180 python3 $H/tools/mockrun.py "$P" "$@" 2>&1 | tail -3); say "python@$*: $out"; fi
if [ -x $B/example_mock ] && [ $# -gt 0 ]; then (cd $B && timeout 120 ./example_mock >/tmp/ex0-$N.out 2>&1); say "example@compiled (mock): rc=$? $(tail -2 /tmp/ex0-$N.out | tr "\n" "|")"; fi
if [ -x $B/example_mock ]; then
  rm -f /tmp/mock-$N.log
  (cd $B && timeout 180 ./example_mock "$@" >/tmp/ex-$N.out 2>&1); rc=$?
  say "example@${*:-compiled} (mock, output unwritten => expect WRONG/exit1): rc=$rc $(tail -4 /tmp/ex-$N.out | tr '\n' '|')"
fi
exit $fail
