import sys
def mx(name, M, N, KS, out, warp=None, extra_desc=None):
    ns = KS//32
    wg = warp or (M//64)
    return f'''// mxfp8 GEMM (tile.dot_scaled) with a {M}x{N} tile and a K step of {KS}: {ns} e8m0 scales per row per step,
// stored transposed (SA [K/32, M], SB [K/32, N]) so that each step's scales are a {ns}x{M} / {ns}x{N} box.
module {{
  func.func @{name}(
      %A: !tile.desc<{M}x{KS}xf8E4M3FN> {{tile.shape = affine_map<()[M, N, K] -> (M, K)>}},
      %SA: !tile.desc<{ns}x{M}xf8E8M0FNU> {{tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, M)>}},
      %B: !tile.desc<{N}x{KS}xf8E5M2> {{tile.shape = affine_map<()[M, N, K] -> (N, K)>}},
      %SB: !tile.desc<{ns}x{N}xf8E8M0FNU> {{tile.shape = affine_map<()[M, N, K] -> (K ceildiv 32, N)>}},
      %C: !tile.desc<{M}x{N}x{out}> {{tile.shape = affine_map<()[M, N, K] -> (M, N)>}},
      %M: index {{tile.size = "M"}}, %N: index {{tile.size = "N"}}, %K: index {{tile.size = "K"}})
      attributes {{tile.kernel,
                  tile.grid = affine_map<()[M, N, K] -> (M ceildiv {M}, N ceildiv {N})>,
                  tile.defaults = {{M = 3072 : i64, N = 2048 : i64, K = 4096 : i64}},
                  tile.warpgroups = array<i64: 1, {wg}>}} {{
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cM = arith.constant {M} : index
    %cN = arith.constant {N} : index
    %cK = arith.constant {KS} : index
    %pm = tile.program_id 0 : index
    %pn = tile.program_id 1 : index
    %m0 = arith.muli %pm, %cM : index
    %n0 = arith.muli %pn, %cN : index
    %zero = arith.constant dense<0.0> : tensor<{M}x{N}xf32>
    %acc = scf.for %k = %c0 to %K step %cK iter_args(%c = %zero) -> (tensor<{M}x{N}xf32>) {{
      %ks = arith.divui %k, %c32 : index
      %a = tile.load %A[%m0, %k] {{tile.sched = #tile.sched<"loadA", stage = 0, order = 1, group = 0>}} : !tile.desc<{M}x{KS}xf8E4M3FN> -> tensor<{M}x{KS}xf8E4M3FN>
      %sa = tile.load %SA[%ks, %m0] {{tile.sched = #tile.sched<"loadSA", stage = 0, order = 2, group = 0>}} : !tile.desc<{ns}x{M}xf8E8M0FNU> -> tensor<{ns}x{M}xf8E8M0FNU>
      %b = tile.load %B[%n0, %k] {{tile.sched = #tile.sched<"loadB", stage = 0, order = 3, group = 0>}} : !tile.desc<{N}x{KS}xf8E5M2> -> tensor<{N}x{KS}xf8E5M2>
      %sb = tile.load %SB[%ks, %n0] {{tile.sched = #tile.sched<"loadSB", stage = 0, order = 4, group = 0>}} : !tile.desc<{ns}x{N}xf8E8M0FNU> -> tensor<{ns}x{N}xf8E8M0FNU>
      %d = tile.dot_scaled %a, %sa, %b, %sb, %c {{transpose_b, tile.sched = #tile.sched<"MMA", stage = 1, order = 0, group = 1>}} : tensor<{M}x{KS}xf8E4M3FN>, tensor<{ns}x{M}xf8E8M0FNU>, tensor<{N}x{KS}xf8E5M2>, tensor<{ns}x{N}xf8E8M0FNU> -> tensor<{M}x{N}xf32>
      scf.yield %d : tensor<{M}x{N}xf32>
    }}
    %cb = arith.truncf %acc : tensor<{M}x{N}xf32> to tensor<{M}x{N}x{out}>
    tile.store %C[%m0, %n0], %cb : !tile.desc<{M}x{N}x{out}>, tensor<{M}x{N}x{out}>
    return
  }}
}}
'''
open(sys.argv[1]+'/kernels/x01_mx_192x64_k256_e4m3xe5m2_f16.mlir','w').write(mx('mx192',192,64,256,'f16'))
open(sys.argv[1]+'/bad/x02_mx_128x128_k96.mlir','w').write(mx('mx96',128,128,96,'bf16'))
s=mx('mx32',128,128,32,'bf16')
open(sys.argv[1]+'/bad/x03_mx_128x128_k32_1row_scales.mlir','w').write(s)
