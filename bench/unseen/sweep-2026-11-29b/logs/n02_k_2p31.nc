n02_4d_batch_head_grid3d.mlir:4:3: error: size K = 2147483712 is out of range (1 to 2^31-1)
