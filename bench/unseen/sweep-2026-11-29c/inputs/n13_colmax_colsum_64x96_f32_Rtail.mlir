// 
// column sum and masked column max of a tall f32 matrix in 64x96 tiles (R=1000 tail, rows >= R masked by iota dim 0 for the max); 1-d outputs after the loop
module {
  func.func @n13_colmax_colsum_64x96_f32_Rtail(
      %X: !tile.desc<64x96xf32> {tile.shape = affine_map<()[R, C] -> (R, C)>},
      %S: !tile.desc<96xf32> {tile.shape = affine_map<()[R, C] -> (C)>},
      %Mx: !tile.desc<96xf32> {tile.shape = affine_map<()[R, C] -> (C)>},
      %R: index {tile.size = "R"}, %C: index {tile.size = "C"})
      attributes {tile.kernel, tile.grid = affine_map<()[R, C] -> (C ceildiv 96)>,
                  tile.defaults = {R = 1000 : i64, C = 960 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %p = tile.program_id 0 : index
    %c0c = arith.muli %p, %c96 : index
    %z = arith.constant dense<0.0> : tensor<96xf32>
    %lo = arith.constant dense<-1.0e30> : tensor<96xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<64x96xf32>
    %Ri = arith.index_cast %R : index to i32
    %Rt = tensor.splat %Ri : tensor<64x96xi32>
    %r:2 = scf.for %i = %c0 to %R step %c64 iter_args(%s = %z, %m = %lo) -> (tensor<96xf32>, tensor<96xf32>) {
      %x = tile.load %X[%i, %c0c] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<64x96xf32> -> tensor<64x96xf32>
      %rows = tile.iota %i, dim = 0 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x96xi32>
      %ok = arith.cmpi slt, %rows, %Rt {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x96xi32>
      %xm = arith.select %ok, %x, %neg {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x96xi1>, tensor<64x96xf32>
      %cs = tile.reduce sum %x, dim = 0 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x96xf32> -> tensor<96xf32>
      %cm = tile.reduce max %xm, dim = 0 {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<64x96xf32> -> tensor<96xf32>
      %s2 = arith.addf %s, %cs {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<96xf32>
      %m2 = arith.maximumf %m, %cm {tile.sched = #tile.sched<"W", stage = 1, order = 1, group = 1>} : tensor<96xf32>
      scf.yield %s2, %m2 : tensor<96xf32>, tensor<96xf32>
    }
    tile.store %S[%c0c], %r#0 : !tile.desc<96xf32>, tensor<96xf32>
    tile.store %Mx[%c0c], %r#1 : !tile.desc<96xf32>, tensor<96xf32>
    return
  }
}
