// ALiBi with the per-head slope 2^(-8(h+1)/H) computed by scalar f32 math from program_id; Q and K f16, V and O bf16 (the two dots differ in dtype).
module {
  func.func @a10_alibi_scalar_slope_f16qk_bf16v(
      %Q: !tile.desc<1x128x64xf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 64)>},
      %K: !tile.desc<1x128x64xf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 64)>},
      %V: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 64)>},
      %O: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 64)>},
      %B: index {tile.size = "B"},
      %H: index {tile.size = "H"},
      %S: index {tile.size = "S"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, S] -> (S ceildiv 128, B * H)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, S = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBQ = arith.constant 128 : index
    %cBK = arith.constant 128 : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %cBQ : index
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x64xf16> -> tensor<128x64xf16>
    %zero_s = arith.constant dense<0.0> : tensor<128x128xf32>
    %zero_o = arith.constant dense<0.0> : tensor<128x64xf32>
    %scale = arith.constant dense<0.18033688011112042> : tensor<128x128xf32>
    %m_init = arith.constant dense<-1.0e30> : tensor<128xf32>
    %l_init = arith.constant dense<0.0> : tensor<128xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<128x128xf32>
    %h = arith.remui %bh, %H : index
    %c1a = arith.constant 1 : index
    %h1 = arith.addi %h, %c1a : index
    %h1i = arith.index_cast %h1 : index to i32
    %Hi = arith.index_cast %H : index to i32
    %h1f = arith.sitofp %h1i : i32 to f32
    %Hf = arith.sitofp %Hi : i32 to f32
    %m8 = arith.constant -8.0 : f32
    %e0 = arith.mulf %h1f, %m8 : f32
    %e1 = arith.divf %e0, %Hf : f32
    %slope = math.exp2 %e1 : f32
    %l2e = arith.constant 1.4426950408889634 : f32
    %slope2 = arith.mulf %slope, %l2e : f32
    %slopes = tensor.splat %slope2 : tensor<128x128xf32>
    %res:3 = scf.for %j = %c0 to %S step %cBK
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)
        -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>) {
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>}
          : !tile.desc<1x128x64xf16> -> tensor<128x64xf16>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}
          : tensor<128x64xf16>, tensor<128x64xf16> -> tensor<128x128xf32>
      %sm = tile.mask %s, %q0, %j, %S {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %ss = arith.mulf %sm, %scale {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %rows = tile.iota %q0, dim = 0 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xi32>
      %cols = tile.iota %j, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xi32>
      %rel = arith.subi %cols, %rows {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xi32>
      %relf = arith.sitofp %rel {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xi32> to tensor<128x128xf32>
      %ab0 = arith.mulf %relf, %slopes {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %sa = arith.addf %ss, %ab0 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %mx = tile.reduce max %sa, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %d = arith.subf %sa, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %p = math.exp2 %d {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %alpha = math.exp2 %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %la = arith.mulf %l, %alpha {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %pb = arith.truncf %p {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> to tensor<128x128xbf16>
      %ab = tile.broadcast %alpha, dim = 1 {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128xf32> -> tensor<128x64xf32>
      %accs = arith.mulf %acc, %ab {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128x64xf32>
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>}
          : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
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
