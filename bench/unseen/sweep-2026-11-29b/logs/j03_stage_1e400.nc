error: bad/js/j03_stage_1e400.json: ops[0] ("MMA"): "stage" must be an integer
