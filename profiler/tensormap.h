// From a manifest tensor-map spec to the arguments of cuTensorMapEncodeTiled.
//
// The manifest writes dimensions outermost first (like a C array declaration); the driver wants
// them innermost first and leaves out the innermost stride (always the element size). Keeping
// this translation and the driver's limits in pure C++ lets tests check them without a GPU; the
// encode call itself is in launch.cpp.
#pragma once

#include "manifest.h"

#include <cuda.h>  // enums and CUtensorMap only; nothing here calls the driver

#include <string>

namespace stagecraft::profiler {

struct TensorMapArgs {
  CUtensorMapDataType dataType = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  cuuint32_t rank = 0;
  cuuint64_t globalDim[5] = {};      // innermost first
  cuuint64_t globalStrides[4] = {};  // bytes, for dims 1..rank-1 (innermost first)
  cuuint32_t boxDim[5] = {};         // innermost first
  cuuint32_t elementStrides[5] = {}; // innermost first
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

// The driver's limits for tiled tensor maps (CUDA driver API docs, cuTensorMapEncodeTiled).
constexpr int kTensorMapMaxRank = 5;
constexpr int64_t kTensorMapMaxBoxDim = 256;
constexpr int64_t kTensorMapMaxElementStride = 8;
constexpr int64_t kTensorMapStrideAlign = 16;
constexpr int64_t kTensorMapMaxStride = int64_t(1) << 40;
constexpr int64_t kTensorMapMaxDim = int64_t(1) << 32;

// Checks a spec against the driver's limits and against the tensor it views. Returns "" when
// fine, else a message whose field names are relative to `path` (e.g. "params[0].box[1]: ...").
std::string validateTensorMap(const TensorMapSpec &spec, const TensorSpec &tensor,
                              const std::string &path);

// Bytes of the smallest allocation that the view can touch: the offset of its last element plus
// one element.
int64_t tensorMapExtentBytes(const TensorMapSpec &spec);

// The driver arguments for a validated spec.
TensorMapArgs deriveTensorMapArgs(const TensorMapSpec &spec);

}  // namespace stagecraft::profiler
