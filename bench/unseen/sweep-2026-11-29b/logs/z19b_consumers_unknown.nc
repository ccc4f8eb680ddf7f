bad/z19b_consumers_unknown.mlir:3:3: error: `tile.consumers` must be "cooperative", "pingpong" or "staggered"
