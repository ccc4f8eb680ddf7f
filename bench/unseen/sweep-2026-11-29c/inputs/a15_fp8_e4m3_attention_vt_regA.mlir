// FP8 (e4m3) attention, head dim 128: Q, K e4m3 (S = Q K^T, K-major), V stored transposed [B*H, 128, S] (e4m3, read with
// transpose_b so the P V dot is K-major too), P quantized to e4m3 in registers as the P V dot's A; O bf16.
module {
  func.func @a15_fp8_e4m3_attention_vt_regA(
      %Q: !tile.desc<1x128x128xf8E4M3FN> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
      %K: !tile.desc<1x128x128xf8E4M3FN> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
      %V: !tile.desc<1x128x128xf8E4M3FN> {tile.shape = affine_map<()[B, H, S] -> (B * H, 128, S)>},
      %O: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
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
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %zero_s = arith.constant dense<0.0> : tensor<128x128xf32>
    %zero_o = arith.constant dense<0.0> : tensor<128x128xf32>
    %scale = arith.constant dense<0.12751743082459868> : tensor<128x128xf32>
    %m_init = arith.constant dense<-1.0e30> : tensor<128xf32>
    %l_init = arith.constant dense<0.0> : tensor<128xf32>
    %neg = arith.constant dense<-1.0e30> : tensor<128x128xf32>
    %res:3 = scf.for %j = %c0 to %S step %cBK
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init)
        -> (tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>) {
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 4, group = 0>}
          : !tile.desc<1x128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}
          : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
      %sm = tile.mask %s, %q0, %j, %S {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %ss = arith.mulf %sm, %scale {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %mx = tile.reduce max %ss, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %mn = arith.maximumf %m, %mx {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %mnb = tile.broadcast %mn, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %d = arith.subf %ss, %mnb {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %p = math.exp2 %d {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32>
      %ps = tile.reduce sum %p, dim = 1 {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> -> tensor<128xf32>
      %dm = arith.subf %m, %mn {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %alpha = math.exp2 %dm {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %la = arith.mulf %l, %alpha {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %ln = arith.addf %la, %ps {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128xf32>
      %pb = arith.truncf %p {tile.sched = #tile.sched<"Softmax", stage = 1, order = 1, group = 1>} : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
      %ab = tile.broadcast %alpha, dim = 1 {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128xf32> -> tensor<128x128xf32>
      %accs = arith.mulf %acc, %ab {tile.sched = #tile.sched<"MUL", stage = 1, order = 2, group = 1>} : tensor<128x128xf32>
      %v = tile.load %V[%bh, %c0, %j] {tile.sched = #tile.sched<"loadV", stage = 0, order = 5, group = 0>}
          : !tile.desc<1x128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
      %acc2 = tile.dot %pb, %v, %accs {transpose_b, tile.sched = #tile.sched<"MMA1", stage = 1, order = 3, group = 1>}
          : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
      scf.yield %acc2, %mn, %ln : tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %lb = tile.broadcast %res#2, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %o = arith.divf %res#0, %lb : tensor<128x128xf32>
    %ob = arith.truncf %o : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x128xbf16>, tensor<128x128xbf16>
    return
  }
}
