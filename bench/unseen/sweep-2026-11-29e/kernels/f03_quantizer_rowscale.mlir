// Per-row symmetric quantization of a GEMM's output (the epilogue of a quantized linear layer):
// s = QMAX / rowmax|acc|, q = clamp(round(acc * s), -QMAX, QMAX). Outputs:
//   out0: int16-range q (QMAX = 32767) as i32     out1: int8-range q (QMAX = 127) as i32
//   out2: int8-range q as f16                      out3: Q16.16 fixed point, fptosi(acc * 65536)
//   out4: the row scale (f32)
module {
  func.func @quant(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %Q16: !tile.desc<128x128xi32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %Q8: !tile.desc<128x128xi32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %Q8H: !tile.desc<128x128xf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %FX: !tile.desc<128x128xi32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %S: !tile.desc<1x128xf32> {tile.shape = affine_map<()[M, N, K] -> (N ceildiv 128, M)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>}
          : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>}
          : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %ab = math.absf %acc : tensor<128x128xf32>
    %amax = tile.reduce max %ab, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>
    %q16max = arith.constant dense<32767.0> : tensor<128xf32>
    %q8max = arith.constant dense<127.0> : tensor<128xf32>
    %s16 = arith.divf %q16max, %amax : tensor<128xf32>
    %s8 = arith.divf %q8max, %amax : tensor<128xf32>
    %s16b = tile.broadcast %s16, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %s8b = tile.broadcast %s8, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>
    %hi16 = arith.constant dense<32767.0> : tensor<128x128xf32>
    %lo16 = arith.constant dense<-32767.0> : tensor<128x128xf32>
    %hi8 = arith.constant dense<127.0> : tensor<128x128xf32>
    %lo8 = arith.constant dense<-127.0> : tensor<128x128xf32>
    %x16 = arith.mulf %acc, %s16b : tensor<128x128xf32>
    %r16 = math.round %x16 : tensor<128x128xf32>
    %c16a = arith.minimumf %r16, %hi16 : tensor<128x128xf32>
    %c16 = arith.maximumf %c16a, %lo16 : tensor<128x128xf32>
    %i16 = arith.fptosi %c16 : tensor<128x128xf32> to tensor<128x128xi32>
    tile.store %Q16[%m0, %n0], %i16 : !tile.desc<128x128xi32>, tensor<128x128xi32>
    %x8 = arith.mulf %acc, %s8b : tensor<128x128xf32>
    %r8 = math.round %x8 : tensor<128x128xf32>
    %c8a = arith.minimumf %r8, %hi8 : tensor<128x128xf32>
    %c8 = arith.maximumf %c8a, %lo8 : tensor<128x128xf32>
    %i8 = arith.fptosi %c8 : tensor<128x128xf32> to tensor<128x128xi32>
    tile.store %Q8[%m0, %n0], %i8 : !tile.desc<128x128xi32>, tensor<128x128xi32>
    %h8 = arith.truncf %c8 : tensor<128x128xf32> to tensor<128x128xf16>
    tile.store %Q8H[%m0, %n0], %h8 : !tile.desc<128x128xf16>, tensor<128x128xf16>
    %fxs = arith.constant dense<65536.0> : tensor<128x128xf32>
    %fxv = arith.mulf %acc, %fxs : tensor<128x128xf32>
    %fx = arith.fptosi %fxv : tensor<128x128xf32> to tensor<128x128xi32>
    tile.store %FX[%m0, %n0], %fx : !tile.desc<128x128xi32>, tensor<128x128xi32>
    tile.store %S[%pn, %m0], %s8 : !tile.desc<1x128xf32>, tensor<128xf32>
    return
  }
}
