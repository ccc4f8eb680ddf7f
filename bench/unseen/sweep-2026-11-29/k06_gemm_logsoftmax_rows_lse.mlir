// LM-head chunk: logits = X W^T for a 256-wide vocabulary chunk per program (grid over M and
// vocabulary chunks), then a row-wise log-softmax within the chunk in the epilogue: stores the
// chunk's log-probabilities (bf16), its row max and its row log-sum-exp (two f32 vectors).
module {
  func.func @lmhead_chunk(
      %X: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, V, D] -> (M, D)>},
      %W: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, V, D] -> (V, D)>},
      %LP: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, V, D] -> (M, V)>},
      %MX: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, V, D] -> (V ceildiv 256, M)>},
      %LSE: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, V, D] -> (V ceildiv 256, M)>},
      %M: index {tile.size = "M"}, %V: index {tile.size = "V"}, %D: index {tile.size = "D"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, V, D] -> (M ceildiv 128, V ceildiv 256)>,
                  tile.defaults = {M = 4096 : i64, V = 32768 : i64, D = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %pm = tile.program_id 0 : index
    %pv = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %v0 = arith.muli %pv, %c256 : index
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %acc = scf.for %k = %c0 to %D step %c64 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
      %a = tile.load %X[%m0, %k] {tile.sched = #tile.sched<"loadX", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %W[%v0, %k] {tile.sched = #tile.sched<"loadW", stage = 0, order = 2, group = 0>}
          : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    }
    // Vocabulary columns past V are TMA zeros: mask them to -1e30 so they do not enter the sums.
    %cols = tile.iota %v0, dim = 1 : tensor<128x256xi32>
    %vi = arith.index_cast %V : index to i32
    %vs = tensor.splat %vi : tensor<128x256xi32>
    %inr = arith.cmpi slt, %cols, %vs : tensor<128x256xi32>
    %neg = arith.constant dense<-1.0e30> : tensor<128x256xf32>
    %lg = arith.select %inr, %acc, %neg : tensor<128x256xi1>, tensor<128x256xf32>
    %mx = tile.reduce max %lg, dim = 1 : tensor<128x256xf32> -> tensor<128xf32>
    %mxb = tile.broadcast %mx, dim = 1 : tensor<128xf32> -> tensor<128x256xf32>
    %sh = arith.subf %lg, %mxb : tensor<128x256xf32>
    %e = math.exp %sh : tensor<128x256xf32>
    %se = tile.reduce sum %e, dim = 1 : tensor<128x256xf32> -> tensor<128xf32>
    %lse0 = math.log %se : tensor<128xf32>
    %lse = arith.addf %lse0, %mx : tensor<128xf32>
    %lseb = tile.broadcast %lse, dim = 1 : tensor<128xf32> -> tensor<128x256xf32>
    %lp = arith.subf %acc, %lseb : tensor<128x256xf32>
    %lpb = arith.truncf %lp : tensor<128x256xf32> to tensor<128x256xbf16>
    tile.store %LP[%m0, %v0], %lpb : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    tile.store %MX[%pv, %m0], %mx : !tile.desc<1x128xf32>, tensor<128xf32>
    tile.store %LSE[%pv, %m0], %lse : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
