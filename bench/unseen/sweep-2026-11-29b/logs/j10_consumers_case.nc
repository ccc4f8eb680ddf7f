error: bad/js/j10_consumers_case.json: "consumers" must be "cooperative", "pingpong" or "staggered"
