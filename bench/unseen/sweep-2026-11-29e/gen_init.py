#!/usr/bin/env python3
"""kernels/i*.mlir: a 1-D stream (y = x * 2 in f32) whose input has a tile.init range at or past
its element type's largest finite value."""
import os
HERE = os.path.dirname(os.path.abspath(__file__))
T = """// {comment}
module {{
  func.func @{name}(
      %X: !tile.desc<128x{cols}x{ty}> {{tile.shape = affine_map<()[M] -> (M, {cols})>, tile.init = {init}}},
      %Y: !tile.desc<128x{cols}xf32> {{tile.shape = affine_map<()[M] -> (M, {cols})>}},
      %M: index {{tile.size = "M"}})
      attributes {{tile.kernel, tile.grid = affine_map<()[M] -> (1)>,
                  tile.defaults = {{M = 1024 : i64}}, tile.warpgroups = array<i64: 1, 1>}} {{
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %two = arith.constant dense<2.0> : tensor<128x{cols}xf32>
    scf.for %i = %c0 to %M step %c128 {{
      %x = tile.load %X[%i, %c0] : !tile.desc<128x{cols}x{ty}> -> tensor<128x{cols}x{ty}>
      {conv}
      %y = arith.mulf %xf, %two : tensor<128x{cols}xf32>
      tile.store %Y[%i, %c0], %y : !tile.desc<128x{cols}xf32>, tensor<128x{cols}xf32>
    }}
    return
  }}
}}
"""
def conv(ty, cols):
    if ty == "f32": return "%%xf = arith.addf %%x, %%x : tensor<128x%sxf32>" % cols
    if ty == "i32": return "%%xf = arith.sitofp %%x : tensor<128x%sxi32> to tensor<128x%sxf32>" % (cols, cols)
    return "%%xf = arith.extf %%x : tensor<128x%sx%s> to tensor<128x%sxf32>" % (cols, ty, cols)
K = [
 ("i01_f16_65504", "f16", 64, "array<f64: -65504.0, 65504.0>", "f16 at exactly its largest finite (HIGH exclusive): should be accepted"),
 ("i02_f16_65520", "f16", 64, "array<f64: 0.0, 65520.0>", "f16 HIGH 65520 (draws below it round up to inf from 65520 on; 65519 rounds to 65504): past the largest finite?"),
 ("i03_f16_neg", "f16", 64, "array<f64: -70000.0, 0.0>", "f16 LOW -70000: past -65504, refused"),
 ("i04_bf16_3e38", "bf16", 64, "array<f64: 0.0, 3.0e38>", "bf16 HIGH 3e38 (below 3.39e38): accepted"),
 ("i05_bf16_34e38", "bf16", 64, "array<f64: 0.0, 3.4e38>", "bf16 HIGH 3.4e38: past 3.3895e38, refused"),
 ("i06_f32_1e39", "f32", 64, "array<f64: 0.0, 1.0e39>", "f32 HIGH 1e39: past 3.4028e38, refused"),
 ("i07_e4m3_500", "f8E4M3FN", 128, "array<f64: 0.0, 500.0>", "e4m3 HIGH 500: past 448 (the fill saturates to 448), refused"),
 ("i08_e5m2_60000", "f8E5M2", 128, "array<f64: -60000.0, 0.0>", "e5m2 LOW -60000: past -57344, refused"),
 ("i09_i32_3e9", "i32", 64, "array<f64: 0.0, 3.0e9>", "i32 HIGH 3e9: past 2^31-1 (int(floorf(v)) overflows), refused?"),
 ("i10_i32_neg3e9", "i32", 64, "array<f64: -3.0e9, 0.0>", "i32 LOW -3e9: past -2^31, refused?"),
 ("i11_f16_map", "f16", 64, "affine_map<()[M] -> (0, M * 64)>", "f16 range from the sizes: [0, 64 M): 65536 at M = 1024, past 65504; 8192 at M = 128"),
 ("i12_f32_huge_ok", "f32", 64, "array<f64: -3.0e38, 3.0e38>", "f32 +-3e38 inside the range: the fill's a + (b - a) u overflows? (b - a = 6e38 > f32 max)"),
 ("i13_f16_65519", "f16", 64, "array<f64: 0.0, 65519.0>", "f16 HIGH 65519: draws round to at most 65504: finite, past 65504 only nominally"),
]
for name, ty, cols, init, comment in K:
    open(os.path.join(HERE, "kernels", name + ".mlir"), "w").write(
        T.format(name=name, ty=ty, cols=cols, init=init, conv=conv(ty, cols), comment=comment))
print("\n".join(k[0] for k in K))
