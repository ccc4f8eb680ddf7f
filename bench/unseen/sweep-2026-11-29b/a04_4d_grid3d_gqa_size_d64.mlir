// d64; Q/O [B, H, S, 64], K/V [B, H/G, S, 64] (4-D descriptors), grid (S/128, H, B); kv head = h / G, G a size.
module {
  func.func @attn_4d_gqa(
      %Q: !tile.desc<1x1x128x64xbf16> {tile.shape = affine_map<()[B, H, S, G] -> (B, H, S, 64)>},
      %K: !tile.desc<1x1x128x64xbf16> {tile.shape = affine_map<()[B, H, S, G] -> (B, H ceildiv G, S, 64)>},
      %V: !tile.desc<1x1x128x64xbf16> {tile.shape = affine_map<()[B, H, S, G] -> (B, H ceildiv G, S, 64)>},
      %O: !tile.desc<1x1x128x64xbf16> {tile.shape = affine_map<()[B, H, S, G] -> (B, H, S, 64)>},
      %B: index {tile.size = "B"}, %H: index {tile.size = "H"}, %S: index {tile.size = "S"}, %G: index {tile.size = "G"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, S, G] -> (S ceildiv 128, H, B)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, S = 2048 : i64, G = 4 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c128x = arith.constant 128 : index
    %qblk = tile.program_id 0 : index
    %h = tile.program_id 1 : index
    %b = tile.program_id 2 : index
    %hk = arith.divui %h, %G : index
    %q0 = arith.muli %qblk, %c128 : index

    %q = tile.load %Q[%b, %h, %q0, %c0] : !tile.desc<1x1x128x64xbf16> -> tensor<128x64xbf16>
    %zero_s = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %zero_o = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %scale = arith.constant dense<0.18033688011112042> : tensor<128x128xf32>
    %m_init = arith.constant dense<0xFF800000> : tensor<128xf32>
    %l_init = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %res:3 = scf.for %j = %c0 to %S step %c128x
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)
        -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>) {
      %k = tile.load %K[%b, %hk, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>} : !tile.desc<1x1x128x64xbf16> -> tensor<128x64xbf16>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %sm = tile.mask %s, %q0, %j, %S {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %ss = arith.mulf %sm, %scale {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %mx = tile.reduce max %ss, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %dd = arith.subf %ss, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %p = math.exp2 %dd {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %alpha = math.exp2 %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %la = arith.mulf %l, %alpha {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %pb = arith.truncf %p {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
      %ab = tile.broadcast %alpha, dim = 1 {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128xf32> -> tensor<128x64xf32>
      %accs = arith.mulf %acc, %ab {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128x64xf32>
      %v = tile.load %V[%b, %hk, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>} : !tile.desc<1x1x128x64xbf16> -> tensor<128x64xbf16>
      %acc2 = tile.dot %pb, %v, %accs {tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>}
          : tensor<128x128xbf16>, tensor<128x64xbf16> -> tensor<128x64xf32>
      scf.yield %acc2, %mn, %ln : tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %lb = tile.broadcast %res#2, dim = 1 : tensor<128xf32> -> tensor<128x64xf32>
    %o = arith.divf %res#0, %lb : tensor<128x64xf32>
    %ob = arith.truncf %o : tensor<128x64xf32> to tensor<128x64xbf16>
    tile.store %O[%b, %h, %q0, %c0], %ob : !tile.desc<1x1x128x64xbf16>, tensor<128x64xbf16>
    return
  }
}
