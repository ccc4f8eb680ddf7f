bad/base.mlir:20:12: error: illegal schedule (unknown-unit): the schedule names "   ", but the loop has no op with that name (it has: loadA, loadB, MMA) (schedule: bad/js/j07_name_spaces.json)
