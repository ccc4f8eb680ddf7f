n01_rowtile_loop_over_ncols.mlir:6:3: error: size M = 4294967296 is out of range (1 to 2^31-1)
