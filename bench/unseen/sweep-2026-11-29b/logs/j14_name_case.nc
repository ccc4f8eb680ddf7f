bad/base.mlir:20:12: error: illegal schedule (unknown-unit): the schedule names "mma", but the loop has no op with that name (it has: loadA, loadB, MMA) (schedule: bad/js/j14_name_case.json)
