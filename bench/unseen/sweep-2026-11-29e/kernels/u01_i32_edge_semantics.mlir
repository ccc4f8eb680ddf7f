// i32 outputs whose values come from integer ops at their edges, on a loaded f32 tile X and iota:
//   out0: shli(iota, 33)          (shift past the width: LLVM poison; PTX shl clamps to 0)
//   out1: divsi(iota*7, iota - 3) (a division by zero at column 3)
//   out2: fptosi(X * 1e10)        (out of i32 range: saturates in cvt.rzi; LLVM fptosi: poison)
//   out3: fptoui(X)               (negative inputs: poison in LLVM)
//   out4: fptosi(X / 0)           (inf, -inf, NaN at X = 0)
//   out5: shrsi(iota - 64, 40)    (arithmetic shift past the width)
module {
  func.func @edges(
      %X: !tile.desc<128x64xf32> {tile.shape = affine_map<()[M] -> (M, 64)>},
      %O0: !tile.desc<128x64xi32> {tile.shape = affine_map<()[M] -> (M, 64)>},
      %O1: !tile.desc<128x64xi32> {tile.shape = affine_map<()[M] -> (M, 64)>},
      %O2: !tile.desc<128x64xi32> {tile.shape = affine_map<()[M] -> (M, 64)>},
      %O3: !tile.desc<128x64xi32> {tile.shape = affine_map<()[M] -> (M, 64)>},
      %O4: !tile.desc<128x64xi32> {tile.shape = affine_map<()[M] -> (M, 64)>},
      %O5: !tile.desc<128x64xi32> {tile.shape = affine_map<()[M] -> (M, 64)>},
      %M: index {tile.size = "M"})
      attributes {tile.kernel, tile.grid = affine_map<()[M] -> (M ceildiv 1024)>,
                  tile.defaults = {M = 4096 : i64}, tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %pid = tile.program_id 0 : index
    %lo = arith.muli %pid, %c1024 : index
    %hi = arith.addi %lo, %c1024 : index
    %s33 = arith.constant dense<33> : tensor<128x64xi32>
    %s40 = arith.constant dense<40> : tensor<128x64xi32>
    %i3 = arith.constant dense<3> : tensor<128x64xi32>
    %i7 = arith.constant dense<7> : tensor<128x64xi32>
    %i64 = arith.constant dense<64> : tensor<128x64xi32>
    %e10 = arith.constant dense<1.0e10> : tensor<128x64xf32>
    %zf = arith.constant dense<0.0> : tensor<128x64xf32>
    scf.for %i = %lo to %hi step %c128 {
      %x = tile.load %X[%i, %c0] : !tile.desc<128x64xf32> -> tensor<128x64xf32>
      %io = tile.iota %c0, dim = 1 : tensor<128x64xi32>
      %a0 = arith.shli %io, %s33 : tensor<128x64xi32>
      tile.store %O0[%i, %c0], %a0 : !tile.desc<128x64xi32>, tensor<128x64xi32>
      %n = arith.muli %io, %i7 : tensor<128x64xi32>
      %dd = arith.subi %io, %i3 : tensor<128x64xi32>
      %a1 = arith.divsi %n, %dd : tensor<128x64xi32>
      tile.store %O1[%i, %c0], %a1 : !tile.desc<128x64xi32>, tensor<128x64xi32>
      %xb = arith.mulf %x, %e10 : tensor<128x64xf32>
      %a2 = arith.fptosi %xb : tensor<128x64xf32> to tensor<128x64xi32>
      tile.store %O2[%i, %c0], %a2 : !tile.desc<128x64xi32>, tensor<128x64xi32>
      %a3 = arith.fptoui %x : tensor<128x64xf32> to tensor<128x64xi32>
      tile.store %O3[%i, %c0], %a3 : !tile.desc<128x64xi32>, tensor<128x64xi32>
      %xz = arith.divf %x, %zf : tensor<128x64xf32>
      %a4 = arith.fptosi %xz : tensor<128x64xf32> to tensor<128x64xi32>
      tile.store %O4[%i, %c0], %a4 : !tile.desc<128x64xi32>, tensor<128x64xi32>
      %sh = arith.subi %io, %i64 : tensor<128x64xi32>
      %a5 = arith.shrsi %sh, %s40 : tensor<128x64xi32>
      tile.store %O5[%i, %c0], %a5 : !tile.desc<128x64xi32>, tensor<128x64xi32>
    }
    return
  }
}
