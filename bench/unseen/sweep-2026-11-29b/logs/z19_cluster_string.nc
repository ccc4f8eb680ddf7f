bad/z19_cluster_string.mlir:3:3: error: `tile.cluster` must be 1, 2 or 4 (CTAs per cluster along grid dimension 0), as an integer: `tile.cluster = 2`
