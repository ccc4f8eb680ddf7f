// 128x96 bf16 tile -> f8E4M3FN, stored in the loop (a quantizing stream, no dot)
module {
  func.func @fp8_stream_128x96_e4m3(
      %X: !tile.desc<128x96xbf16> {tile.shape = affine_map<()[R] -> (R, 96)>},
      %Y: !tile.desc<128x96xf8E4M3FN> {tile.shape = affine_map<()[R] -> (R, 96)>},
      %R: index {tile.size = "R"})
      attributes {tile.kernel, tile.grid = affine_map<()[R] -> (1)>,
                  tile.defaults = {R = 1024 : i64}, tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %cBR = arith.constant 128 : index
    scf.for %i = %c0 to %R step %cBR {
      %x = tile.load %X[%i, %c0] {tile.sched = #tile.sched<"loadX", stage = 0, order = 0, group = 0>} : !tile.desc<128x96xbf16> -> tensor<128x96xbf16>
      %f = arith.extf %x {tile.sched = #tile.sched<"Cvt", stage = 1, order = 1, group = 1>} : tensor<128x96xbf16> to tensor<128x96xf32>
      %y = arith.truncf %f {tile.sched = #tile.sched<"Cvt", stage = 1, order = 1, group = 1>} : tensor<128x96xf32> to tensor<128x96xf8E4M3FN>
      tile.store %Y[%i, %c0], %y {tile.sched = #tile.sched<"St", stage = 1, order = 2, group = 1>} : !tile.desc<128x96xf8E4M3FN>, tensor<128x96xf8E4M3FN>
    }
    return
  }
}
