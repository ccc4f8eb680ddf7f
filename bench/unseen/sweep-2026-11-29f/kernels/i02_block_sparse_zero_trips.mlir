// i01 with block counts in [0, 3): about a third of the (head, query block) programs run the
// data-dependent loop zero times (O = 0 there, l clamped to 1e-30). Block-sparse attention (a BigBird / MInference-like block list): each (head, query block) reads its
// own list of key blocks from an i32 table IDX [B*H*NQ, 64] (block numbers, loaded before the loop)
// and its length from CNT [B*H*NQ, 4] (element 0): the loop bound and every K/V coordinate come from
// tensor.extract of i32 tiles. The mask uses the key block's position (k0 from the table), not the
// loop index; rows past S are masked by tile.mask's limit. Outputs: O (bf16), lse (f32).
module {
  func.func @bsparse_attn(
      %Q: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
      %K: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
      %V: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
      %IDX: !tile.desc<1x64xi32> {tile.shape = affine_map<()[B, H, S] -> (B * H * (S ceildiv 128), 64)>,
        tile.init = affine_map<()[B, H, S] -> (0, S ceildiv 128)>},
      %CNT: !tile.desc<1x4xi32> {tile.shape = affine_map<()[B, H, S] -> (B * H * (S ceildiv 128), 4)>,
        tile.init = array<f64: 0.0, 3.0>},
      %O: !tile.desc<1x128x128xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 128)>},
      %L: !tile.desc<1x128xf32> {tile.shape = affine_map<()[B, H, S] -> (B * H, S)>},
      %B: index {tile.size = "B"}, %H: index {tile.size = "H"}, %S: index {tile.size = "S"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, S] -> (S ceildiv 128, B * H)>,
                  tile.defaults = {B = 2 : i64, H = 16 : i64, S = 8000 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %c128 : index
    %sp = arith.addi %S, %c127 : index
    %nq = arith.divui %sp, %c128 : index
    %rowb = arith.muli %bh, %nq : index
    %row = arith.addi %rowb, %qblk : index
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>
    %idx = tile.load %IDX[%row, %c0] : !tile.desc<1x64xi32> -> tensor<64xi32>
    %cnt = tile.load %CNT[%row, %c0] : !tile.desc<1x4xi32> -> tensor<4xi32>
    %n32 = tensor.extract %cnt[%c0] : tensor<4xi32>
    %n = arith.index_cast %n32 : i32 to index
    %zero_s = arith.constant dense<0.0> : tensor<128x128xf32>
    %zero_o = arith.constant dense<0.0> : tensor<128x128xf32>
    %scale = arith.constant dense<0.12751743082459868> : tensor<128x128xf32>
    %m_init = arith.constant dense<-1.0e30> : tensor<128xf32>
    %l_init = arith.constant dense<0.0> : tensor<128xf32>
    %res:3 = scf.for %t = %c0 to %n step %c1
        iter_args(%acc = %zero_o, %m = %m_init, %l = %l_init) -> (tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>) {
      %kb32 = tensor.extract %idx[%t] : tensor<64xi32>
      %kb = arith.index_cast %kb32 : i32 to index
      %j = arith.muli %kb, %c128 : index
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 5, group = 0>} : !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      %sm = tile.mask %s, %q0, %j, %S {tile.sched = #tile.sched<"Softmax", stage = 1, order = 2, group = 1>} : tensor<128x128xf32>
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
    %tiny = arith.constant dense<1.0e-30> : tensor<128xf32>
    %lsafe = arith.maximumf %res#2, %tiny : tensor<128xf32>
    %lb = tile.broadcast %lsafe, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %o = arith.divf %res#0, %lb : tensor<128x128xf32>
    %ob = arith.truncf %o : tensor<128x128xf32> to tensor<128x128xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x128xbf16>, tensor<128x128xbf16>
    %lg = math.log2 %lsafe : tensor<128xf32>
    %lse = arith.addf %lg, %res#1 : tensor<128xf32>
    tile.store %L[%bh, %q0], %lse : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
