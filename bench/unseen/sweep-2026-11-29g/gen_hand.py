#!/usr/bin/env python3
"""Hand-checkable kernels: one TMA load + one dot (A * A^T) per iteration, 1 CTA."""
import os
os.makedirs('kernels', exist_ok=True)
T = '''// hand case {name}: one 64x64 bf16 load (8 KiB) and one 64x64x64 dot per iteration,
// {grid} CTA(s), loads at stage 0 (group {lg}), the dot at stage {ds} (group {dg}, wait {w}).
func.func @{name}(%A: !tile.desc<64x64xbf16> {{tile.shape = affine_map<()[N, G] -> (N, 64)>}},
             %C: !tile.desc<64x64xbf16> {{tile.shape = affine_map<()[N, G] -> (64 * G, 64)>}},
             %N: index {{tile.size = "N"}}, %G: index {{tile.size = "G"}})
    attributes {{tile.kernel, tile.grid = affine_map<()[N, G] -> (G)>,
                tile.defaults = {{N = {n} : i64, G = {grid} : i64}},
                tile.warpgroups = array<i64: {wg}>}} {{
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %p = tile.program_id 0 : index
  %m0 = arith.muli %p, %c64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {{
    %a = tile.load %A[%i, %c0] {{tile.sched = #tile.sched<"load", stage = 0, order = {lo}, group = {lg}>}} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {{transpose_b, tile.sched = #tile.sched<"MMA", stage = {ds}, order = {do}, group = {dg}, wait = {w}>}} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }}
  %cb = arith.truncf %r : tensor<64x64xf32> to tensor<64x64xbf16>
  tile.store %C[%m0, %c0], %cb : !tile.desc<64x64xbf16>, tensor<64x64xbf16>
  return
}}
'''
for ds in (0, 1, 2, 3):
    for ws in (True, False):
        for w in ((0, 1) if ds >= 1 else (0,)):
            name = f"h1_{'ws' if ws else 'sg'}_s{ds}_w{w}"
            open(f'kernels/{name}.mlir', 'w').write(T.format(name=name, grid=1, n=64 * 256,
                lg=0 if ws else 0, dg=1 if ws else 0, ds=ds, w=w, lo=0 if ds == 0 else 1, do=1 if ds == 0 else 0, wg='1, 1' if ws else '1'))
