bad/base.mlir:21:12: error: illegal schedule (wait-on-non-dot): loadA has wait = 1, but a wait depth applies to dots (wgmma) only (schedule: bad/js/j17_wait_on_load_json.json)
