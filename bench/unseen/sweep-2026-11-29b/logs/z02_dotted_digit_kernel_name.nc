bad/z02_dotted_digit_kernel_name.mlir:3:3: error: a kernel's name must be a PTX identifier: letters, digits, '_' or '$', not starting with a digit; got @"1gemm.v2"
