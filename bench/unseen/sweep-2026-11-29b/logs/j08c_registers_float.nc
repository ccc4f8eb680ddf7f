error: bad/js/j08c_registers_float.json: "registers"[1] must be an integer
