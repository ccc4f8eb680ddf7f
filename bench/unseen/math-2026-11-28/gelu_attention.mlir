// GELU attention forward, head dim 64: O = gelu(Q K^T / 8) V with the exact (erf) GELU in the
// loop, no softmax (as sigmoid_attention.mlir, whose shape it keeps). Key rows past S are out
// of bounds: tile.mask sets their scores to -inf, clamped to -10 first (gelu(-10) is -0 in f32;
// gelu(-inf) would be -inf * 0).
module {
  func.func @gelu_attn_d64(
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
    %scale = arith.constant dense<0.125> : tensor<128x128xf32>
    %lo = arith.constant dense<-10.0> : tensor<128x128xf32>
    %rs2 = arith.constant dense<0.70710678118654752> : tensor<128x128xf32>
    %half = arith.constant dense<0.5> : tensor<128x128xf32>
    %one = arith.constant dense<1.000000e+00> : tensor<128x128xf32>
    %res = scf.for %j = %c0 to %S step %c128 iter_args(%acc = %zero_o) -> (tensor<128x64xf32>) {
      %k = tile.load %K[%bh, %j, %c0] {tile.sched = #tile.sched<"loadK", stage = 0, order = 3, group = 0>}
          : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
      %s = tile.dot %q, %k, %zero_s {transpose_b, tile.sched = #tile.sched<"MMA0", stage = 1, order = 0, group = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      %sm = tile.mask %s, %q0, %j, %S {tile.sched = #tile.sched<"Gelu", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %x = arith.mulf %sm, %scale {tile.sched = #tile.sched<"Gelu", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %xc = arith.maximumf %x, %lo {tile.sched = #tile.sched<"Gelu", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %xs = arith.mulf %xc, %rs2 {tile.sched = #tile.sched<"Gelu", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %e = math.erf %xs {tile.sched = #tile.sched<"Gelu", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %e1 = arith.addf %e, %one {tile.sched = #tile.sched<"Gelu", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %h = arith.mulf %xc, %half {tile.sched = #tile.sched<"Gelu", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %p = arith.mulf %h, %e1 {tile.sched = #tile.sched<"Gelu", stage = 1, order = 1, group = 1>}
          : tensor<128x128xf32>
      %pb = arith.truncf %p {tile.sched = #tile.sched<"Gelu", stage = 1, order = 1, group = 1>}
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
