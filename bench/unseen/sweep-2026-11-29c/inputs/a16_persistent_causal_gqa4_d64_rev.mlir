// Persistent causal attention, d64, GQA (4 query heads per K/V head), q blocks walked heaviest-first (reverse).
module {
  func.func @a16_persistent_causal_gqa4_d64_rev(
      %Q: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 64)>},
      %K: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * (H floordiv 4), S, 64)>},
      %V: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * (H floordiv 4), S, 64)>},
      %O: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 64)>},
      %B: index {tile.size = "B"}, %H: index {tile.size = "H"},
      %S: index {tile.size = "S"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, S] -> (132)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, S = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pid = tile.program_id 0 : index
    %nprog = tile.num_programs 0 : index
    %nq = arith.ceildivui %S, %c128 : index
    %bhn = arith.muli %B, %H : index
    %tiles = arith.muli %nq, %bhn : index
    scf.for %t = %pid to %tiles step %nprog {
      %qr = arith.remui %t, %nq : index
      %nq1 = arith.subi %nq, %c1 : index
      %qblk = arith.subi %nq1, %qr : index
      %bh = arith.divui %t, %nq : index
      %q0 = arith.muli %qblk, %c128 : index
      %kvh = arith.divui %bh, %c4 : index
      %q_end = arith.addi %q0, %c128 : index
      %hi = arith.minui %q_end, %S : index
      %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %zero_s = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
      %zero_o = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
      %scale = arith.constant dense<0.18033688011112042> : tensor<128x128xf32>
      %m_init = arith.constant dense<0xFF800000> : tensor<128xf32>
      %l_init = arith.constant dense<0.000000e+00> : tensor<128xf32>
      %res:3 = scf.for %j = %c0 to %hi step %c128
          iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)
          -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>) {
        %k = tile.load %K[%kvh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>}
            : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
        %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}
            : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        %sm = tile.mask %s, %q0, %j, %S {causal, tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128x128xf32>
        %ss = arith.mulf %sm, %scale {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128x128xf32>
        %mx = tile.reduce max %ss, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128x128xf32> -> tensor<128xf32>
        %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128xf32>
        %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128xf32> -> tensor<128x128xf32>
        %d = arith.subf %ss, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128x128xf32>
        %p = math.exp2 %d {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128x128xf32>
        %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128x128xf32> -> tensor<128xf32>
        %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128xf32>
        %alpha = math.exp2 %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128xf32>
        %la = arith.mulf %l, %alpha {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128xf32>
        %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128xf32>
        %pb = arith.truncf %p {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>}
            : tensor<128x128xf32> to tensor<128x128xbf16>
        %ab = tile.broadcast %alpha, dim = 1 {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>}
            : tensor<128xf32> -> tensor<128x64xf32>
        %accs = arith.mulf %acc, %ab {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>}
            : tensor<128x64xf32>
        %v = tile.load %V[%kvh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>}
            : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
        %acc2 = tile.dot %pb, %v, %accs {tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>}
            : tensor<128x128xbf16>, tensor<128x64xbf16> -> tensor<128x64xf32>
        scf.yield %acc2, %mn, %ln : tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>
      }
      %lb = tile.broadcast %res#2, dim = 1 : tensor<128xf32> -> tensor<128x64xf32>
      %o = arith.divf %res#0, %lb : tensor<128x64xf32>
      %ob = arith.truncf %o : tensor<128x64xf32> to tensor<128x64xbf16>
      tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x64xbf16>, tensor<128x64xbf16>
    }
    return
  }
}
