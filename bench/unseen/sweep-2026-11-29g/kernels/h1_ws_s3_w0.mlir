// hand case h1_ws_s3_w0: one 64x64 bf16 load (8 KiB) and one 64x64x64 dot per iteration,
// 1 CTA(s), loads at stage 0 (group 0), the dot at stage 3 (group 1, wait 0).
func.func @h1_ws_s3_w0(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N, G] -> (N, 64)>},
             %C: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N, G] -> (64 * G, 64)>},
             %N: index {tile.size = "N"}, %G: index {tile.size = "G"})
    attributes {tile.kernel, tile.grid = affine_map<()[N, G] -> (G)>,
                tile.defaults = {N = 16384 : i64, G = 1 : i64},
                tile.warpgroups = array<i64: 1, 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %p = tile.program_id 0 : index
  %m0 = arith.muli %p, %c64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%i, %c0] {tile.sched = #tile.sched<"load", stage = 0, order = 1, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b, tile.sched = #tile.sched<"MMA", stage = 3, order = 0, group = 1, wait = 0>} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cb = arith.truncf %r : tensor<64x64xf32> to tensor<64x64xbf16>
  tile.store %C[%m0, %c0], %cb : !tile.desc<64x64xbf16>, tensor<64x64xbf16>
  return
}
