// Head dim 256, 192 query rows per program over three consumer warp groups, 64-key blocks, causal.
module {
  func.func @a12_d256_bq192_bk64_causal_3wg(
      %Q: !tile.desc<1x192x256xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 256)>},
      %K: !tile.desc<1x64x256xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 256)>},
      %V: !tile.desc<1x64x256xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 256)>},
      %O: !tile.desc<1x192x256xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 256)>},
      %B: index {tile.size = "B"},
      %H: index {tile.size = "H"},
      %S: index {tile.size = "S"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, S] -> (S ceildiv 192, B * H)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, S = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 3>} {
    %c0 = arith.constant 0 : index
    %cBQ = arith.constant 192 : index
    %cBK = arith.constant 64 : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %cBQ : index
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x192x256xbf16> -> tensor<192x256xbf16>
    %zero_s = arith.constant dense<0.0> : tensor<192x64xf32>
    %zero_o = arith.constant dense<0.0> : tensor<192x256xf32>
    %scale = arith.constant dense<0.09016844005556021> : tensor<192x64xf32>
    %m_init = arith.constant dense<-1.0e30> : tensor<192xf32>
    %l_init = arith.constant dense<0.0> : tensor<192xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<192x64xf32>
    %q_end = arith.addi %q0, %cBQ : index
    %hi = arith.minui %q_end, %S : index
    %res:3 = scf.for %j = %c0 to %hi step %cBK
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)
        -> (tensor<192x256xf32>, tensor<192xf32>, tensor<192xf32>) {
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>}
          : !tile.desc<1x64x256xbf16> -> tensor<64x256xbf16>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}
          : tensor<192x256xbf16>, tensor<64x256xbf16> -> tensor<192x64xf32>
      %sm = tile.mask %s, %q0, %j, %S {causal, tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192x64xf32>
      %ss = arith.mulf %sm, %scale {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192x64xf32>
      %mx = tile.reduce max %ss, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192x64xf32> -> tensor<192xf32>
      %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192xf32>
      %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192xf32> -> tensor<192x64xf32>
      %d = arith.subf %ss, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192x64xf32>
      %p = math.exp2 %d {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192x64xf32>
      %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192x64xf32> -> tensor<192xf32>
      %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192xf32>
      %alpha = math.exp2 %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192xf32>
      %la = arith.mulf %l, %alpha {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192xf32>
      %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192xf32>
      %pb = arith.truncf %p {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<192x64xf32> to tensor<192x64xbf16>
      %ab = tile.broadcast %alpha, dim = 1 {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<192xf32> -> tensor<192x256xf32>
      %accs = arith.mulf %acc, %ab {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<192x256xf32>
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>}
          : !tile.desc<1x64x256xbf16> -> tensor<64x256xbf16>
      %acc2 = tile.dot %pb, %v, %accs {tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>}
          : tensor<192x64xbf16>, tensor<64x256xbf16> -> tensor<192x256xf32>
      scf.yield %acc2, %mn, %ln : tensor<192x256xf32>, tensor<192xf32>, tensor<192xf32>
    }
    %lb = tile.broadcast %res#2, dim = 1 : tensor<192xf32> -> tensor<192x256xf32>
    %o = arith.divf %res#0, %lb : tensor<192x256xf32>
    %ob = arith.truncf %o : tensor<192x256xf32> to tensor<192x256xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x192x256xbf16>, tensor<192x256xbf16>
    return
  }
}
