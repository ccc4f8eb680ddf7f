bad/z01_unicode_kernel_name.mlir:3:3: error: a kernel's name must be a PTX identifier: letters, digits, '_' or '$', not starting with a digit; got @"gémm_κ"
