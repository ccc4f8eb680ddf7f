// The pipelined loop's accumulator starts from a tile loaded before the loop (C += A B^T).
// It crashed stagecraft-compile (ConsumerEmitter::emitKernelLoop); read into registers now.
module {
  func.func @k(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %Cin: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel, tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 128)>,
                  tile.defaults = {M = 1024 : i64, N = 1024 : i64, K = 1024 : i64}} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index
    %cin = tile.load %Cin[%m0, %n0] : !tile.desc<128x128xf32> -> tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %cin) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %b = tile.load %B[%n0, %k] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %d = tile.dot %a, %b, %c {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    tile.store %C[%m0, %n0], %acc : !tile.desc<128x128xf32>, tensor<128x128xf32>
    return
  }
}
