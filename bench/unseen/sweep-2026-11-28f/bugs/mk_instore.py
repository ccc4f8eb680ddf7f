#!/usr/bin/env python3
"""In-loop stores of odd widths and dtypes (python3 mk_instore.py): a stream X (bf16) -> 2X stored in the loop."""
import os
D = os.path.dirname(os.path.abspath(__file__))
def mk(name, BR, BC, odt, vec=None):
    T = f"tensor<{BR}x{BC}xf32>"
    W = '{tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>}'
    STs = '{tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>}'
    if vec is None:
        desc = f"!tile.desc<{BR}x{BC}x{odt}>"; shape = f"(R, {BC})"
        val = f"%y = arith.truncf %g {W} : {T} to tensor<{BR}x{BC}x{odt}>" if odt != "f32" else f"%y = arith.addf %g, %g {W} : {T}"
        st = f"tile.store %Y[%i, %c0], %y {STs} : {desc}, tensor<{BR}x{BC}x{odt}>"
    else:
        n = BR if vec == 1 else BC
        desc = f"!tile.desc<{n}x{odt}>"; shape = "(R)" if vec == 1 else f"({BC})"
        red = f"%r = tile.reduce sum %g, dim = {vec} {W} : {T} -> tensor<{n}xf32>"
        val = red + "\n      " + (f"%y = arith.truncf %r {W} : tensor<{n}xf32> to tensor<{n}x{odt}>" if odt != "f32" else f"%y = arith.addf %r, %r {W} : tensor<{n}xf32>")
        st = f"tile.store %Y[%i], %y {STs} : {desc}, tensor<{n}x{odt}>" if vec == 1 else f"tile.store %Y[%c0], %y {STs} : {desc}, tensor<{n}x{odt}>"
    open(os.path.join(D, name + ".mlir"), "w").write(f'''// in-loop store: {BR}x{BC} {odt} {"vector dim " + str(vec) if vec is not None else "tile"}
module {{
  func.func @k(
      %X: !tile.desc<{BR}x{BC}xbf16> {{tile.shape = affine_map<()[R] -> (R, {BC})>}},
      %Y: {desc} {{tile.shape = affine_map<()[R] -> {shape}>}},
      %R: index {{tile.size = "R"}})
      attributes {{tile.kernel, tile.grid = affine_map<()[R] -> (1)>,
                  tile.defaults = {{R = 1024 : i64}}, tile.warpgroups = array<i64: 1, {BR // 64}>}} {{
    %c0 = arith.constant 0 : index
    %cBR = arith.constant {BR} : index
    scf.for %i = %c0 to %R step %cBR {{
      %x = tile.load %X[%i, %c0] {{tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>}} : !tile.desc<{BR}x{BC}xbf16> -> tensor<{BR}x{BC}xbf16>
      %f = arith.extf %x {W} : tensor<{BR}x{BC}xbf16> to {T}
      %g = arith.addf %f, %f {W} : {T}
      {val}
      {st}
    }}
    return
  }}
}}
''')
mk("is_128x40_f32", 128, 40, "f32")
mk("is_128x8_bf16", 128, 8, "bf16")
mk("is_64x24_f32", 64, 24, "f32")
mk("is_128x200_f16", 128, 200, "f16")
mk("is_128x136_bf16", 128, 136, "bf16")
mk("is_vec_rows_bf16", 128, 64, "bf16", vec=1)
mk("is_vec_rows_f16_64", 64, 64, "f16", vec=1)
mk("is_vec_cols_f16", 128, 64, "f16", vec=0)
mk("is_vec_rows_e5m2", 128, 64, "f8E5M2", vec=1)
mk("is_64x16_e4m3", 64, 16, "f8E4M3FN")
