bad/z14_program_id_neg.mlir:16:11: error: 'tile.program_id' along dimension -1 of a grid of 2 dimensions (tile.grid): it would always be 0; add the dimension to tile.grid or use one the grid has
