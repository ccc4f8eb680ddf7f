#!/usr/bin/env python3
"""undef_regs.py kernel.ptx: registers read by a shared-memory store (stmatrix / st.shared) that no
instruction writes (LLVM undef/poison lowered to an uninitialized register)."""
import re, sys
txt = open(sys.argv[1]).read()
defs = set()
for line in txt.splitlines():
    l = line.strip()
    if not l or l.startswith('//') or l.startswith('.') and not l.startswith('.reg'): continue
    m = re.match(r'(@%p\d+\s+)?[a-z][\w.:]*\s+(\{[^}]*\}|%\w+)', l)
    if m:
        for r in re.findall(r'%\w+', m.group(2)): defs.add(r)
    # asm blocks: mov.b32 %r, ... and multi-output inline asm wgmma: '{' lists
    if l.startswith('wgmma') or l.startswith('ld') or l.startswith('mov') or l.startswith('cvt'):
        m2 = re.search(r'\{([^}]*)\}', l)
        if m2 and l.startswith('wgmma.mma_async'): defs.update(re.findall(r'%\w+', m2.group(1)))
bad = []
for i, line in enumerate(txt.splitlines(), 1):
    l = line.strip()
    if l.startswith('stmatrix') or l.startswith('st.shared'):
        srcs = re.findall(r'%r\w*', l.split(']', 1)[1]) if ']' in l else []
        u = [r for r in srcs if r not in defs]
        if u: bad.append((i, l, u))
for i, l, u in bad: print(f"{sys.argv[1]}:{i}: {l}   undefined: {' '.join(u)}")
print(f"{len(bad)} store(s) with undefined sources", file=sys.stderr)
