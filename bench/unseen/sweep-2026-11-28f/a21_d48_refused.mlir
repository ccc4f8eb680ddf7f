// attention D=48 BQ=128 BK=64 bf16 mask=None softcap=None alibi=False GQA=1 lse=False S=2048
module {
  func.func @a21_d48_refused(
      %Q: !tile.desc<1x128x48xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 48)>},
      %K: !tile.desc<1x64x48xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 48)>},
      %V: !tile.desc<1x64x48xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 48)>},
      %O: !tile.desc<1x128x48xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 48)>},
      %B: index {tile.size = "B"}, %H: index {tile.size = "H"}, %S: index {tile.size = "S"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, S] -> (S ceildiv 128, B * H)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, S = 2048 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cBQ = arith.constant 128 : index
    %cBK = arith.constant 64 : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %cBQ : index
    %kvh = arith.addi %bh, %c0 : index
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x48xbf16> -> tensor<128x48xbf16>
    %zero_s = arith.constant dense<0.0> : tensor<128x64xf32>
    %zero_o = arith.constant dense<0.0> : tensor<128x48xf32>
    %scale = arith.constant dense<0.20823509255394532> : tensor<128x64xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<128x64xf32>
    %m_init = arith.constant dense<-1.0e30> : tensor<128xf32>
    %l_init = arith.constant dense<0.0> : tensor<128xf32>
    %Si = arith.index_cast %S : index to i32
    %St = tensor.splat %Si : tensor<128x64xi32>
    %zi = arith.constant dense<0> : tensor<128x64xi32>
    %wi = arith.constant dense<256> : tensor<128x64xi32>
    %qend = arith.addi %q0, %cBQ : index
    %hi_c = arith.minui %qend, %S : index
    %hiend = arith.addi %S, %c0 : index
    %res:3 = scf.for %j = %c0 to %hiend step %cBK
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init) -> (tensor<128x48xf32>, tensor<128xf32>, tensor<128xf32>) {
      %k = tile.load %K[%kvh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>} : !tile.desc<1x64x48xbf16> -> tensor<64x48xbf16>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>} : tensor<128x48xbf16>, tensor<64x48xbf16> -> tensor<128x64xf32>
      %ss = arith.mulf %s, %scale {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %sm = tile.mask %ss, %q0, %j, %S {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %mx = tile.reduce max %sm, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x64xf32>
      %d = arith.subf %sm, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %p = math.exp2 %d {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32>
      %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> -> tensor<128xf32>
      %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %alpha = math.exp2 %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %la = arith.mulf %l, %alpha {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %pb = arith.truncf %p {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x64xf32> to tensor<128x64xbf16>
      %ab = tile.broadcast %alpha, dim = 1 {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128xf32> -> tensor<128x48xf32>
      %accs = arith.mulf %acc, %ab {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128x48xf32>
      %v = tile.load %V[%kvh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>} : !tile.desc<1x64x48xbf16> -> tensor<64x48xbf16>
      %acc2 = tile.dot %pb, %v, %accs {tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>} : tensor<128x64xbf16>, tensor<64x48xbf16> -> tensor<128x48xf32>
      scf.yield %acc2, %mn, %ln : tensor<128x48xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %lb = tile.broadcast %res#2, dim = 1 : tensor<128xf32> -> tensor<128x48xf32>
    %o = arith.divf %res#0, %lb : tensor<128x48xf32>
    %ob = arith.truncf %o : tensor<128x48xf32> to tensor<128x48xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x48xbf16>, tensor<128x48xbf16>
    return
  }
}
