// a stream applying libdevice/expanded/integer math (erf, atan2, remf, ctpop, isnan, roundeven, copysign, clampf, fpowi) per element, f16 stored in the loop
module {
  func.func @n25(
      %X: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %Y: !tile.desc<64x64xf16> {tile.shape = affine_map<()[R] -> (R, 64)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (1)>,
                  tile.defaults = {R = 1000 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %R step %c64 {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xbf16> to tensor<64x64xf32>
      %a1 = math.erf %f {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %one = arith.constant dense<1.0> : tensor<64x64xf32>
      %fp1 = arith.addf %f, %one {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %a2 = math.atan2 %f, %fp1 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %a3 = arith.remf %f, %fp1 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %xi = arith.fptosi %f {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32> to tensor<64x64xi32>
      %pc = math.ctpop %xi {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xi32>
      %pcf = arith.sitofp %pc {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xi32> to tensor<64x64xf32>
      %nan = math.isnan %a3 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
      %a4 = arith.select %nan, %zero, %a3 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xi1>, tensor<64x64xf32>
      %a5 = math.roundeven %f {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %a6 = math.copysign %a5, %a2 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %lo = arith.constant dense<-2.0> : tensor<64x64xf32>
      %hi = arith.constant dense<2.0> : tensor<64x64xf32>
      %a7 = math.clampf %a6 to [%lo, %hi] {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %c3 = arith.constant dense<3> : tensor<64x64xi32>
      %a8 = math.fpowi %a7, %c3 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>, tensor<64x64xi32>
      %s1 = arith.addf %a1, %a2 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %s2 = arith.addf %s1, %a4 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %s3 = arith.addf %s2, %pcf {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %s4 = arith.addf %s3, %a8 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32>
      %y = arith.truncf %s4 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x64xf32> to tensor<64x64xf16>
      tile.store %Y[%i, %c0], %y {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<64x64xf16>, tensor<64x64xf16>
    }
    return
  }
}
