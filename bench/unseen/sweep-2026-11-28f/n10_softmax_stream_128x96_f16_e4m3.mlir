// softmax over whole rows of 96 f16 (one tile a row block), streamed over row blocks of 128 (R=4096 tail), f8E4M3FN rows and a 1-d stat stored in the loop 
module {
  func.func @n10_softmax_stream_128x96_f16_e4m3(
      %X: !tile.desc<128x96xf16> {tile.shape = affine_map<()[R] -> (R, 96)>},
      %G: !tile.desc<96xf32> {tile.shape = affine_map<()[R] -> (96)>},
      %Bt: !tile.desc<96xf32> {tile.shape = affine_map<()[R] -> (96)>},
      %Y: !tile.desc<128x96xf8E4M3FN> {tile.shape = affine_map<()[R] -> (R, 96)>},
      %Stat: !tile.desc<128xf32> {tile.shape = affine_map<()[R] -> (R)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (R ceildiv 2048)>,
                  tile.defaults = {R = 4096 : i64}, tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
        %cBR = arith.constant 128 : index
    %c2048 = arith.constant 2048 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %c2048 : index
    %r1 = arith.addi %r0, %c2048 : index
    %end = arith.minui %r1, %R : index
    %g = tile.load %G[%c0] : !tile.desc<96xf32> -> tensor<96xf32>
    %gb = tile.broadcast %g, dim = 0 : tensor<96xf32> -> tensor<128x96xf32>
    %bv = tile.load %Bt[%c0] : !tile.desc<96xf32> -> tensor<96xf32>
    %bb = tile.broadcast %bv, dim = 0 : tensor<96xf32> -> tensor<128x96xf32>
    %invn = arith.constant dense<0.010416666666666666> : tensor<128xf32>
    %eps = arith.constant dense<1.0e-6> : tensor<128xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<128x96xf32>
    %zt = arith.constant dense<0.0> : tensor<128x96xf32>
    %NVi = arith.constant 93 : i32
    %NVt = tensor.splat %NVi : tensor<128x96xi32>
    scf.for %i = %r0 to %end step %cBR {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<128x96xf16> -> tensor<128x96xf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128x96xf16> to tensor<128x96xf32>
      %cols = tile.iota %c0, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128x96xi32>
      %ok = arith.cmpi slt, %cols, %NVt {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128x96xi32>
      %fm = arith.select %ok, %f, %neg {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128x96xi1>, tensor<128x96xf32>
      %mx = tile.reduce max %fm, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128x96xf32> -> tensor<128xf32>
      %mb = tile.broadcast %mx, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x96xf32>
      %d = arith.subf %fm, %mb {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128x96xf32>
      %e = math.exp %d {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128x96xf32>
      %ss = tile.reduce sum %e, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128x96xf32> -> tensor<128xf32>
      %sb = tile.broadcast %ss, dim = 1 {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x96xf32>
      %y = arith.divf %e, %sb {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128x96xf32>
      %yo = arith.truncf %y {tile.sched = #tile.sched<"Norm", stage = 1, order = 1, group = 1>} : tensor<128x96xf32> to tensor<128x96xf8E4M3FN>
      tile.store %Y[%i, %c0], %yo {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128x96xf8E4M3FN>, tensor<128x96xf8E4M3FN>
      tile.store %Stat[%i], %mx {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128xf32>, tensor<128xf32>
    }
    return
  }
}
