// C = the sum of every libdevice-lowered function of the accumulator, each kept in its domain
// (x = acc / 64 and tanh(x) bound the arguments; sin and cos take acc itself, tens in size),
// and the exact ones (remf, copysign, roundeven, isnan) of a loaded bias; f32 out.
module {
  func.func @gemm_math_zoo(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %Bias: !tile.desc<128xf32> {tile.shape = affine_map<()[M, N, K] -> (N)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %bias = tile.load %Bias[%n0] : !tile.desc<128xf32> -> tensor<128xf32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %inv = arith.constant dense<0.015625> : tensor<128x128xf32>
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %two = arith.constant dense<2.0> : tensor<128x128xf32>
    %half = arith.constant dense<0.5> : tensor<128x128xf32>
    %p15 = arith.constant dense<1.5> : tensor<128x128xf32>
    %seven = arith.constant dense<7.0> : tensor<128x128xf32>
    %three = arith.constant dense<3.0> : tensor<128x128xf32>
    %w = arith.constant dense<0.9> : tensor<128x128xf32>
    %x = arith.mulf %acc, %inv : tensor<128x128xf32>
    %t = math.tanh %x : tensor<128x128xf32>
    %ax = math.absf %x : tensor<128x128xf32>
    %ax1 = arith.addf %ax, %one : tensor<128x128xf32>
    %t9 = arith.mulf %t, %w : tensor<128x128xf32>
    %th = arith.mulf %t, %half : tensor<128x128xf32>
    %t2 = arith.addf %t, %two : tensor<128x128xf32>
    %f0 = math.erf %x : tensor<128x128xf32>
    %f1 = math.erfc %x : tensor<128x128xf32>
    %s1 = arith.addf %f0, %f1 : tensor<128x128xf32>
    %f2 = math.sin %acc : tensor<128x128xf32>
    %s2 = arith.addf %s1, %f2 : tensor<128x128xf32>
    %f3 = math.cos %acc : tensor<128x128xf32>
    %s3 = arith.addf %s2, %f3 : tensor<128x128xf32>
    %f4 = math.tan %th : tensor<128x128xf32>
    %s4 = arith.addf %s3, %f4 : tensor<128x128xf32>
    %f5 = math.asin %t9 : tensor<128x128xf32>
    %s5 = arith.addf %s4, %f5 : tensor<128x128xf32>
    %f6 = math.acos %t9 : tensor<128x128xf32>
    %s6 = arith.addf %s5, %f6 : tensor<128x128xf32>
    %f7 = math.atan %x : tensor<128x128xf32>
    %s7 = arith.addf %s6, %f7 : tensor<128x128xf32>
    %f8 = math.atan2 %x, %t2 : tensor<128x128xf32>
    %s8 = arith.addf %s7, %f8 : tensor<128x128xf32>
    %f9 = math.sinh %x : tensor<128x128xf32>
    %s9 = arith.addf %s8, %f9 : tensor<128x128xf32>
    %f10 = math.cosh %x : tensor<128x128xf32>
    %s10 = arith.addf %s9, %f10 : tensor<128x128xf32>
    %f11 = math.asinh %x : tensor<128x128xf32>
    %s11 = arith.addf %s10, %f11 : tensor<128x128xf32>
    %f12 = math.acosh %ax1 : tensor<128x128xf32>
    %s12 = arith.addf %s11, %f12 : tensor<128x128xf32>
    %f13 = math.atanh %th : tensor<128x128xf32>
    %s13 = arith.addf %s12, %f13 : tensor<128x128xf32>
    %f14 = math.expm1 %x : tensor<128x128xf32>
    %s14 = arith.addf %s13, %f14 : tensor<128x128xf32>
    %f15 = math.log1p %ax : tensor<128x128xf32>
    %s15 = arith.addf %s14, %f15 : tensor<128x128xf32>
    %f16 = math.log10 %ax1 : tensor<128x128xf32>
    %s16 = arith.addf %s15, %f16 : tensor<128x128xf32>
    %f17 = math.cbrt %x : tensor<128x128xf32>
    %s17 = arith.addf %s16, %f17 : tensor<128x128xf32>
    %f18 = math.powf %ax1, %p15 : tensor<128x128xf32>
    %s18 = arith.addf %s17, %f18 : tensor<128x128xf32>
    %bb = tile.broadcast %bias, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
    %b7 = arith.mulf %bb, %seven : tensor<128x128xf32>
    %f19 = arith.remf %b7, %three : tensor<128x128xf32>
    %s19 = arith.addf %s18, %f19 : tensor<128x128xf32>
    %f20 = math.copysign %t, %bb : tensor<128x128xf32>
    %s20 = arith.addf %s19, %f20 : tensor<128x128xf32>
    %f21 = math.roundeven %b7 : tensor<128x128xf32>
    %s21 = arith.addf %s20, %f21 : tensor<128x128xf32>
    %nan = math.isnan %f19 : tensor<128x128xf32>
    %f22 = arith.select %nan, %one, %two : tensor<128x128xi1>, tensor<128x128xf32>
    %s22 = arith.addf %s21, %f22 : tensor<128x128xf32>
    tile.store %C[%m0, %n0], %s22 : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
