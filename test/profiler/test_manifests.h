// Manifest texts shared by the tests.
#pragma once

#include <string>

namespace stagecraft::profiler::testing {

// The example from docs/bundle-format.md: a valid 8192^3 TMA GEMM manifest.
inline std::string gemmManifest() {
  return R"({
  "format": "stagecraft-bundle",
  "version": 1,
  "kernel": "gemm_kernel",
  "grid": [64, 64, 1],
  "block": [384, 1, 1],
  "dynamic_smem_bytes": 197632,
  "flops": 1099511627776,
  "problem": {"kind": "gemm", "M": 8192, "N": 8192, "K": 8192},
  "tensors": [
    {"name": "A", "dtype": "bf16", "shape": [8192, 8192], "role": "input",
     "init": {"kind": "uniform", "low": -1.0, "high": 1.0, "seed": 1}},
    {"name": "B", "dtype": "bf16", "shape": [8192, 8192], "role": "input",
     "init": {"kind": "uniform", "low": -1.0, "high": 1.0, "seed": 2}},
    {"name": "C", "dtype": "bf16", "shape": [8192, 8192], "role": "output"}
  ],
  "params": [
    {"kind": "tensormap", "tensor": "A", "dtype": "bf16",
     "global_shape": [8192, 8192], "global_strides_bytes": [16384, 2],
     "box": [128, 64], "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero"},
    {"kind": "tensormap", "tensor": "B", "dtype": "bf16",
     "global_shape": [8192, 8192], "global_strides_bytes": [16384, 2],
     "box": [128, 64], "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero"},
    {"kind": "pointer", "tensor": "C"},
    {"kind": "scalar", "dtype": "i32", "value": 8192},
    {"kind": "scalar", "dtype": "i32", "value": 8192},
    {"kind": "scalar", "dtype": "i32", "value": 8192}
  ],
  "reference": {"kind": "gemm", "a": "A", "b": "B", "c": "C", "transpose_b": true,
                "M": 8192, "N": 8192, "K": 8192}
})";
}

// Replaces the first occurrence of `from` (which must exist) with `to`.
inline std::string replaced(std::string text, const std::string &from, const std::string &to) {
  size_t at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("test bug: \"" + from + "\" not in the text");
  return text.replace(at, from.size(), to);
}

}  // namespace stagecraft::profiler::testing
