// RUN: stagecraft-opt %s -split-input-file -tile-verify-schedule -verify-diagnostics -o /dev/null

func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 128 : i64}} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%i, %c0] {tile.sched = #tile.sched<"load", stage = 0, order = 0, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    // expected-error @+1 {{illegal schedule (cross-group-register): mma (warp group 1) uses the 64x64xf32 result from post (warp group 0)}}
    %d = tile.dot %a, %a, %acc {transpose_b, tile.sched = #tile.sched<"mma", stage = 1, order = 1, group = 1>} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    // expected-error @+2 {{illegal schedule (groups): post is in group 0 but mma in group 1: the loop's math (every unit but loads) runs in one group}}
    // expected-error @+1 {{illegal schedule (cross-group-register): post (warp group 0) uses the 64x64xf32 result from mma (warp group 1): only tiles loaded to shared memory by TMA can pass between warp groups}}
    %e = arith.addf %d, %d {tile.sched = #tile.sched<"post", stage = 1, order = 2, group = 0>} : tensor<64x64xf32>
    scf.yield %e : tensor<64x64xf32>
  }
  return
}

// -----

func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 128 : i64}} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %A[%i, %c0] {tile.sched = #tile.sched<"load", stage = 0, order = 0, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    // expected-error @+1 {{illegal schedule (loop-carried-late): mma (stage 1) uses the 64x64xf32 result that post (stage 0) produced in the previous iteration}}
    %d = tile.dot %a, %a, %acc {transpose_b, tile.sched = #tile.sched<"mma", stage = 1, order = 1, group = 0>} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    // expected-error @+1 {{illegal schedule (same-iteration-stage): post (stage 0) uses the 64x64xf32 result from mma (stage 1) in the same iteration}}
    %e = arith.addf %d, %d {tile.sched = #tile.sched<"post", stage = 0, order = 2, group = 0>} : tensor<64x64xf32>
    scf.yield %e : tensor<64x64xf32>
  }
  return
}

// -----

// expected-error @+1 {{kernel @k has no loop to pipeline}}
func.func @k() attributes {tile.kernel, tile.grid = affine_map<() -> (1)>} { return }

// -----

func.func @k(%A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[N] -> (N, N)>},
             %N: index {tile.size = "N"})
    attributes {tile.kernel, tile.grid = affine_map<()[N] -> (1)>,
                tile.defaults = {N = 128 : i64}} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %N step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    // expected-note @+1 {{the first op named "x" is here}}
    %a = tile.load %A[%i, %c0] {tile.sched = #tile.sched<"x", stage = 0, order = 0, group = 0>} : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    // expected-error @+1 {{ops named "x" disagree on their schedule}}
    %d = tile.dot %a, %a, %acc {transpose_b, tile.sched = #tile.sched<"x", stage = 1, order = 1, group = 0>} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return
}
