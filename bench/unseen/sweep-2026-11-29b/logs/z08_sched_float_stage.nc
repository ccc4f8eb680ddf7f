bad/z08_sched_float_stage.mlir:21:77: error: expected integer value
bad/z08_sched_float_stage.mlir:21:77: error: failed to parse Tile_ScheduleAttr parameter 'stage' which is to be a `int64_t`
