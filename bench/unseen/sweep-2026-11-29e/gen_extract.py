#!/usr/bin/env python3
"""Generates the extract kernels kernels/e*.mlir: a 128x128 GEMM with a per-K-block scale read
from a table loaded before the loop at an index computed from IDX (index math on %k, %pm, %pn,
%K ...). Each kernel's comment says at which sizes its index leaves the table."""
import os
HERE = os.path.dirname(os.path.abspath(__file__))
T = """// {comment}
module {{
  func.func @{name}(
      %A: !tile.desc<128x64xbf16> {{tile.shape = affine_map<()[M, N, K] -> (M, K)>}},
      %B: !tile.desc<128x64xbf16> {{tile.shape = affine_map<()[M, N, K] -> (N, K)>}},
      %S: !tile.desc<{box}xf32> {{tile.shape = affine_map<()[M, N, K] -> ({shape})>, tile.init = array<f64: 0.5, 2.0>}},
      %C: !tile.desc<128x128xbf16> {{tile.shape = affine_map<()[M, N, K] -> (M, N)>}},
      %M: index {{tile.size = "M"}}, %N: index {{tile.size = "N"}}, %K: index {{tile.size = "K"}})
      attributes {{tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {{M = 1024 : i64, N = 1024 : i64, K = {kdef} : i64}},
                  tile.warpgroups = array<i64: 1, 2>}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c40 = arith.constant 40 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %s = tile.load %S[{loadc}] : !tile.desc<{box}xf32> -> tensor<{tile}xf32>
    {pre}
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {{
      %a = tile.load %A[%m0, %k] {{tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {{tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %zero {{transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1>}}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %kb = arith.divui %k, %c64 : index
      {idxt}
      %sk = tensor.extract %s[{ix}] : tensor<{tile}xf32>
      %ss = tensor.splat %sk {{tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>}} : tensor<128x128xf32>
      %dm = arith.mulf %d, %ss {{tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>}} : tensor<128x128xf32>
      %c3 = arith.addf %c, %dm {{tile.sched = #tile.sched<"Scale", stage = 2, order = 1, group = 1>}} : tensor<128x128xf32>
      scf.yield %c3 : tensor<128x128xf32>
    }}
    %cb = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %C[%m0, %n0], %cb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }}
}}
"""
ONE = dict(box="32", shape="32", tile="32", loadc="%c0", pre="", kdef=2048)
TWO = dict(box="8x16", shape="8, 16", tile="8x16", loadc="%c0, %c0", pre="", kdef=1024)
K = {
 # peak mid-loop: min(kb, last - kb): 0 at the first and the last iteration, (K/64 - 1)/2 mid-way
 "e01_peak_midloop": dict(ONE, kdef=4096, idx="%nb = arith.divui %K, %c64\n      %last = arith.subi %nb, %c1\n      %rev = arith.subi %last, %kb\n      %i0 = arith.minui %kb, %rev",
     ix="%i0", comment="e01: index min(kb, last-kb): 0 at the first and last iterations, 31 mid-way at K=4096 (table 32: inside), 63 at K=8192 (outside mid-loop only)"),
 # cyclic table index kb % 40 over a table of 32: in range at first/last iteration for some K
 "e02_cyclic_mod40": dict(ONE, idx="%i0 = arith.remui %kb, %c40", ix="%i0",
     comment="e02: index kb % 40 over a table of 32: reaches 39 whenever K >= 40*64 = 2560; at K = 2048 (32 blocks) it stays inside"),
 "e03_cyclic_mod32_ok": dict(ONE, kdef=65536, idx="%i0 = arith.remui %kb, %c32", ix="%i0",
     comment="e03: index kb % 32 over a table of 32: inside at every size (must compile)"),
 "e04_pid_2d": dict(TWO, idx="%r0 = arith.remui %pm, %c8\n      %i1 = arith.remui %kb, %c16", ix="%r0, %pn",
     comment="e04: 2-D table 8x16 read at (pm % 8, pn): outside once N > 16*128 = 2048"),
 "e05_pid_minus_one": dict(ONE, idx="%i0 = arith.subi %pm, %c1", ix="%i0",
     comment="e05: index pm - 1: -1 (wraps to 2^64-1) for program 0 at every size"),
 "e06_size_based_rev": dict(ONE, idx="%nb = arith.divui %K, %c64\n      %last = arith.subi %nb, %c1\n      %i0 = arith.subi %last, %kb", ix="%i0",
     comment="e06: index K/64 - 1 - kb: 31 at the first iteration at K = 2048 (inside), outside for K > 2048; K < 64 gives -1"),
 "e07_divsi_negative": dict(ONE, idx="%t = arith.subi %kb, %c7\n      %i0 = arith.divsi %t, %c2", ix="%i0",
     comment="e07: index (kb - 7) divsi 2: -3 at the first iteration (negative)"),
 "e08_2d_loopvar": dict(TWO, idx="%r0 = arith.remui %pm, %c8\n      %i1 = arith.divui %kb, %c2", ix="%r0, %i1",
     comment="e08: 2-D table 8x16 read at (pm % 8, kb / 2): inside up to K = 32*64 = 2048, outside past it"),
 "e09_maxsi_pid": dict(ONE, idx="%a1 = arith.subi %pm, %c7\n      %a2 = arith.subi %c7, %pm\n      %i0 = arith.maxsi %a1, %a2", ix="%i0",
     comment="e09: index |pm - 7| (maxsi): 7 at program 0, M/128 - 8 at the last: outside past M = 39*128"),
 "e10_pid_peak_bigrid": dict(ONE, idx="%gm = arith.divui %M, %c128\n      %gl = arith.subi %gm, %c1\n      %rv = arith.subi %gl, %pm\n      %i0 = arith.minui %pm, %rv", ix="%i0",
     comment="e10: index min(pm, M/128 - 1 - pm): 0 at the grid's corners, M/256 - 1 mid-grid: outside past M = 8192 (more than 4096 programs at N = 8192: corners only)"),
}
for name, d in K.items():
    d = dict(d, idxt="\n".join(l + " : index" for l in d["idx"].split("\n")))
    with open(os.path.join(HERE, "kernels", name + ".mlir"), "w") as f:
        f.write(T.format(name=name, **d))
print("\n".join(K))
