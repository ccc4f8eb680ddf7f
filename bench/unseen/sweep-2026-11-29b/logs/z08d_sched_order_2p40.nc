bad/z08d_sched_order_2p40.mlir:21:59: error: schedule order must be 0 to 1048576, got 1099511627776
