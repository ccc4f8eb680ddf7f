bad/z15_dot_f16_acc.mlir:25:12: error: 'tile.dot' op accumulator must be f32, got 'f16'
