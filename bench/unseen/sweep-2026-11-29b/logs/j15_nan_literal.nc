error: bad/js/j15_nan_literal.json: invalid JSON: [1:35, byte=35]: Invalid JSON value
