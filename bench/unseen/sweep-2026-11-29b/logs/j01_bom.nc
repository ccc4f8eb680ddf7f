error: bad/js/j01_bom.json: invalid JSON: [1:1, byte=1]: Invalid JSON value
