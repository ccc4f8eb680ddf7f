bad/z09d_shape_with_dims.mlir:3:3: error: 'func.func' op tile.shape of argument #0 must be an affine map over the 3 kernel sizes as symbols, like affine_map<()[...] -> (...)>
