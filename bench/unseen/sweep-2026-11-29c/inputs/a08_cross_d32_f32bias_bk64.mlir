// Cross-attention, head dim 32, SQ != SKV, an f32 additive bias tensor [B*H, SQ, SKV] loaded per key block (bk 64).
module {
  func.func @a08_cross_d32_f32bias_bk64(
      %Q: !tile.desc<1x128x32xbf16> {tile.shape = affine_map<()[B, H, SQ, SKV] -> (B * H, SQ, 32)>},
      %K: !tile.desc<1x64x32xbf16> {tile.shape = affine_map<()[B, H, SQ, SKV] -> (B * H, SKV, 32)>},
      %V: !tile.desc<1x64x32xbf16> {tile.shape = affine_map<()[B, H, SQ, SKV] -> (B * H, SKV, 32)>},
      %BIAS: !tile.desc<1x128x64xf32> {tile.shape = affine_map<()[B, H, SQ, SKV] -> (B * H, SQ, SKV)>},
      %O: !tile.desc<1x128x32xbf16> {tile.shape = affine_map<()[B, H, SQ, SKV] -> (B * H, SQ, 32)>},
      %B: index {tile.size = "B"},
      %H: index {tile.size = "H"},
      %SQ: index {tile.size = "SQ"},
      %SKV: index {tile.size = "SKV"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, SQ, SKV] -> (SQ ceildiv 128, B * H)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, SQ = 2048 : i64, SKV = 3072 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBQ = arith.constant 128 : index
    %cBK = arith.constant 64 : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %cBQ : index
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x32xbf16> -> tensor<128x32xbf16>
    %zero_s = arith.constant dense<0.0> : tensor<128x64xf32>
    %zero_o = arith.constant dense<0.0> : tensor<128x32xf32>
    %scale = arith.constant dense<0.25503486164919736> : tensor<128x64xf32>
    %m_init = arith.constant dense<-1.0e30> : tensor<128xf32>
    %l_init = arith.constant dense<0.0> : tensor<128xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<128x64xf32>
    %res:3 = scf.for %j = %c0 to %SKV step %cBK
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)
        -> (tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>) {
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>}
          : !tile.desc<1x64x32xbf16> -> tensor<64x32xbf16>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}
          : tensor<128x32xbf16>, tensor<64x32xbf16> -> tensor<128x64xf32>
      %sm = tile.mask %s, %q0, %j, %SKV {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %ss = arith.mulf %sm, %scale {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %bt = tile.load %BIAS[%bh, %q0, %j] {tile.sched = #tile.sched<"loadBias", stage = 0, order = 6, group = 0>}
          : !tile.desc<1x128x64xf32> -> tensor<128x64xf32>
      %l2 = arith.constant dense<1.4426950408889634> : tensor<128x64xf32>
      %bl = arith.mulf %bt, %l2 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %sb = arith.addf %ss, %bl {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %mx = tile.reduce max %sb, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x64xf32>
      %d = arith.subf %sb, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %p = math.exp2 %d {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %alpha = math.exp2 %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %la = arith.mulf %l, %alpha {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %pb = arith.truncf %p {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
      %ab = tile.broadcast %alpha, dim = 1 {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128xf32> -> tensor<128x32xf32>
      %accs = arith.mulf %acc, %ab {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128x32xf32>
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>}
          : !tile.desc<1x64x32xbf16> -> tensor<64x32xbf16>
      %acc2 = tile.dot %pb, %v, %accs {tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>}
          : tensor<128x64xbf16>, tensor<64x32xbf16> -> tensor<128x32xf32>
      scf.yield %acc2, %mn, %ln : tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %lb = tile.broadcast %res#2, dim = 1 : tensor<128xf32> -> tensor<128x32xf32>
    %o = arith.divf %res#0, %lb : tensor<128x32xf32>
    %ob = arith.truncf %o : tensor<128x32xf32> to tensor<128x32xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x32xbf16>, tensor<128x32xbf16>
    return
  }
}
