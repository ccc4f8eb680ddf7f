// Causal sliding window whose width W is a kernel size; the loop starts at the first key block the window reaches (a nonzero, size-dependent offset); tanh softcapping (cap 30).
module {
  func.func @a09_swa_size_W_causal_softcap_lo(
      %Q: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S, W] -> (B * H, S, 128)>},
      %K: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[B, H, S, W] -> (B * H, S, 128)>},
      %V: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[B, H, S, W] -> (B * H, S, 128)>},
      %O: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S, W] -> (B * H, S, 128)>},
      %B: index {tile.size = "B"},
      %H: index {tile.size = "H"},
      %S: index {tile.size = "S"},
      %W: index {tile.size = "W"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, S, W] -> (S ceildiv 128, B * H)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, S = 4096 : i64, W = 1024 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBQ = arith.constant 128 : index
    %cBK = arith.constant 64 : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %cBQ : index
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>
    %zero_s = arith.constant dense<0.0> : tensor<128x64xf32>
    %zero_o = arith.constant dense<0.0> : tensor<128x128xf32>
    %pre = arith.constant dense<0.002946278254943948> : tensor<128x64xf32>
    %cap = arith.constant dense<43.2808512266689> : tensor<128x64xf32>
    %m_init = arith.constant dense<-1.0e30> : tensor<128xf32>
    %l_init = arith.constant dense<0.0> : tensor<128xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<128x64xf32>
    %q_end = arith.addi %q0, %cBQ : index
    %hi = arith.minui %q_end, %S : index
    %wi = arith.index_cast %W : index to i32
    %wsp = tensor.splat %wi : tensor<128x64xi32>
    %zi = arith.constant dense<0> : tensor<128x64xi32>
    %c1 = arith.constant 1 : index
    %qa = arith.addi %q0, %c1 : index
    %ok0 = arith.cmpi ugt, %qa, %W : index
    %d0 = arith.subi %qa, %W : index
    %d1 = arith.select %ok0, %d0, %c0 : index
    %blk = arith.divui %d1, %cBK : index
    %lo = arith.muli %blk, %cBK : index
    %res:3 = scf.for %j = %lo to %hi step %cBK
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)
        -> (tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>) {
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>}
          : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}
          : tensor<128x128xbf16>, tensor<64x128xbf16> -> tensor<128x64xf32>
      %sm = tile.mask %s, %q0, %j, %S {causal, tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %sp = arith.mulf %sm, %pre {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %st = math.tanh %sp {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %ss = arith.mulf %st, %cap {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %rows = tile.iota %q0, dim = 0 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xi32>
      %cols = tile.iota %j, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xi32>
      %dist = arith.subi %rows, %cols {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xi32>
      %past = arith.cmpi sge, %dist, %zi {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xi32>
      %near = arith.cmpi slt, %dist, %wsp {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xi32>
      %okw = arith.andi %past, %near {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xi1>
      %sw = arith.select %okw, %ss, %neg {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xi1>, tensor<128x64xf32>
      %mx = tile.reduce max %sw, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x64xf32>
      %d = arith.subf %sw, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %p = math.exp2 %d {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %alpha = math.exp2 %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %la = arith.mulf %l, %alpha {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %pb = arith.truncf %p {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
      %ab = tile.broadcast %alpha, dim = 1 {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %accs = arith.mulf %acc, %ab {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128x128xf32>
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>}
          : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %acc2 = tile.dot %pb, %v, %accs {tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>}
          : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
      scf.yield %acc2, %mn, %ln : tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %lb = tile.broadcast %res#2, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %o = arith.divf %res#0, %lb : tensor<128x128xf32>
    %ob = arith.truncf %o : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
