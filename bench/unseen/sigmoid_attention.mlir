// Sigmoid attention forward, head dim 64: O = sigmoid(Q K^T / sqrt(64)) V, no softmax (so no
// running max, no row sums, no rescale): a loop none of the assets has, for the timeline
// tools and the runner (bench/timeline/assets.py --set sigmoid). Key rows past S are out of
// bounds: TMA reads them as zeros and tile.mask sets their scores to -inf, whose sigmoid is 0.
//
// The loop walks key/value blocks of 128: S = Q K^T (MMA0), P = 1 / (1 + exp2(-S * log2(e) /
// 8)) in bf16 (Sigmoid), O += P V (MMA1). Loads in a producer warp group, the math in two
// consumer warp groups of 64 query rows; loads one stage ahead.
module {
  func.func @sigmoid_attn_d64(
      %Q: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 64)>},
      %K: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 64)>},
      %V: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 64)>},
      %O: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[B, H, S] -> (B * H, S, 64)>},
      %B: index {tile.size = "B"}, %H: index {tile.size = "H"},
      %S: index {tile.size = "S"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[B, H, S] -> (S ceildiv 128, B * H)>,
                  tile.defaults = {B = 4 : i64, H = 32 : i64, S = 8192 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %qblk = tile.program_id 0 : index
    %bh = tile.program_id 1 : index
    %q0 = arith.muli %qblk, %c128 : index
    %q = tile.load %Q[%bh, %q0, %c0] : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
    %zero_s = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %zero_o = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    // -log2(e) / sqrt(64): sigmoid(x / 8) = 1 / (1 + exp2(x * -log2(e) / 8)).
    %nscale = arith.constant dense<-0.18033688011112042> : tensor<128x128xf32>
    %one = arith.constant dense<1.000000e+00> : tensor<128x128xf32>
    %res = scf.for %j = %c0 to %S step %c128 iter_args(%acc = %zero_o) -> (tensor<128x64xf32>) {
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 3, group = 0>}
          : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %sm = tile.mask %s, %q0, %j, %S {tile.sched = #tile.sched<"Sigmoid", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %x = arith.mulf %sm, %nscale {tile.sched = #tile.sched<"Sigmoid", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %e = math.exp2 %x {tile.sched = #tile.sched<"Sigmoid", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %den = arith.addf %e, %one {tile.sched = #tile.sched<"Sigmoid", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %p = arith.divf %one, %den {tile.sched = #tile.sched<"Sigmoid", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %pb = arith.truncf %p {tile.sched = #tile.sched<"Sigmoid", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32> to tensor<128x128xbf16>
      %v = tile.load %V[%bh, %j, %c0] {tile.sched = #tile.sched<"loadV", stage = 0, order = 4, group = 0>}
          : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %acc2 = tile.dot %pb, %v, %acc {tile.sched = #tile.sched<"MMA1", stage = 1, order = 2, group = 1>}
          : tensor<128x128xbf16>, tensor<128x64xbf16> -> tensor<128x64xf32>
      scf.yield %acc2 : tensor<128x64xf32>
    }
    %ob = arith.truncf %res : tensor<128x64xf32> to tensor<128x64xbf16>
    tile.store %O[%bh, %q0, %c0], %ob : !tile.desc<1x128x64xbf16>, tensor<128x64xbf16>
    return
  }
}
