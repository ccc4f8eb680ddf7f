bad/z20_defaults_huge_flops.mlir:3:3: error: the grid is 16777216 CTAs along y at these sizes; CUDA launches 1 to 65535 along y
