// 
// running element-wise max and sum over D slices of [D, R, 128] (2-d tensors carried), Y = max + mean stored bf16 after the loop
module {
  func.func @n16_maxpool_depth_2d_carry(
      %X: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[D, R] -> (D, R, 128)>},
      %Y: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[D, R] -> (R, 128)>},
      %D: index {tile.size = "D"}, %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[D, R] -> (R ceildiv 128)>,
                  tile.defaults = {D = 37 : i64, R = 4096 : i64}, tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %c128 : index
    %lo = arith.constant dense<-1.0e30> : tensor<128x128xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %r:2 = scf.for %d = %c0 to %D step %c1 iter_args(%m = %lo, %s = %z) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
      %x = tile.load %X[%d, %r0, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x128xbf16> to tensor<128x128xf32>
      %m2 = arith.maximumf %m, %f {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %s2 = arith.addf %s, %f {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      scf.yield %m2, %s2 : tensor<128x128xf32>, tensor<128x128xf32>
    }
    %Di = arith.index_cast %D : index to i32
    %Df = arith.sitofp %Di : i32 to f32
    %Dt = tensor.splat %Df : tensor<128x128xf32>
    %mean = arith.divf %r#1, %Dt : tensor<128x128xf32>
    %y = arith.addf %r#0, %mean : tensor<128x128xf32>
    %yb = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %Y[%r0, %c0], %yb : !tile.desc<128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
