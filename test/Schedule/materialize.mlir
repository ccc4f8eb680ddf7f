// RUN: stagecraft-opt %s -tile-materialize-schedule | FileCheck %s
// RUN: stagecraft-opt %s -tile-verify-schedule -verify-diagnostics -o /dev/null

// An unscheduled loop gets the defaults: loads in stage 0, the rest in the
// last stage (1 here), program order, warp group 0.
func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 128 : i64}} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-remark @+1 {{steady state: load_0(i+1) dot_0(i)}}
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    // CHECK: tile.load {{.*}}#tile.sched<"load_0", stage = 0, order = 0, group = 0>
    %a = tile.load %A[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    // CHECK: tile.dot {{.*}}#tile.sched<"dot_0", stage = 1, order = 1, group = 0>
    %d = tile.dot %a, %a, %acc {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return
}
