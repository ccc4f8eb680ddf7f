// ln over whole rows of 192 f16 (one tile a row block), streamed over row blocks of 64 (R=3000 tail), f32 rows and a 1-d stat stored in the loop 
module {
  func.func @n08_layernorm_stream_64x192_f16_to_f32(
      %X: !tile.desc<64x192xf16> {tile.shape = affine_map<()[R] -> (R, 192)>},
      %G: !tile.desc<192xf32> {tile.shape = affine_map<()[R] -> (192)>},
      %Bt: !tile.desc<192xf32> {tile.shape = affine_map<()[R] -> (192)>},
      %Y: !tile.desc<64x192xf32> {tile.shape = affine_map<()[R] -> (R, 192)>},
      %Stat: !tile.desc<64xf32> {tile.shape = affine_map<()[R] -> (R)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (R ceildiv 2048)>,
                  tile.defaults = {R = 3000 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
        %cBR = arith.constant 64 : index
    %c2048 = arith.constant 2048 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %c2048 : index
    %r1 = arith.addi %r0, %c2048 : index
    %end = arith.minui %r1, %R : index
    %g = tile.load %G[%c0] : !tile.desc<192xf32> -> tensor<192xf32>
    %gb = tile.broadcast %g, dim = 0 : tensor<192xf32> -> tensor<64x192xf32>
    %bv = tile.load %Bt[%c0] : !tile.desc<192xf32> -> tensor<192xf32>
    %bb = tile.broadcast %bv, dim = 0 : tensor<192xf32> -> tensor<64x192xf32>
    %invn = arith.constant dense<0.005208333333333333> : tensor<64xf32>
    %eps = arith.constant dense<1.0e-6> : tensor<64xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<64x192xf32>
    %zt = arith.constant dense<0.0> : tensor<64x192xf32>
    %NVi = arith.constant 189 : i32
    %NVt = tensor.splat %NVi : tensor<64x192xi32>
    scf.for %i = %r0 to %end step %cBR {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<64x192xf16> -> tensor<64x192xf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64x192xf16> to tensor<64x192xf32>
      %s1 = tile.reduce sum %f, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64x192xf32> -> tensor<64xf32>
      %mean = arith.mulf %s1, %invn {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      %mb = tile.broadcast %mean, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64xf32> -> tensor<64x192xf32>
      %c = arith.subf %f, %mb {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64x192xf32>
      %q = arith.mulf %c, %c {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64x192xf32>
      %ss = tile.reduce sum %q, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64x192xf32> -> tensor<64xf32>
      %ms = arith.mulf %ss, %invn {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      %ve = arith.addf %ms, %eps {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      %rs = math.rsqrt %ve {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      %rb = tile.broadcast %rs, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64xf32> -> tensor<64x192xf32>
      %y0 = arith.mulf %c, %rb {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64x192xf32>
      %y1 = arith.mulf %y0, %gb {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64x192xf32>
      %y = arith.addf %y1, %bb {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64x192xf32>
      %yo = arith.addf %y, %zt {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<64x192xf32>
      tile.store %Y[%i, %c0], %yo {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<64x192xf32>, tensor<64x192xf32>
      tile.store %Stat[%i], %mean {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<64xf32>, tensor<64xf32>
    }
    return
  }
}
