// ln statistics over a long row (N=72) streamed in 128x32 f32 tiles: sum x, sum x^2 carried as 1-d tensors; OOB columns read 0
module {
  func.func @n06_ln_stats_row_128x32_f32_N72(
      %X: !tile.desc<128x32xf32> {tile.shape = affine_map<()[R, N] -> (R, N)>},
      %Mean: !tile.desc<128xf32> {tile.shape = affine_map<()[R, N] -> (R)>},
      %Rstd: !tile.desc<128xf32> {tile.shape = affine_map<()[R, N] -> (R)>},
      %R: index {tile.size = "R"}, %N: index {tile.size = "N"})
      attributes {tile.kernel, tile.grid = affine_map<()[R, N] -> (R ceildiv 128)>,
                  tile.defaults = {R = 4096 : i64, N = 72 : i64}, tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBC = arith.constant 32 : index
    %cBR = arith.constant 128 : index
    %p = tile.program_id 0 : index
    %r0 = arith.muli %p, %cBR : index
    %z = arith.constant dense<0.0> : tensor<128xf32>
    %res:2 = scf.for %j = %c0 to %N step %cBC iter_args(%s1 = %z, %s2 = %z) -> (tensor<128xf32>, tensor<128xf32>) {
      %x = tile.load %X[%r0, %j] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<128x32xf32> -> tensor<128x32xf32>
      %f = arith.addf %x, %x {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<128x32xf32>
      %a = tile.reduce sum %f, dim = 1 {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<128x32xf32> -> tensor<128xf32>
      %q = arith.mulf %f, %f {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<128x32xf32>
      %b = tile.reduce sum %q, dim = 1 {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<128x32xf32> -> tensor<128xf32>
      %n1 = arith.addf %s1, %a {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %n2 = arith.addf %s2, %b {tile.sched = #tile.sched<"Acc", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      scf.yield %n1, %n2 : tensor<128xf32>, tensor<128xf32>
    }
    %Nf0 = arith.index_cast %N : index to i32
    %Nf1 = arith.sitofp %Nf0 : i32 to f32
    %Nv = tensor.splat %Nf1 : tensor<128xf32>
    %eps = arith.constant dense<1.0e-5> : tensor<128xf32>
    %ms = arith.divf %res#1, %Nv : tensor<128xf32>
    %mean = arith.divf %res#0, %Nv : tensor<128xf32>
    %m2 = arith.mulf %mean, %mean : tensor<128xf32>
    %var = arith.subf %ms, %m2 : tensor<128xf32>
    %ve = arith.addf %var, %eps : tensor<128xf32>
    %rstd = math.rsqrt %ve : tensor<128xf32>
    tile.store %Mean[%r0], %mean : !tile.desc<128xf32>, tensor<128xf32>
    tile.store %Rstd[%r0], %rstd : !tile.desc<128xf32>, tensor<128xf32>
    return
  }
}
