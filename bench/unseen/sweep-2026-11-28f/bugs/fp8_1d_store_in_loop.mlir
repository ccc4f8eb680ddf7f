// [row max stored as a 1-d e4m3 vector in the loop] 
// element-wise stream of two inputs (bf16 X, f16 Yin): Z = 2X + 3Y stored as bf16, f32 and f16, its row max stored 1-d, all in the loop (R=1000 tail)
module {
  func.func @n15_axpby_three_outs_128x64(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %Yi: !tile.desc<128x64xf16> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %Z1: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %Z2: !tile.desc<128x64xf32> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %Z3: !tile.desc<128x64xf16> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %Zm: !tile.desc<128xf8E4M3FN> {tile.shape = affine_map<()[R] -> (R)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (1)>,
                  tile.defaults = {R = 1000 : i64}, tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %two = arith.constant dense<2.0> : tensor<128x64xf32>
    %three = arith.constant dense<3.0> : tensor<128x64xf32>
    scf.for %i = %c0 to %R step %c128 {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %y = tile.load %Yi[%i, %c0] {tile.sched = #tile.sched<"loadY", stage = 0, order = 0, group = 0>} : !tile.desc<128x64xf16> -> tensor<128x64xf16>
      %xf = arith.extf %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xbf16> to tensor<128x64xf32>
      %yf = arith.extf %y {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf16> to tensor<128x64xf32>
      %a = arith.mulf %xf, %two {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %b = arith.mulf %yf, %three {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %z = arith.addf %a, %b {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %z1 = arith.truncf %z {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
      %z3 = arith.truncf %z {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> to tensor<128x64xf16>
      %zm = tile.reduce max %z, dim = 1 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      tile.store %Z1[%i, %c0], %z1 {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128x64xbf16>, tensor<128x64xbf16>
      tile.store %Z2[%i, %c0], %z {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128x64xf32>, tensor<128x64xf32>
      tile.store %Z3[%i, %c0], %z3 {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128x64xf16>, tensor<128x64xf16>
      %zq = arith.truncf %zm {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128xf32> to tensor<128xf8E4M3FN>
      tile.store %Zm[%i], %zq {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128xf8E4M3FN>, tensor<128xf8E4M3FN>
    }
    return
  }
}
