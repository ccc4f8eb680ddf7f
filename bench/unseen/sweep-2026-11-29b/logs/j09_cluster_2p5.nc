error: bad/js/j09_cluster_2p5.json: "cluster" must be 1, 2 or 4 (CTAs per thread-block cluster along grid dimension 0)
