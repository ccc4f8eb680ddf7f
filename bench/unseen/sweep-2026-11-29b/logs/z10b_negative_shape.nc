bad/z10b_negative_shape.mlir:6:7: error: tensor argument #2 (-1024x1024 'f32'): at these sizes an extent is -1024; TMA describes 1 to 2^32 elements a dimension
