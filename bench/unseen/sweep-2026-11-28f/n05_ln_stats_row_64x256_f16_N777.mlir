// ln statistics over a long row (N=777) streamed in 64x256 f16 tiles: sum x, sum x^2 carried as 1-d tensors; OOB columns read 0
module {
  func.func @n05_ln_stats_row_64x256_f16_N777(
      %X: !tile.desc<64x256xf16> {tile.shape = affine_map<()[R, N] -> (R, N)>},
      %Mean: !tile.desc<64xf32> {tile.shape = affine_map<()[R, N] -> (R)>},
      %Rstd: !tile.desc<64xf32> {tile.shape = affine_map<()[R, N] -> (R)>},
      %R: index {tile.size = "R"}, %N: index {tile.size = "N"})
      attributes {tile.kernel, tile.grid = affine_map<()[R, N] -> (R ceildiv 64)>,
                  tile.defaults = {R = 1000 : i64, N = 777 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %cBC = arith.constant 256 : index
    %cBR = arith.constant 64 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %cBR : index
    %z = arith.constant dense<0.0> : tensor<64xf32>
    %res:2 = scf.for %j = %c0 to %N step %cBC iter_args(%s1 = %z, %s2 = %z) -> (tensor<64xf32>, tensor<64xf32>) {
      %x = tile.load %X[%r0, %j] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<64x256xf16> -> tensor<64x256xf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<64x256xf16> to tensor<64x256xf32>
      %a = tile.reduce sum %f, dim = 1 {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<64x256xf32> -> tensor<64xf32>
      %q = arith.mulf %f, %f {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<64x256xf32>
      %b = tile.reduce sum %q, dim = 1 {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<64x256xf32> -> tensor<64xf32>
      %n1 = arith.addf %s1, %a {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      %n2 = arith.addf %s2, %b {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<64xf32>
      scf.yield %n1, %n2 : tensor<64xf32>, tensor<64xf32>
    }
    %Nf0 = arith.index_cast %N : index to i32
    %Nf1 = arith.sitofp %Nf0 : i32 to f32
    %Nv = tensor.splat %Nf1 : tensor<64xf32>
    %eps = arith.constant dense<1.0e-5> : tensor<64xf32>
    %ms = arith.divf %res#1, %Nv : tensor<64xf32>
    %mean = arith.divf %res#0, %Nv : tensor<64xf32>
    %m2 = arith.mulf %mean, %mean : tensor<64xf32>
    %var = arith.subf %ms, %m2 : tensor<64xf32>
    %ve = arith.addf %var, %eps : tensor<64xf32>
    %rstd = math.rsqrt %ve : tensor<64xf32>
    tile.store %Mean[%r0], %mean : !tile.desc<64xf32>, tensor<64xf32>
    tile.store %Rstd[%r0], %rstd : !tile.desc<64xf32>, tensor<64xf32>
    return
  }
}
