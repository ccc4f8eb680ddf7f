#!/usr/bin/env python3
"""kernels/t*.mlir: an LM head's epilogue fused into the vocabulary loop: per row of X (128 rows a
program, hidden 128 loaded once), stream the vocabulary V in blocks of 128 (W rows), S = X W^T,
and carry the online logsumexp (m, l) and the greedy token (the running row max and its column).
Outputs: LSE (f32) and the greedy token id (i32). The register math is one unit ("Softmax") in
t01, split into one unit per op (consecutive orders) in t02, and in t03 split in two with the
second half after a dot-free gap of units whose order puts the loads between them."""
import os
HERE = os.path.dirname(os.path.abspath(__file__))
OPS = [
 ("%mx = tile.reduce max %s, dim = 1", ": tensor<128x128xf32> -> tensor<128xf32>"),
 ("%mn = arith.maximumf %m, %mx", ": tensor<128xf32>"),
 ("%mnb = tile.broadcast %mn, dim = 1", ": tensor<128xf32> -> tensor<128x128xf32>"),
 ("%d = arith.subf %s, %mnb", ": tensor<128x128xf32>"),
 ("%p = math.exp %d", ": tensor<128x128xf32>"),
 ("%ps = tile.reduce sum %p, dim = 1", ": tensor<128x128xf32> -> tensor<128xf32>"),
 ("%dm = arith.subf %m, %mn", ": tensor<128xf32>"),
 ("%al = math.exp %dm", ": tensor<128xf32>"),
 ("%la = arith.mulf %l, %al", ": tensor<128xf32>"),
 ("%ln = arith.addf %la, %ps", ": tensor<128xf32>"),
 # greedy token: first column of the block's max, if it beats the running best
 ("%mxb = tile.broadcast %mx, dim = 1", ": tensor<128xf32> -> tensor<128x128xf32>"),
 ("%is = arith.cmpf oeq, %s, %mxb", ": tensor<128x128xf32>"),
 ("%cols = tile.iota %j, dim = 1", ": tensor<128x128xi32>"),
 ("%colf = arith.sitofp %cols", ": tensor<128x128xi32> to tensor<128x128xf32>"),
 ("%negc = arith.negf %colf", ": tensor<128x128xf32>"),
 ("%cand = arith.select %is, %negc, %big", ": tensor<128x128xi1>, tensor<128x128xf32>"),
 ("%bb = tile.reduce max %cand, dim = 1", ": tensor<128x128xf32> -> tensor<128xf32>"),
 ("%blk = arith.negf %bb", ": tensor<128xf32>"),
 ("%better = arith.cmpf ogt, %mx, %m", ": tensor<128xf32>"),
 ("%tok = arith.select %better, %blk, %t", ": tensor<128xi1>, tensor<128xf32>"),
]
HEAD = """// {comment}
module {{
  func.func @{name}(
      %X: !tile.desc<128x128xbf16> {{tile.shape = affine_map<()[M, V] -> (M, 128)>}},
      %W: !tile.desc<128x128xbf16> {{tile.shape = affine_map<()[M, V] -> (V, 128)>}},
      %LSE: !tile.desc<128xf32> {{tile.shape = affine_map<()[M, V] -> (M)>}},
      %TOK: !tile.desc<128xi32> {{tile.shape = affine_map<()[M, V] -> (M)>}},
      %M: index {{tile.size = "M"}}, %V: index {{tile.size = "V"}})
      attributes {{tile.kernel, tile.grid = affine_map<()[M, V] -> (M ceildiv 128)>,
                  tile.defaults = {{M = 8192 : i64, V = 32768 : i64}},
                  tile.warpgroups = array<i64: 1, 2>}} {{
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %m0 = arith.muli %pm, %c128 : index
    %x = tile.load %X[%m0, %c0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
    %zs = arith.constant dense<0.0> : tensor<128x128xf32>
    %big = arith.constant dense<-1.0e30> : tensor<128x128xf32>
    %minit = arith.constant dense<-1.0e30> : tensor<128xf32>
    %z1 = arith.constant dense<0.0> : tensor<128xf32>
    %r:3 = scf.for %j = %c0 to %V step %c128 iter_args(%m = %minit, %l = %z1, %t = %z1) -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {{
      %w = tile.load %W[%j, %c0] {{tile.sched = #tile.sched<"loadW", stage = 0, order = {lo}, group = 0>}}
          : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      %s = tile.dot %x, %w, %zs {{transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>}}
          : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
{body}
      scf.yield %mn, %ln, %tok : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
    }}
    %lg = math.log %r#1 : tensor<128xf32>
    %lse = arith.addf %r#0, %lg : tensor<128xf32>
    tile.store %LSE[%m0], %lse : !tile.desc<128xf32>, tensor<128xf32>
    %ti = arith.fptosi %r#2 : tensor<128xf32> to tensor<128xi32>
    tile.store %TOK[%m0], %ti : !tile.desc<128xi32>, tensor<128xi32>
    return
  }}
}}
"""
def body(unit_of):
    out = []
    for i, (op, ty) in enumerate(OPS):
        name, order = unit_of(i)
        out.append('      %s {tile.sched = #tile.sched<"%s", stage = 1, order = %d, group = 1>} %s' % (op, name, order, ty))
    return "\n".join(out)
V = dict(
 t01_lmhead_one_unit=(lambda i: ("Softmax", 1), 99, "t01: the epilogue math one unit"),
 t02_lmhead_unit_per_op=(lambda i: ("S%02d" % i, 1 + i), 99, "t02: one unit per op, consecutive orders"),
 t03_lmhead_two_halves_loads_between=(lambda i: ("A" if i < 10 else "B", 1 if i < 10 else 3), 2, "t03: two units, the load unit ordered between them"),
)
for name, (f, lo, c) in V.items():
    open(os.path.join(HERE, "kernels", name + ".mlir"), "w").write(HEAD.format(name=name, comment=c, lo=lo, body=body(f)))
print("\n".join(V))
