#!/usr/bin/env python3
"""Bad inputs (python3 mkbad.py): each is the small stream kernel below with one thing broken."""
import os
D = os.path.dirname(os.path.abspath(__file__))
BASE = '''// {note}
module {{
  func.func @k(
      %X: !tile.desc<{xbox}xbf16> {{tile.shape = affine_map<()[R] -> ({xshape})>}},
      %Y: !tile.desc<128x128xbf16> {{tile.shape = affine_map<()[R] -> (R, 128)>}},
      %R: index {{tile.size = "R"}})
      attributes {{tile.kernel, tile.grid = affine_map<()[R] -> ({grid})>,
                  tile.defaults = {{R = 1024 : i64}}, tile.warpgroups = array<i64: 1, 2>}} {{
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    scf.for %i = %c0 to %R step %c128 {{
      %x = tile.load %X[{coords}] {{tile.sched = #tile.sched<"loadX", stage = {lstage}, order = 0, group = 0>}} : !tile.desc<{xbox}xbf16> -> tensor<{xtile}x{xelt}>
      %f = arith.extf %x {{tile.sched = #tile.sched<"Work", stage = 1, order = 1, group = 1>}} : tensor<{xtile}x{xelt}> to tensor<128x128xf32>
      {mid}%y = arith.truncf %f {{tile.sched = #tile.sched<"Work", stage = 1, order = 1, group = 1>}} : tensor<128x128xf32> to tensor<128x128xbf16>
      {op}tile.store %Y[%i, %c0], %y {{tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>}} : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    }}
    return
  }}
}}
'''
def mk(name, note, **kw):
    d = dict(note=note, xbox="128x128", xshape="R, 128", grid="1", coords="%i, %c0", lstage=0, xtile="128x128", xelt="bf16", mid="", op="")
    d.update(kw)
    open(os.path.join(D, name + ".mlir"), "w").write(BASE.format(**d))
mk("ok_base", "the well-formed base")
mk("b01_load_elt_type", "load result f16 from a bf16 descriptor", xelt="f16")
mk("b02_coord_count", "one coordinate for a rank-2 descriptor", coords="%i")
mk("b03_coord_count3", "three coordinates for a rank-2 descriptor", coords="%i, %c0, %c0")
mk("b04_stage99", "tile.sched stage 99", lstage=99)
mk("b05_desc_zero_extent", "a descriptor box with a 0 extent", xbox="0x128", xtile="0x128")
mk("b06_unknown_op", "an unknown tile op", op="tile.frobnicate %y : tensor<128x128xbf16>\n      ")
mk("b07_shape_zero_extent", "tile.shape extent 0 at the default size", xshape="R - 1024, 128")
mk("b08_shape_negative_extent", "tile.shape extent negative at the default size", xshape="R - 2048, 128")
mk("b09_grid_negative", "tile.grid negative at the default size", grid="R - 2048")
mk("b10_grid_zero", "tile.grid zero at the default size", grid="R - 1024")
mk("b11_unaligned_coord", "innermost coordinate 1 (not 16-byte aligned)", coords="%i, %c1x", mid="")
mk("b12_shape_mismatch_tile", "load result shape differs from the box", xtile="64x128")
mk("b13_unknown_arith_on_tile", "math.ipowi (no lowering) in the loop",
   mid='%p = math.ipowi %q, %q {tile.sched = #tile.sched<"Work", stage = 1, order = 1, group = 1>} : tensor<128x128xi32>\n      ')
mk("b14_sched_group9", "tile.sched group 9", op="", lstage="0, order = 0, group = 9, wait = 0")
mk("b15_box_257", "a box dimension of 257", xbox="128x257", xtile="128x257")
mk("b16_huge_order", "tile.sched order 2^40", lstage="0, order = 1099511627776")
# fix-ups where the template does not fit
s = open(os.path.join(D, "b11_unaligned_coord.mlir")).read().replace("%c128 = arith.constant 128 : index", "%c128 = arith.constant 128 : index\n    %c1x = arith.constant 1 : index")
open(os.path.join(D, "b11_unaligned_coord.mlir"), "w").write(s)
s = open(os.path.join(D, "b13_unknown_arith_on_tile.mlir")).read().replace("scf.for", "%q = tile.iota %c0, dim = 0 : tensor<128x128xi32>\n    scf.for")
open(os.path.join(D, "b13_unknown_arith_on_tile.mlir"), "w").write(s)
s = open(os.path.join(D, "b16_huge_order.mlir")).read().replace("order = 1099511627776, order = 0", "order = 1099511627776")
open(os.path.join(D, "b16_huge_order.mlir"), "w").write(s)
s = open(os.path.join(D, "b14_sched_group9.mlir")).read().replace("group = 9, wait = 0, order = 0, group = 0", "group = 9")
s = s.replace("stage = 0, order = 0, group = 9, wait = 0, order = 0, group = 0", "stage = 0, order = 0, group = 9")
open(os.path.join(D, "b14_sched_group9.mlir"), "w").write(s)
base = open(os.path.join(D, "ok_base.mlir")).read()
open(os.path.join(D, "b17_truncated.mlir"), "w").write(base[:len(base) * 2 // 3])
open(os.path.join(D, "b18_empty.mlir"), "w").write("")
open(os.path.join(D, "b19_binary.mlir"), "wb").write(bytes(range(256)) * 4)
open(os.path.join(D, "b20_scalar_iterarg.mlir"), "w").write(base.replace(
    "scf.for %i = %c0 to %R step %c128 {", "%zz = arith.constant 0.0 : f32\n    %sum = scf.for %i = %c0 to %R step %c128 iter_args(%acc = %zz) -> (f32) {").replace(
    "    }\n    return", "      %acc2 = arith.addf %acc, %acc : f32\n      scf.yield %acc2 : f32\n    }\n    return"))
open(os.path.join(D, "b21_two_loops.mlir"), "w").write(base.replace("    return\n", '''    scf.for %i2 = %c0 to %R step %c128 {
      %x2 = tile.load %X[%i2, %c0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
      tile.store %Y[%i2, %c0], %x2 : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    }
    return
'''))
open(os.path.join(D, "b22_no_defaults.mlir"), "w").write(base.replace("tile.defaults = {R = 1024 : i64}, ", ""))
open(os.path.join(D, "b23_sched_not_attr.mlir"), "w").write(base.replace('{tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>}', '{tile.sched = "loadX"}'))
open(os.path.join(D, "b24_iota_f32.mlir"), "w").write(base.replace("scf.for", "%q = tile.iota %c0, dim = 0 : tensor<128x128xf32>\n    scf.for"))
open(os.path.join(D, "b25_yield_type.mlir"), "w").write(base.replace("scf.for %i = %c0 to %R step %c128 {", "%z = arith.constant dense<0.0> : tensor<128xf32>\n    %r = scf.for %i = %c0 to %R step %c128 iter_args(%a = %z) -> (tensor<128xf32>) {").replace("    }\n    return", "      scf.yield %f : tensor<128x128xf32>\n    }\n    return"))
open(os.path.join(D, "b26_desc_arg_f32_scalar.mlir"), "w").write(base.replace('%R: index {tile.size = "R"})', '%R: index {tile.size = "R"}, %alpha: f32)'))
open(os.path.join(D, "b27_shape_wrong_rank.mlir"), "w").write(base.replace("affine_map<()[R] -> (R, 128)>}},\n      %Y", "X").replace("(R, 128)>}", "(R)>}", 1))
open(os.path.join(D, "b28_store_whole_tile_every_iter.mlir"), "w").write(base.replace("tile.store %Y[%i, %c0]", "tile.store %Y[%c0, %c0]"))
open(os.path.join(D, "b29_coord_from_loaded_f32.mlir"), "w").write(base.replace("%x = tile.load %X[%i, %c0]", "%x = tile.load %X[%i, %i]"))
