bad/z10_grid_zero_at_sizes.mlir:3:3: error: the grid is 0 CTAs along x at these sizes; CUDA launches 1 to 2147483647 along x
