// online softmax statistics over a long row streamed in 64x256 f16 tiles, columns >= N masked by iota (N=3000 tail); LSE (log2) stored 1-d
module {
  func.func @n02_softmax_lse_row_64x256_f16_N3000_1wg(
      %X: !tile.desc<64x256xf16> {tile.shape = affine_map<()[R, N] -> (R, N)>},
      %L: !tile.desc<64xf32> {tile.shape = affine_map<()[R, N] -> (R)>},
      %R: index {tile.size = "R"}, %N: index {tile.size = "N"})
      attributes {tile.kernel, tile.grid = affine_map<()[R, N] -> (R ceildiv 64)>,
                  tile.defaults = {R = 4096 : i64, N = 3000 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %cBC = arith.constant 256 : index
    %cBR = arith.constant 64 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %cBR : index
    %minit = arith.constant dense<-1.0e30> : tensor<64xf32>
    %linit = arith.constant dense<0.0> : tensor<64xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<64x256xf32>
    %Ni = arith.index_cast %N : index to i32
    %Nt = tensor.splat %Ni : tensor<64x256xi32>
    %res:2 = scf.for %j = %c0 to %N step %cBC iter_args(%m = %minit, %l = %linit) -> (tensor<64xf32>, tensor<64xf32>) {
      %x = tile.load %X[%r0, %j] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<64x256xf16> -> tensor<64x256xf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64x256xf16> to tensor<64x256xf32>
      %cols = tile.iota %j, dim = 1 {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64x256xi32>
      %ok = arith.cmpi slt, %cols, %Nt {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64x256xi32>
      %fm = arith.select %ok, %f, %neg {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64x256xi1>, tensor<64x256xf32>
      %mx = tile.reduce max %fm, dim = 1 {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64x256xf32> -> tensor<64xf32>
      %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      %mb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64xf32> -> tensor<64x256xf32>
      %d = arith.subf %fm, %mb {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64x256xf32>
      %e = math.exp2 %d {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64x256xf32>
      %s = tile.reduce sum %e, dim = 1 {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64x256xf32> -> tensor<64xf32>
      %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      %al = math.exp2 %dm {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      %la = arith.mulf %l, %al {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      %ln = arith.addf %la, %s {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      scf.yield %mn, %ln : tensor<64xf32>, tensor<64xf32>
    }
    %lg = math.log2 %res#1 : tensor<64xf32>
    %lse = arith.addf %res#0, %lg : tensor<64xf32>
    tile.store %L[%r0], %lse : !tile.desc<64xf32>, tensor<64xf32>
    return
  }
}
