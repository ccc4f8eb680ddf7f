error: bad/js/j08_registers_9.json: "registers" has 9 entries; there are at most 8 schedule groups
