bad/z18b_size_name_empty.mlir:3:3: error: 'func.func' op kernel argument #5 (index) needs a `tile.size = "NAME"` attribute
