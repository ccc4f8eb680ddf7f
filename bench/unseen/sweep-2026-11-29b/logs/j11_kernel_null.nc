error: bad/js/j11_kernel_null.json: "kernel" must be a string
