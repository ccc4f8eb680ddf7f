// Two levels of indirection (refused): the table's own row picked by another
// table. From gathered-residual.mlir.
// A residual whose row block is picked by a table: R's rows start at
// (IDX[pid] + pid) * 128, IDX a 32-element i32 tile loaded whole (at
// coordinate 0: TMA starts copies at 16-byte units). R's coordinates read
// IDX: loaded after IDX has landed, at the start (a second round of the
// resident barrier) or after the loop (where the rings were).
// test/Lowering/epilogue-loads.mlir; from bench/unseen/sweep-2026-11-28d x02.
module {
  func.func @gathered_twice(
      %A: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<256x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %IDX: !tile.desc<32xi32> {tile.shape = affine_map<()[M, N, K] -> (M ceildiv 128)>},
      %T0: !tile.desc<4xi32> {tile.shape = affine_map<()[M, N, K] -> (4)>},
      %R: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %C: !tile.desc<128x256xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv 128, N ceildiv 256)>,
                  tile.defaults = {M = 4096 : i64, N = 4096 : i64, K = 4096 : i64},
                  tile.warpgroups = array<i64: 1, 2>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x256xf32>) {
        %a = tile.load %A[%m0, %k] {tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %b = tile.load %B[%n0, %k] {tile.sched = #tile.sched<"loadB", stage = 0, order = 2, group = 0>} : !tile.desc<256x64xbf16> -> tensor<256x64xbf16>
        %d = tile.dot %a, %b, %c {transpose_b, tile.sched = #tile.sched<"MMA", stage = 2, order = 0, group = 1, wait = 1>} : tensor<128x64xbf16>, tensor<256x64xbf16> -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      }
      %t0 = tile.load %T0[%c0] : !tile.desc<4xi32> -> tensor<4xi32>
      %t00 = tensor.extract %t0[%c0] : tensor<4xi32>
      %t0x = arith.index_cast %t00 : i32 to index
      %c32 = arith.constant 32 : index
      %ti = arith.muli %t0x, %c32 : index
      %it = tile.load %IDX[%ti] : !tile.desc<32xi32> -> tensor<32xi32>
      %i0 = tensor.extract %it[%pm] : tensor<32xi32>
      %i0x = arith.index_cast %i0 : i32 to index
      %ip = arith.addi %i0x, %pm : index
      %rm = arith.muli %ip, %c128 : index
      %rg = tile.load %R[%rm, %n0] : !tile.desc<128x256xbf16> -> tensor<128x256xbf16>
      %rge = arith.extf %rg : tensor<128x256xbf16> to tensor<128x256xf32>
      %v1 = arith.addf %acc, %rge : tensor<128x256xf32>
      %t2 = arith.truncf %v1 : tensor<128x256xf32> to tensor<128x256xbf16>
      tile.store %C[%m0, %n0], %t2 : !tile.desc<128x256xbf16>, tensor<128x256xbf16>
    return
  }
}
