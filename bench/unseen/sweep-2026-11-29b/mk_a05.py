#!/usr/bin/env python3
"""a05_every_op_own_unit.mlir: a04 with every non-load op of the loop a unit of its own (orders 1..17)."""
import re
s = open('a04_4d_grid3d_gqa_size_d64.mlir').read()
cnt = [0]
def rep(m):
    cnt[0] += 1
    return '#tile.sched<"%s_%d", stage = 1, order = %d, group = 1>' % (m.group(1), cnt[0], cnt[0])
s2 = re.sub(r'#tile\.sched<"(\w+)", stage = 1, order = \d+, group = 1>', rep, s)
s2 = s2.replace('// d64;', '// Every op of the loop its own unit, in program order (orders 1..N); otherwise a04. d64;')
open('a05_every_op_own_unit.mlir', 'w').write(s2)
