error: bad/js/j08b_registers_neg.json: "registers"[0] = -8 is out of range 0..256 (0: the default share)
