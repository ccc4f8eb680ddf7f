#include "tensormap.h"

namespace stagecraft::profiler {

namespace {

int64_t swizzleSpanBytes(Swizzle s) {
  switch (s) {
  case Swizzle::None: return 0;
  case Swizzle::B32: return 32;
  case Swizzle::B64: return 64;
  case Swizzle::B128: return 128;
  }
  return 0;
}

const char *swizzleName(Swizzle s) {
  switch (s) {
  case Swizzle::None: return "none";
  case Swizzle::B32: return "32B";
  case Swizzle::B64: return "64B";
  case Swizzle::B128: return "128B";
  }
  return "?";
}

std::string idx(const std::string &path, const char *field, size_t i) {
  return path + "." + field + "[" + std::to_string(i) + "]";
}

}  // namespace

int64_t tensorMapExtentBytes(const TensorMapSpec &spec) {
  int64_t last = 0;
  for (size_t i = 0; i < spec.globalShape.size(); ++i)
    last += (spec.globalShape[i] - 1) * spec.globalStridesBytes[i];
  return last + int64_t(dtypeSize(spec.dtype));
}

std::string validateTensorMap(const TensorMapSpec &spec, const TensorSpec &tensor,
                              const std::string &path) {
  const size_t rank = spec.globalShape.size();
  const int64_t elem = int64_t(dtypeSize(spec.dtype));
  if (rank < 1 || rank > size_t(kTensorMapMaxRank))
    return path + ".global_shape: rank " + std::to_string(rank) + " is outside 1.." +
           std::to_string(kTensorMapMaxRank);
  if (spec.globalStridesBytes.size() != rank)
    return path + ".global_strides_bytes: has " + std::to_string(spec.globalStridesBytes.size()) +
           " entries, global_shape has " + std::to_string(rank);
  if (spec.box.size() != rank)
    return path + ".box: has " + std::to_string(spec.box.size()) + " entries, global_shape has " +
           std::to_string(rank);
  if (spec.elementStrides.size() != rank)
    return path + ".element_strides: has " + std::to_string(spec.elementStrides.size()) +
           " entries, global_shape has " + std::to_string(rank);
  if (dtypeSize(spec.dtype) != dtypeSize(tensor.dtype) || spec.dtype != tensor.dtype)
    return path + ".dtype: " + dtypeName(spec.dtype) + " does not match tensor \"" + tensor.name +
           "\" of dtype " + dtypeName(tensor.dtype);
  if (spec.dtype == DType::I64)
    return path + ".dtype: i64 tensor maps are not supported";

  for (size_t i = 0; i < rank; ++i) {
    int64_t d = spec.globalShape[i];
    if (d < 1 || d > kTensorMapMaxDim)
      return idx(path, "global_shape", i) + ": " + std::to_string(d) + " is outside 1..2^32";
  }
  // Innermost stride: the element size (the driver has no field for it: elements are dense).
  if (spec.globalStridesBytes[rank - 1] != elem)
    return idx(path, "global_strides_bytes", rank - 1) + ": " +
           std::to_string(spec.globalStridesBytes[rank - 1]) +
           " must equal the element size (" + std::to_string(elem) + " bytes)";
  for (size_t i = 0; i + 1 < rank; ++i) {
    int64_t s = spec.globalStridesBytes[i];
    if (s <= 0 || s % kTensorMapStrideAlign != 0 || s >= kTensorMapMaxStride)
      return idx(path, "global_strides_bytes", i) + ": " + std::to_string(s) +
             " must be a positive multiple of 16 below 2^40";
  }
  for (size_t i = 0; i < rank; ++i) {
    int64_t b = spec.box[i];
    if (b < 1 || b > kTensorMapMaxBoxDim)
      return idx(path, "box", i) + ": " + std::to_string(b) + " is outside 1..256";
    int64_t e = spec.elementStrides[i];
    if (e < 1 || e > kTensorMapMaxElementStride)
      return idx(path, "element_strides", i) + ": " + std::to_string(e) + " is outside 1..8";
  }
  // The box's inner row must be whole 16-byte units, and with a swizzle it must fit the swizzle
  // span (the driver rejects both; TMA moves 16-byte granules).
  int64_t innerBytes = spec.box[rank - 1] * elem;
  if (innerBytes % 16 != 0)
    return idx(path, "box", rank - 1) + ": inner box of " + std::to_string(innerBytes) +
           " bytes is not a multiple of 16 bytes";
  int64_t span = swizzleSpanBytes(spec.swizzle);
  if (span != 0 && innerBytes > span)
    return path + ".swizzle: " + swizzleName(spec.swizzle) + " needs the inner box to be at most " +
           std::to_string(span) + " bytes, it is " + std::to_string(innerBytes) + " (box[" +
           std::to_string(rank - 1) + "] = " + std::to_string(spec.box[rank - 1]) + " x " +
           std::to_string(elem) + " bytes)";
  if (spec.oobFill == OobFill::NaN && !dtypeIsFloat(spec.dtype))
    return path + ".oob_fill: \"nan\" needs a bf16, f16 or f32 dtype, got " + dtypeName(spec.dtype);

  // The view must stay inside the tensor's allocation: TMA does not bounds-check the strides,
  // only the view's own dimensions.
  int64_t extent = tensorMapExtentBytes(spec);
  if (extent > tensor.byteSize())
    return path + ": the view (global_shape with global_strides_bytes) reaches byte " +
           std::to_string(extent) + ", past the end of tensor \"" + tensor.name + "\" (" +
           std::to_string(tensor.byteSize()) + " bytes)";
  return "";
}

TensorMapArgs deriveTensorMapArgs(const TensorMapSpec &spec) {
  TensorMapArgs a;
  switch (spec.dtype) {
  case DType::BF16: a.dataType = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; break;
  case DType::F16: a.dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; break;
  case DType::F32: a.dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; break;
  case DType::I32: a.dataType = CU_TENSOR_MAP_DATA_TYPE_INT32; break;
  case DType::I64: a.dataType = CU_TENSOR_MAP_DATA_TYPE_INT64; break;
  // TMA moves bytes: FP8 and e8m0 tiles are UINT8 tensor maps (the swizzle and boxes are in
  // bytes either way; only the OOB NaN fill needs a float type, and it is refused above).
  case DType::E4M3:
  case DType::E5M2:
  case DType::E8M0: a.dataType = CU_TENSOR_MAP_DATA_TYPE_UINT8; break;
  }
  const size_t rank = spec.globalShape.size();
  a.rank = cuuint32_t(rank);
  // Reverse: manifest index i (outermost first) is driver index rank-1-i (innermost first).
  for (size_t i = 0; i < rank; ++i) {
    size_t d = rank - 1 - i;
    a.globalDim[d] = cuuint64_t(spec.globalShape[i]);
    a.boxDim[d] = cuuint32_t(spec.box[i]);
    a.elementStrides[d] = cuuint32_t(spec.elementStrides[i]);
    // The driver's stride array starts at dimension 1 (the innermost stride is implied).
    if (d >= 1) a.globalStrides[d - 1] = cuuint64_t(spec.globalStridesBytes[i]);
  }
  switch (spec.swizzle) {
  case Swizzle::None: a.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE; break;
  case Swizzle::B32: a.swizzle = CU_TENSOR_MAP_SWIZZLE_32B; break;
  case Swizzle::B64: a.swizzle = CU_TENSOR_MAP_SWIZZLE_64B; break;
  case Swizzle::B128: a.swizzle = CU_TENSOR_MAP_SWIZZLE_128B; break;
  }
  switch (spec.l2Promotion) {
  case L2Promotion::None: a.l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE; break;
  case L2Promotion::B64: a.l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_64B; break;
  case L2Promotion::B128: a.l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_128B; break;
  case L2Promotion::B256: a.l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B; break;
  }
  a.oobFill = spec.oobFill == OobFill::NaN ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                           : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  return a;
}

}  // namespace stagecraft::profiler
