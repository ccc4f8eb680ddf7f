// [gamma/beta broadcasts moved into the loop] rms over whole rows of 128 bf16 (one tile a row block), streamed over row blocks of 192 (R=4096 tail), bf16 rows and a 1-d stat stored in the loop (3 consumer WGs)
module {
  func.func @n12_rmsnorm_stream_192x128_bf16(
      %X: !tile.desc<192x128xbf16> {tile.shape = affine_map<()[R] -> (R, 128)>},
      %G: !tile.desc<128xf32> {tile.shape = affine_map<()[R] -> (128)>},
      %Bt: !tile.desc<128xf32> {tile.shape = affine_map<()[R] -> (128)>},
      %Y: !tile.desc<192x128xbf16> {tile.shape = affine_map<()[R] -> (R, 128)>},
      %Stat: !tile.desc<192xf32> {tile.shape = affine_map<()[R] -> (R)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (R ceildiv 2048)>,
                  tile.defaults = {R = 4096 : i64}, tile.warpgroups = array<i64: 1, 3>} {
    %c0 = arith.constant 0 : index
        %cBR = arith.constant 192 : index
    %c2048 = arith.constant 2048 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %c2048 : index
    %r1 = arith.addi %r0, %c2048 : index
    %end = arith.minui %r1, %R : index
    %g = tile.load %G[%c0] : !tile.desc<128xf32> -> tensor<128xf32>
    %bv = tile.load %Bt[%c0] : !tile.desc<128xf32> -> tensor<128xf32>
    %invn = arith.constant dense<0.0078125> : tensor<192xf32>
    %eps = arith.constant dense<1.0e-6> : tensor<192xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<192x128xf32>
    %zt = arith.constant dense<0.0> : tensor<192x128xf32>
    %NVi = arith.constant 125 : i32
    %NVt = tensor.splat %NVi : tensor<192x128xi32>
    scf.for %i = %r0 to %end step %cBR {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<192x128xbf16> -> tensor<192x128xbf16>
      %gb = tile.broadcast %g, dim = 0 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<192x128xf32>
      %bb = tile.broadcast %bv, dim = 0 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<192x128xf32>
      %f = arith.extf %x {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<192x128xbf16> to tensor<192x128xf32>
      %q = arith.mulf %f, %f {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<192x128xf32>
      %ss = tile.reduce sum %q, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<192x128xf32> -> tensor<192xf32>
      %ms = arith.mulf %ss, %invn {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<192xf32>
      %ve = arith.addf %ms, %eps {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<192xf32>
      %rs = math.rsqrt %ve {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<192xf32>
      %rb = tile.broadcast %rs, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<192xf32> -> tensor<192x128xf32>
      %y0 = arith.mulf %f, %rb {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<192x128xf32>
      %y = arith.mulf %y0, %gb {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<192x128xf32>
      %yo = arith.truncf %y {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<192x128xf32> to tensor<192x128xbf16>
      tile.store %Y[%i, %c0], %yo {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<192x128xbf16>, tensor<192x128xbf16>
      tile.store %Stat[%i], %rs {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<192xf32>, tensor<192xf32>
    }
    return
  }
}
