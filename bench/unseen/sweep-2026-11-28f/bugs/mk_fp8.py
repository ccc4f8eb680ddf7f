#!/usr/bin/env python3
"""Minimal repros: a stream loop converting a bf16 tile to FP8 and storing it in the loop (python3 mk_fp8.py)."""
import os
D = os.path.dirname(os.path.abspath(__file__))
def mk(name, BR, BC, odt, math=True):
    T = f"tensor<{BR}x{BC}xf32>"
    sch = '{tile.sched = #tile.sched<"Cvt", stage = 1, order = 1, group = 1>}'
    open(os.path.join(D, name + ".mlir"), "w").write(f'''// {BR}x{BC} bf16 tile -> {odt}, stored in the loop (a quantizing stream, no dot)
module {{
  func.func @{name}(
      %X: !tile.desc<{BR}x{BC}xbf16> {{tile.shape = affine_map<()[R] -> (R, {BC})>}},
      %Y: !tile.desc<{BR}x{BC}x{odt}> {{tile.shape = affine_map<()[R] -> (R, {BC})>}},
      %R: index {{tile.size = "R"}})
      attributes {{tile.kernel, tile.grid = affine_map<()[R] -> (1)>,
                  tile.defaults = {{R = 1024 : i64}}, tile.warpgroups = array<i64: 1, {BR // 64}>}} {{
    %c0 = arith.constant 0 : index
    %cBR = arith.constant {BR} : index
    scf.for %i = %c0 to %R step %cBR {{
      %x = tile.load %X[%i, %c0] {{tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>}} : !tile.desc<{BR}x{BC}xbf16> -> tensor<{BR}x{BC}xbf16>
      %f = arith.extf %x {sch} : tensor<{BR}x{BC}xbf16> to {T}
      %y = arith.truncf %f {sch} : {T} to tensor<{BR}x{BC}x{odt}>
      tile.store %Y[%i, %c0], %y {{tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>}} : !tile.desc<{BR}x{BC}x{odt}>, tensor<{BR}x{BC}x{odt}>
    }}
    return
  }}
}}
''')
for BC in (16, 32, 48, 64, 80, 96, 112, 128, 160, 192, 256):
    mk(f"fp8_stream_128x{BC}_e4m3", 128, BC, "f8E4M3FN")
mk("fp8_stream_128x96_e5m2", 128, 96, "f8E5M2")
mk("fp8_stream_64x96_e4m3", 64, 96, "f8E4M3FN")
mk("ctl_stream_128x96_bf16", 128, 96, "f16")
