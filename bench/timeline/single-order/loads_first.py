#!/usr/bin/env python3
"""Moves a single-group GEMM's load issue in its steady loop's PTX (a timing experiment).

  loads_first.py KERNEL.ptx early|late OUT.ptx

The generated single-group GEMM (assets/gemm.mlir, bench/gemm/sweep.py single-ahead2-wait0)
issues, per iteration, MMA(i)'s wgmma, then the loads of i + 2 (one thread of consumer 0,
after waiting for the stage to be free), then wgmma.wait_group 0. `early` moves the loads'
block before the wgmma (after the full barriers' waits), `late` after the wait_group (ptxas
then serializes the wgmma: C7520, so its timing says nothing). The loop's labels are this
kernel's (asserted): another kernel needs its own edit.
"""
import sys
src, mode, out = sys.argv[1], sys.argv[2], sys.argv[3]
L = open(src).read().split('\n')
# the steady loop: from its label to the loop's back edge block
start = L.index('$L__BB0_10:')
end = L.index('$L__BB0_19:')
seg = L[start:end]
bra = [i for i, l in enumerate(seg) if l.strip() == '@%p1 bra \t$L__BB0_16;']
assert len(bra) == 1, bra
b = bra[0]
j = seg.index('$L__BB0_16:')
block = seg[b:j]           # '@%p1 bra $L__BB0_16;' + the loads
rest = seg[:b] + seg[j:]   # without the block; '$L__BB0_16:' kept
if mode == 'early':
    f = [i for i, l in enumerate(rest) if l.strip() == 'wgmma.fence.sync.aligned;']
    assert len(f) == 1
    f = f[0]
    block = ['\t@%p1 bra \t$L__EARLY;'] + block[1:] + ['$L__EARLY:']
    new = rest[:f] + block + rest[f:]
elif mode == 'late':
    k = rest.index('$L__BB0_16:')
    w = rest[k + 1]
    assert 'wgmma.wait_group' in w, w
    new = rest[:k] + [w] + block + ['$L__BB0_16:'] + rest[k + 2:]
else:
    raise SystemExit('mode: early|late')
L = L[:start] + new + L[end:]
open(out, 'w').write('\n'.join(L))
