bad/z09b_grid_int.mlir:3:3: error: 'func.func' op tile kernel needs a `tile.grid` affine map
