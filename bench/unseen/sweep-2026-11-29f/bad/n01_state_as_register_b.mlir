// The natural linear-attention form: O_j = Q_j S with the state S [dk x dv] in registers as the
// dot's B. The docs say B must come from shared memory: expect a refusal naming the dot.
module {
  func.func @linattn_nat(
      %Q: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %K: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %V: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %O: !tile.desc<1x64x128xbf16> {tile.shape = affine_map<()[BH, T] -> (BH, T, 128)>},
      %BH: index {tile.size = "BH"}, %T: index {tile.size = "T"})
      attributes {tile.kernel, tile.grid = affine_map<()[BH, T] -> (BH)>,
                  tile.defaults = {BH = 64 : i64, T = 4096 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %bh = tile.program_id 0 : index
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %zo = arith.constant dense<0.0> : tensor<64x128xf32>
    %st = scf.for %j = %c0 to %T step %c64 iter_args(%s = %z) -> (tensor<128x128xf32>) {
      %q = tile.load %Q[%bh, %j, %c0] : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %k = tile.load %K[%bh, %j, %c0] : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %v = tile.load %V[%bh, %j, %c0] : !tile.desc<1x64x128xbf16> -> tensor<64x128xbf16>
      %sb = arith.truncf %s : tensor<128x128xf32> to tensor<128x128xbf16>
      %o = tile.dot %q, %sb, %zo : tensor<64x128xbf16>, tensor<128x128xbf16> -> tensor<64x128xf32>
      %ob = arith.truncf %o : tensor<64x128xf32> to tensor<64x128xbf16>
      tile.store %O[%bh, %j, %c0], %ob : !tile.desc<1x64x128xbf16>, tensor<64x128xbf16>
      %s2 = tile.dot %k, %v, %s {transpose_a} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
      scf.yield %s2 : tensor<128x128xf32>
    }
    return
  }
}
