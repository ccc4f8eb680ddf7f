bad/base.mlir:20:12: error: illegal schedule (unknown-unit): the schedule names "MMA�", but the loop has no op with that name (it has: loadA, loadB, MMA) (schedule: bad/js/j06_lone_surrogate.json)
