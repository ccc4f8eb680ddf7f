bad/z17_two_kernels.mlir:2:1: error: expected exactly one tile kernel (func.func with `tile.kernel`), found 2 (@gemm, @gemm2); name one (--kernel NAME in the tools, kernel=NAME as a pass option)
