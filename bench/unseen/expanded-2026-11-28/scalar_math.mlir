// Scalar math expanded (Normalize.cpp) or through the element-wise table (ScalarLowering.cpp):
// a per-program factor from the program id, clamped, raised to the program id's power,
// sin + cos of it, plus popcount(pid); the 64x64 product of each row block scaled by it.
func.func @sc(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, 256)>},
              %C: !tile.desc<64x64xf32> {tile.shape = affine_map<()[N] -> (N, 64)>},
              %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (N ceildiv 64)>,
                tile.defaults = {N = 256 : i64}, tile.warpgroups = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %pid = tile.program_id 0 : index
  %m0 = arith.muli %pid, %c64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%m0, %k] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %pi = arith.index_cast %pid : index to i32
  %pf = arith.sitofp %pi : i32 to f32
  %lo = arith.constant 0.5 : f32
  %hi = arith.constant 2.0 : f32
  %cl = math.clampf %pf to [%lo, %hi] : f32
  %p3 = math.fpowi %cl, %pi : f32, i32
  %s, %c = math.sincos %p3 : f32
  %pop = math.ctpop %pi : i32
  %ab = math.absi %pop : i32
  %abf = arith.sitofp %ab : i32 to f32
  %t0 = arith.addf %s, %c : f32
  %t = arith.addf %t0, %abf : f32
  %sp = tensor.splat %t : tensor<64x64xf32>
  %o = arith.mulf %r, %sp : tensor<64x64xf32>
  tile.store %C[%m0, %c0], %o : !tile.desc<64x64xf32>, tensor<64x64xf32>
  return
}
