// persistent (grid 132) online-softmax statistics of 128-row tiles over N=1000 columns in 128x128 tiles; LSE after the inner loop
module {
  func.func @p03_pp_softmax_lse_128x128(
      %X: !tile.desc<128x128xbf16> {tile.shape = affine_map<()[R, N] -> (R, N)>},
      %L: !tile.desc<128xf32> {tile.shape = affine_map<()[R, N] -> (R)>},
      %R: index {tile.size = "R"}, %N: index {tile.size = "N"})
      attributes {tile.kernel, tile.grid = affine_map<()[R, N] -> (132)>,
                  tile.defaults = {R = 100000 : i64, N = 1000 : i64}, tile.warpgroups = array<i64: 1, 2>, tile.consumers = "pingpong"} {
    %c0 = arith.constant 0 : index
    %cBC = arith.constant 128 : index
    %cBR = arith.constant 128 : index
    %pid = tile.program_id 0 : index
    %np = tile.num_programs 0 : index
    %tiles = arith.ceildivui %R, %cBR : index
    %minit = arith.constant dense<-1.0e30> : tensor<128xf32>
    %linit = arith.constant dense<0.0> : tensor<128xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<128x128xf32>
    %Ni = arith.index_cast %N : index to i32
    %Nt = tensor.splat %Ni : tensor<128x128xi32>
    scf.for %t = %pid to %tiles step %np {
      %r0 = arith.muli %t, %cBR : index
      %res:2 = scf.for %j = %c0 to %N step %cBC iter_args(%m = %minit, %l = %linit) -> (tensor<128xf32>, tensor<128xf32>) {
        %x = tile.load %X[%r0, %j] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
        %f = arith.extf %x {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128x128xbf16> to tensor<128x128xf32>
        %cols = tile.iota %j, dim = 1 {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128x128xi32>
        %ok = arith.cmpi slt, %cols, %Nt {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128x128xi32>
        %fm = arith.select %ok, %f, %neg {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128x128xi1>, tensor<128x128xf32>
        %mx = tile.reduce max %fm, dim = 1 {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
        %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %mb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
        %d = arith.subf %fm, %mb {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
        %e = math.exp2 %d {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
        %s = tile.reduce sum %e, dim = 1 {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
        %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %al = math.exp2 %dm {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %la = arith.mulf %l, %al {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %ln = arith.addf %la, %s {tile.sched = #tile.sched<"Soft", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        scf.yield %mn, %ln : tensor<128xf32>, tensor<128xf32>
      }
      %lg = math.log2 %res#1 : tensor<128xf32>
      %lse = arith.addf %res#0, %lg : tensor<128xf32>
      tile.store %L[%r0], %lse : !tile.desc<128xf32>, tensor<128xf32>
    }
    return
  }
}
