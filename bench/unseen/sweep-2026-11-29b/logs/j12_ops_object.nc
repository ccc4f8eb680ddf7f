error: bad/js/j12_ops_object.json: missing "ops" array
