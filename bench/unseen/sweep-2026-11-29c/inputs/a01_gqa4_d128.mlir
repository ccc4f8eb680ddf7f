// GQA: 4 query heads share one K/V head; K/V row = (q head) / 4 by index math in the load coordinates.
module {
  func.func @a01_gqa4_d128(
      %Q: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, HKV, S] -> (B * HKV * 4, S, 128)>},
      %K: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, HKV, S] -> (B * HKV, S, 128)>},
      %V: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, HKV, S] -> (B * HKV, S, 128)>},
      %O: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, HKV, S] -> (B * HKV * 4, S, 128)>},
      %B: index {tile.size = "B"},
      %HKV: index {tile.size = "HKV"},
      %S: index {tile.size = "S"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, HKV, S] -> (S ceildiv 128, B * HKV * 4)>,
                  tile.defaults = {B = 2 : i64, HKV = 4 : i64, S = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBQ = arith.constant 128 : index
    %cBK = arith.constant 128 : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %cBQ : index
    %cG = arith.constant 4 : index
    %kvbh = arith.divui %bh, %cG : index
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>
    %zero_s = arith.constant dense<0.0> : tensor<128x128xf32>
    %zero_o = arith.constant dense<0.0> : tensor<128x128xf32>
    %scale = arith.constant dense<0.12751743082459868> : tensor<128x128xf32>
    %m_init = arith.constant dense<-1.0e30> : tensor<128xf32>
    %l_init = arith.constant dense<0.0> : tensor<128xf32>
    %res:3 = scf.for %j = %c0 to %S step %cBK
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)
        -> (tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>) {
        %k = tile.load %K[%kvbh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>} : !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>
        %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
        %sm = tile.mask %s, %q0, %j, %S {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
        %ss0 = arith.mulf %sm, %scale {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
        %mx = tile.reduce max %ss0, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
        %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
        %d = arith.subf %ss0, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
        %p = math.exp2 %d {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
        %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
        %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %alpha = math.exp2 %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %la = arith.mulf %l, %alpha {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
        %pb = arith.truncf %p {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
        %ab = tile.broadcast %alpha, dim = 1 {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
        %accs = arith.mulf %acc, %ab {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128x128xf32>
        %v = tile.load %V[%kvbh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>} : !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>
        %acc2 = tile.dot %pb, %v, %accs {tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
        scf.yield %acc2, %mn, %ln : tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %lb = tile.broadcast %res#2, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %o = arith.divf %res#0, %lb : tensor<128x128xf32>
    %ob = arith.truncf %o : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
