// d64; a per-key-block bias row chosen by an i32 table: bucket = T[j / 128] (table loaded before the loop), bias row Bias[bucket, 0:128] f32 added to every query row.
module {
  func.func @attn_bucket(
      %Q: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S, NBK] -> (B * H, S, 64)>},
      %K: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S, NBK] -> (B * H, S, 64)>},
      %V: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S, NBK] -> (B * H, S, 64)>},
      %O: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S, NBK] -> (B * H, S, 64)>},
      %T: !tile.desc<64xi32> {tile.shape = affine_map<()[B, H, S, NBK] -> (S ceildiv 128)>, tile.init = affine_map<()[B, H, S, NBK] -> (0, NBK)>},
      %Bias: !tile.desc<1x128xf32> {tile.shape = affine_map<()[B, H, S, NBK] -> (NBK, 128)>},
      %B: index {tile.size = "B"}, %H: index {tile.size = "H"}, %S: index {tile.size = "S"}, %NBK: index {tile.size = "NBK"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, S, NBK] -> (S ceildiv 128, B * H)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, S = 4096 : i64, NBK = 8 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c128x = arith.constant 128 : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %c128 : index
    %tab = tile.load %T[%c0] : !tile.desc<64xi32> -> tensor<64xi32>
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
    %zero_s = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %zero_o = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %scale = arith.constant dense<0.18033688011112042> : tensor<128x128xf32>
    %m_init = arith.constant dense<0xFF800000> : tensor<128xf32>
    %l_init = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %res:3 = scf.for %j = %c0 to %S step %c128x
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)
        -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>) {
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>} : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %one = arith.constant dense<1.0> : tensor<128x128xf32>
      %sm0 = tile.mask %s, %q0, %j, %S {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %jb = arith.divui %j, %c128 : index
      %bkt32 = tensor.extract %tab[%jb] : tensor<64xi32>
      %bkt = arith.index_cast %bkt32 : i32 to index
      %brow = tile.load %Bias[%bkt, %c0] {tile.sched = #tile.sched<"loadBias", stage = 0, order = 6, group = 0>} : !tile.desc<1x128xf32> -> tensor<128xf32>
      %bb = tile.broadcast %brow, dim = 0 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %sm2 = arith.addf %sm0, %bb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %sm = arith.mulf %sm2, %one {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
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
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>} : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %acc2 = tile.dot %pb, %v, %accs {tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>}
          : tensor<128x128xbf16>, tensor<128x64xbf16> -> tensor<128x64xf32>
      scf.yield %acc2, %mn, %ln : tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %lb = tile.broadcast %res#2, dim = 1 : tensor<128xf32> -> tensor<128x64xf32>
    %o = arith.divf %res#0, %lb : tensor<128x64xf32>
    %ob = arith.truncf %o : tensor<128x64xf32> to tensor<128x64xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x64xbf16>, tensor<128x64xbf16>
    return
  }
}
