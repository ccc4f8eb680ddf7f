bad/z11_init_nan.mlir:3:3: error: `tile.init` of argument #0 must be finite with LOW < HIGH, got [nan, 1)
