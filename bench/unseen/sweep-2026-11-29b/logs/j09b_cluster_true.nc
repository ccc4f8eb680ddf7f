error: bad/js/j09b_cluster_true.json: "cluster" must be 1, 2 or 4 (CTAs per thread-block cluster along grid dimension 0)
