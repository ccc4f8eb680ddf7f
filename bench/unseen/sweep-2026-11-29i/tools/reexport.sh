#!/bin/bash
# Re-export scenarios in /tmp/sweep15/re (a scratch copy).
B=${STAGECRAFT_BIN:-/tmp/sweep15/bin}; F=/work/main/bench/unseen/sweep-2026-11-29f/kernels
R=/tmp/sweep15/re; rm -rf $R; mkdir -p $R; cd $R
C() { timeout 180 $B/stagecraft-compile "$@" -q 2>&1 | grep -v "^$" | head -3 | cut -c1-250; echo "   rc=${PIPESTATUS[0]}"; }
md() { (cd $1 && find . -type f ! -path './__pycache__/*' -exec md5sum {} + | sort -k2 | md5sum | cut -c1-8); }
echo "# 1 export, import (writes __pycache__), build example as 'example', re-export at other sizes"
C $F/l01_linear_attn_exclusive.mlir --export pk
python3 -c "import sys; sys.path.insert(0,'.'); import pk; print('   imported', pk.SIZES)"
g++ -std=c++17 -I/usr/local/cuda/include -Ipk pk/example.cpp -o pk/example -L/tmp/sweep15/mock -l:libcuda.so.1 && echo "   example built"
C $F/l01_linear_attn_exclusive.mlir --size BH=3 --size T=512 --export pk
python3 -c "import sys; sys.path.insert(0,'.'); import pk; print('   re-imported', pk.SIZES)"; ls pk | tr '\n' ' '; echo
echo "# 2 a refused kernel (l05) exported over the earlier export: is pk kept?"
before=$(md pk); C $F/l05_retention_decay_table_in_loop.mlir --export pk; echo "   pk unchanged: $([ "$(md pk)" = "$before" ] && echo yes || echo NO) ; leftovers: $(ls -a | grep -v '^\.\.\?$' | grep -v '^pk$' | tr '\n' ' ')"
echo "# 3 another kernel (l02) exported into pk: replaced?"
C $F/l02_retention_decay_inclusive.mlir --export pk; grep -m1 "^KERNEL" pk/__init__.py
echo "# 4 a user file in pk (notes.txt), then re-export"
echo hi > pk/notes.txt; C $F/l02_retention_decay_inclusive.mlir --export pk; rm -f pk/notes.txt
echo "# 5 the user built the example as pk/a.out"
g++ -std=c++17 -I/usr/local/cuda/include -Ipk pk/example.cpp -o pk/a.out -L/tmp/sweep15/mock -l:libcuda.so.1; C $F/l02_retention_decay_inclusive.mlir --export pk; rm -f pk/a.out
echo "# 6 parent directory missing"
C $F/l02_retention_decay_inclusive.mlir --export nodir/sub/pk2; ls -d nodir 2>&1 | head -1
echo "# 7 same kernel, package name = kernel function name (retention) and = a size name (T)"
C $F/l02_retention_decay_inclusive.mlir --export retention; C $F/l02_retention_decay_inclusive.mlir --export T
python3 -c "import sys; sys.path.insert(0,'.'); import retention, T; print('   imported both:', retention.KERNEL, T.KERNEL)"
echo "# 8 two packages from one IR in one dir, then one re-exported while the other is imported"
C $F/l01_linear_attn_exclusive.mlir --export a1; C $F/l01_linear_attn_exclusive.mlir --export a2
python3 - <<'PY'
import sys, subprocess, os; sys.path.insert(0, '.')
import a1, a2
r = subprocess.run([os.environ.get('B', '/tmp/sweep15/bin') + '/stagecraft-compile', '/work/main/bench/unseen/sweep-2026-11-29f/kernels/l01_linear_attn_exclusive.mlir', '--size', 'T=64', '-q', '--export', 'a1'], capture_output=True, text=True)
print('   re-export of a1 while imported: rc', r.returncode, r.stderr.strip()[:200])
print('   a1 in this process still', a1.SIZES, '; a2', a2.SIZES)
PY
echo "# 9 --export with a trailing slash, and through a symlink to the parent"
C $F/l01_linear_attn_exclusive.mlir --export slash/; ls -d slash 2>&1; ln -s $R linkparent; C $F/l01_linear_attn_exclusive.mlir --export linkparent/viaLink; ls -d viaLink 2>&1
