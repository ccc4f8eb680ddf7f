bad/z08c_sched_huge_order.mlir:21:88: error: integer value too large
bad/z08c_sched_huge_order.mlir:21:108: error: failed to parse Tile_ScheduleAttr parameter 'order' which is to be a `int64_t`
