n02_4d_batch_head_grid3d.mlir:4:3: error: the grid is 70000 CTAs along y at these sizes; CUDA launches 1 to 65535 along y
