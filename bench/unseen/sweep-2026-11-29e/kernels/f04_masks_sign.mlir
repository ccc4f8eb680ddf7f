// Epilogue variety on a GEMM tile, with a loaded residual R (f32) and a loaded threshold table:
//   out0 bf16: where(acc > 0.5, acc, 0)          (cmpf of computed: flips)
//   out1 f32 : where(R > 0.25, R, -R)            (cmpf of loaded: no flips)
//   out2 bf16: relu(acc) = maximumf(acc, 0)      (continuous: no flips)
//   out3 f32 : copysign(1, acc)                  (sign of computed: discontinuous at 0)
//   out4 i32 : sign(acc) via two cmpf + select   (flips)
//   out5 f32 : atan2(acc, R - 2) (branch cut along x < 0: discontinuous where acc crosses 0)
//   out6 i32 : R > max over rows of R (loaded, iota, max: no flips), as 0/1
//   out7 f32 : where(R > thr[pid], 1, 0), thr a loaded f32 table read by tensor.extract
module {
  func.func @masks(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %R: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %TH: !tile.desc<64xf32> {tile.shape = affine_map<()[M, N, K] -> (64)>},
      %O0: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %O1: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %O2: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %O3: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %O4: !tile.desc<128x128xi32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %O5: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %O6: !tile.desc<128x128xi32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %O7: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
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
    %th = tile.load %TH[%c0] : !tile.desc<64xf32> -> tensor<64xf32>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %r = tile.load %R[%m0, %n0] : !tile.desc<128x128xf32> -> tensor<128x128xf32>
    %half = arith.constant dense<0.5> : tensor<128x128xf32>
    %quarter = arith.constant dense<0.25> : tensor<128x128xf32>
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %two = arith.constant dense<2.0> : tensor<128x128xf32>
    %gt = arith.cmpf ogt, %acc, %half : tensor<128x128xf32>
    %o0f = arith.select %gt, %acc, %zero : tensor<128x128xi1>, tensor<128x128xf32>
    %o0 = arith.truncf %o0f : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %O0[%m0, %n0], %o0 : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    %rgt = arith.cmpf ogt, %r, %quarter : tensor<128x128xf32>
    %nr = arith.negf %r : tensor<128x128xf32>
    %o1 = arith.select %rgt, %r, %nr : tensor<128x128xi1>, tensor<128x128xf32>
    tile.store %O1[%m0, %n0], %o1 : !tile.desc<128x128xf32>, tensor<128x128xf32>
    %relu = arith.maximumf %acc, %zero : tensor<128x128xf32>
    %o2 = arith.truncf %relu : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %O2[%m0, %n0], %o2 : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    %sg = math.copysign %one, %acc : tensor<128x128xf32>
    tile.store %O3[%m0, %n0], %sg : !tile.desc<128x128xf32>, tensor<128x128xf32>
    %pos = arith.cmpf ogt, %acc, %zero : tensor<128x128xf32>
    %neg = arith.cmpf olt, %acc, %zero : tensor<128x128xf32>
    %i1 = arith.constant dense<1> : tensor<128x128xi32>
    %im1 = arith.constant dense<-1> : tensor<128x128xi32>
    %i0 = arith.constant dense<0> : tensor<128x128xi32>
    %sn = arith.select %neg, %im1, %i0 : tensor<128x128xi1>, tensor<128x128xi32>
    %sp = arith.select %pos, %i1, %sn : tensor<128x128xi1>, tensor<128x128xi32>
    tile.store %O4[%m0, %n0], %sp : !tile.desc<128x128xi32>, tensor<128x128xi32>
    %xr = arith.subf %r, %two : tensor<128x128xf32>
    %at = math.atan2 %acc, %xr : tensor<128x128xf32>
    tile.store %O5[%m0, %n0], %at : !tile.desc<128x128xf32>, tensor<128x128xf32>
    %rmax = tile.reduce max %r, dim = 0 : tensor<128x128xf32> -> tensor<128xf32>
    %rmb = tile.broadcast %rmax, dim = 0 : tensor<128xf32> -> tensor<128x128xf32>
    %ge = arith.cmpf oge, %r, %rmb : tensor<128x128xf32>
    %o6 = arith.select %ge, %i1, %i0 : tensor<128x128xi1>, tensor<128x128xi32>
    tile.store %O6[%m0, %n0], %o6 : !tile.desc<128x128xi32>, tensor<128x128xi32>
    %t = tensor.extract %th[%pm] : tensor<64xf32>
    %tt = tensor.splat %t : tensor<128x128xf32>
    %gt7 = arith.cmpf ogt, %r, %tt : tensor<128x128xf32>
    %o7 = arith.select %gt7, %one, %zero : tensor<128x128xi1>, tensor<128x128xf32>
    tile.store %O7[%m0, %n0], %o7 : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
