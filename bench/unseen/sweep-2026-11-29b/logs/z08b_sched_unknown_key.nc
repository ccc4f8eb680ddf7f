bad/z08b_sched_unknown_key.mlir:21:102: error: expected 'wait'
