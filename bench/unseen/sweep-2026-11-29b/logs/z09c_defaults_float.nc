bad/z09c_defaults_float.mlir:3:3: error: 'func.func' op tile.defaults needs an integer default for size "K"
