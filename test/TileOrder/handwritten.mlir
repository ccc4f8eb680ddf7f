// A persistent kernel written otherwise than the assets: 64x128 tiles of an
// f32 output, column-major as written, its own names, the tile size before
// the coordinate, tile counts written as (size + tile - 1) / tile.
// RUN: stagecraft-opt %s -tile-set-tile-order=order=row-major | FileCheck %s --check-prefix=ROW
// RUN: stagecraft-opt %s -tile-set-tile-order="order=grouped group=3" | FileCheck %s --check-prefix=G3
// RUN: stagecraft-opt %s -tile-set-tile-order="order=grouped group=1" | FileCheck %s --check-prefix=ROW

module {
  func.func @pgemm_cm(
      %A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<64x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel, tile.grid = affine_map<()[M, N, K] -> (100)>,
                  tile.defaults = {M = 4096 : i64, N = 2048 : i64, K = 1024 : i64},
                  tile.warpgroups = array<i64: 1, 1>} {
    %c0 = arith.constant 0 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %first = tile.program_id 0 : index
    %stride = tile.num_programs 0 : index
    %mp = arith.addi %M, %c63 : index
    %nrows = arith.divui %mp, %c64 : index
    %np = arith.addi %N, %c127 : index
    %ncols = arith.divui %np, %c128 : index
    %count = arith.muli %ncols, %nrows : index
    %zero = arith.constant dense<0.0> : tensor<64x128xf32>
    scf.for %tile = %first to %count step %stride {
      %row = arith.remui %tile, %nrows : index
      %col = arith.divui %tile, %nrows : index
      %y = arith.muli %c64, %row : index
      %x = arith.muli %col, %c128 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%a = %zero) -> (tensor<64x128xf32>) {
        %ta = tile.load %A[%y, %k] {tile.sched = #tile.sched<"LA", stage = 0, order = 1, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
        %tb = tile.load %B[%x, %k] {tile.sched = #tile.sched<"LB", stage = 0, order = 2, group = 0>} : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %d = tile.dot %ta, %tb, %a {transpose_b, tile.sched = #tile.sched<"D", stage = 1, order = 0, group = 1>} : tensor<64x64xbf16>, tensor<128x64xbf16> -> tensor<64x128xf32>
        scf.yield %d : tensor<64x128xf32>
      }
      tile.store %C[%y, %x], %acc : !tile.desc<64x128xf32>, tensor<64x128xf32>
    }
    return
  }
}

// The counts are the kernel's own (M + 63) / 64 and (N + 127) / 128.
// ROW:      %[[ROWS:[0-9]+]] = arith.divui %{{[0-9]+}}, %c64 : index
// ROW:      %[[COLS:[0-9]+]] = arith.divui %{{[0-9]+}}, %c128 : index
// ROW:      scf.for %[[T:arg[0-9]+]] = %0 to %{{[0-9]+}} step %1 {
// ROW-NEXT:   %[[X:[0-9]+]] = arith.remui %[[T]], %[[COLS]] : index
// ROW-NEXT:   %[[Y:[0-9]+]] = arith.divui %[[T]], %[[COLS]] : index
// ROW-NEXT:   %[[Y0:[0-9]+]] = arith.muli %c64, %[[Y]] : index
// ROW-NEXT:   %[[X0:[0-9]+]] = arith.muli %[[X]], %c128 : index
// ROW-NOT:    arith.remui
// ROW:        tile.store %arg2[%[[Y0]], %[[X0]]]

// G3:      %[[ROWS:[0-9]+]] = arith.divui %{{[0-9]+}}, %c64 : index
// G3:      %[[COLS:[0-9]+]] = arith.divui %{{[0-9]+}}, %c128 : index
// G3:      %[[G:c3]] = arith.constant 3 : index
// G3-NEXT: %[[IN:[0-9]+]] = arith.muli %[[G]], %[[COLS]] : index
// G3-NEXT: scf.for %[[T:arg[0-9]+]] = %0 to %{{[0-9]+}} step %1 {
// G3-NEXT:   %[[GROUP:[0-9]+]] = arith.divui %[[T]], %[[IN]] : index
// G3-NEXT:   %[[FIRST:[0-9]+]] = arith.muli %[[GROUP]], %[[G]] : index
// G3-NEXT:   %[[LEFT:[0-9]+]] = arith.subi %[[ROWS]], %[[FIRST]] : index
// G3-NEXT:   %[[GR:[0-9]+]] = arith.minui %[[LEFT]], %[[G]] : index
// G3-NEXT:   %[[W:[0-9]+]] = arith.remui %[[T]], %[[IN]] : index
// G3-NEXT:   %[[DM:[0-9]+]] = arith.remui %[[W]], %[[GR]] : index
// G3-NEXT:   %[[Y:[0-9]+]] = arith.addi %[[FIRST]], %[[DM]] : index
// G3-NEXT:   %[[X:[0-9]+]] = arith.divui %[[W]], %[[GR]] : index
// G3-NEXT:   arith.muli %c64, %[[Y]] : index
// G3-NEXT:   arith.muli %[[X]], %c128 : index
