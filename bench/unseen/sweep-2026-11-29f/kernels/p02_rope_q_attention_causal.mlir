// Causal attention with RoPE applied to Q inside the kernel (NeoX halves: q' = [q1 c - q2 s, q2 c + q1 s],
// cos/sin tables [S, 64] f32 loaded before the loop). K is the cache's already-rotated keys, read as two
// 64-column halves so that S = q1' K1^T + q2' K2^T: two dots, the second accumulating onto the first
// in the same iteration; both q halves are register A operands computed before the loop.
// Outputs: O (bf16) and the log-sum-exp (f32 vector).
module {
  func.func @rope_attn(
      %Q: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
      %K: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
      %V: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
      %COS: !tile.desc<128x64xf32> {tile.shape = affine_map<()[B, H, S] -> (S, 64)>},
      %SIN: !tile.desc<128x64xf32> {tile.shape = affine_map<()[B, H, S] -> (S, 64)>},
      %O: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
      %L: !tile.desc<1x128xf32> {tile.shape = affine_map<()[B, H, S] -> (B * H, S)>},
      %B: index {tile.size = "B"}, %H: index {tile.size = "H"}, %S: index {tile.size = "S"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, S] -> (S ceildiv 128, B * H)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, S = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %c128 : index
    %q1 = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
    %q2 = tile.load %Q[%bh, %q0, %c64] : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
    %cs = tile.load %COS[%q0, %c0] : !tile.desc<128x64xf32> -> tensor<128x64xf32>
    %sn = tile.load %SIN[%q0, %c0] : !tile.desc<128x64xf32> -> tensor<128x64xf32>
    %q1f = arith.extf %q1 : tensor<128x64xbf16> to tensor<128x64xf32>
    %q2f = arith.extf %q2 : tensor<128x64xbf16> to tensor<128x64xf32>
    %a1 = arith.mulf %q1f, %cs : tensor<128x64xf32>
    %a2 = arith.mulf %q2f, %sn : tensor<128x64xf32>
    %r1 = arith.subf %a1, %a2 : tensor<128x64xf32>
    %b1 = arith.mulf %q2f, %cs : tensor<128x64xf32>
    %r2 = math.fma %q1f, %sn, %b1 : tensor<128x64xf32>
    %r1b = arith.truncf %r1 : tensor<128x64xf32> to tensor<128x64xbf16>
    %r2b = arith.truncf %r2 : tensor<128x64xf32> to tensor<128x64xbf16>
    %zero_s = arith.constant dense<0.0> : tensor<128x128xf32>
    %zero_o = arith.constant dense<0.0> : tensor<128x128xf32>
    %scale = arith.constant dense<0.12751743082459868> : tensor<128x128xf32>
    %m_init = arith.constant dense<-1.0e30> : tensor<128xf32>
    %l_init = arith.constant dense<0.0> : tensor<128xf32>
    %qe = arith.addi %q0, %c128 : index
    %hi = arith.minui %qe, %S : index
    %res:3 = scf.for %j = %c0 to %hi step %c128
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init) -> (tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>) {
      %k1 = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK1", stage = 0, order = 5, group = 0>} : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %k2 = tile.load %K[%bh, %j, %c64] {tile.sched = #tile.sched<"loadK2", stage = 0, order = 6, group = 0>} : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %s1 = tile.dot %r1b, %k1, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0a", stage = 1, order = 0, group = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %s = tile.dot %r2b, %k2, %s1 {transpose_b, tile.sched = #tile.sched<"MMA0b", stage = 1, order = 1, group = 1>} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %sm = tile.mask %s, %q0, %j, %S {causal, tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128x128xf32>
      %ss = arith.mulf %sm, %scale {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128x128xf32>
      %mx = tile.reduce max %ss, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128xf32>
      %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %d = arith.subf %ss, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128x128xf32>
      %p = math.exp2 %d {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128x128xf32>
      %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128xf32>
      %alpha = math.exp2 %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128xf32>
      %la = arith.mulf %l, %alpha {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128xf32>
      %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128xf32>
      %pb = arith.truncf %p {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
      %ab = tile.broadcast %alpha, dim = 1 {tile.sched = #tile.sched<"MUL", stage = 1, order = 3, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %accs = arith.mulf %acc, %ab {tile.sched = #tile.sched<"MUL", stage = 1, order = 3, group = 1>} : tensor<128x128xf32>
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 7, group = 0>} : !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>
      %acc2 = tile.dot %pb, %v, %accs {tile.sched = #tile.sched<"MMA1", stage = 1, order = 4, group = 1>} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      scf.yield %acc2, %mn, %ln : tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %lb = tile.broadcast %res#2, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %o = arith.divf %res#0, %lb : tensor<128x128xf32>
    %ob = arith.truncf %o : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x128xbf16>, tensor<128x128xbf16>
    %lg = math.log2 %res#2 : tensor<128xf32>
    %lse = arith.addf %lg, %res#1 : tensor<128xf32>
    tile.store %L[%bh, %q0], %lse : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
