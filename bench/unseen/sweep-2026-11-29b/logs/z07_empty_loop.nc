bad/z07_empty_loop.mlir:3:3: error: kernel @gemm has no loop to pipeline: no scf.for body holds a tile.load or an op with a tile.sched attribute
