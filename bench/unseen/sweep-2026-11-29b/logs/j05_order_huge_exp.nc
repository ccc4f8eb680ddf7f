error: bad/js/j05_order_huge_exp.json: ops[0] ("MMA"): "order" = 1000000000000000000 is out of range 0..1048576
