bad/z16_shape_mod_size.mlir:6:7: error: tensor argument #2 (1024x0 'f32'): at these sizes an extent is 0; TMA describes 1 to 2^32 elements a dimension
