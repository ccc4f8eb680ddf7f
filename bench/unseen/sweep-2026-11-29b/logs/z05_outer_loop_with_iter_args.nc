bad/z05_outer_loop_with_iter_args.mlir:22:12: error: tile-lower-to-nvvm: the tile loop of a persistent kernel carries nothing from one tile to the next (no iter_args)
