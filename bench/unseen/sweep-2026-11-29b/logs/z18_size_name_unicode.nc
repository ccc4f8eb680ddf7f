bad/z18_size_name_unicode.mlir:3:3: error: 'func.func' op tile.defaults needs an integer default for size "K ü"
