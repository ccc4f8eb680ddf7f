bad/z04_two_sequential_loops.mlir:29:13: error: kernel @gemm has more than one loop to pipeline; only one loop per kernel can be scheduled
bad/z04_two_sequential_loops.mlir:20:12: note: the first one is here
