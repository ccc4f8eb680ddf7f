error: bad/js/j21_stage_bool.json: ops[0] ("MMA"): "stage" must be an integer
