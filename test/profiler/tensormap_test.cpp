#include "tensormap.h"

#include "test_manifests.h"

#include <gtest/gtest.h>

using namespace stagecraft::profiler;

namespace {

TEST(TensorMap, DerivesReversedDimsAndStrides) {
  Manifest m = parseManifest(stagecraft::profiler::testing::gemmManifest());
  TensorMapArgs a = deriveTensorMapArgs(m.params[0].tensorMap);
  EXPECT_EQ(a.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(a.rank, 2u);
  EXPECT_EQ(a.globalDim[0], 8192u);
  EXPECT_EQ(a.globalDim[1], 8192u);
  EXPECT_EQ(a.globalStrides[0], 16384u);  // the row stride; the element stride is implied
  EXPECT_EQ(a.boxDim[0], 64u);            // innermost first: the manifest's box[1]
  EXPECT_EQ(a.boxDim[1], 128u);
  EXPECT_EQ(a.elementStrides[0], 1u);
  EXPECT_EQ(a.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(a.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(a.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  EXPECT_EQ(a.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
}

TEST(TensorMap, ThreeDimensionalViewOfAFourDimensionalTensor) {
  // A [B*H, S, D] view of a [2, 3, 100, 64] f16 tensor.
  TensorSpec t{"Q", DType::F16, {2, 3, 100, 64}, TensorRole::Input, {}};
  TensorMapSpec s;
  s.tensor = "Q";
  s.dtype = DType::F16;
  s.globalShape = {6, 100, 64};
  s.globalStridesBytes = {100 * 64 * 2, 64 * 2, 2};
  s.box = {1, 64, 64};
  s.elementStrides = {1, 1, 2};
  s.swizzle = Swizzle::B128;
  s.l2Promotion = L2Promotion::None;
  s.oobFill = OobFill::NaN;
  EXPECT_EQ(validateTensorMap(s, t, "p"), "");
  EXPECT_EQ(tensorMapExtentBytes(s), t.byteSize());
  TensorMapArgs a = deriveTensorMapArgs(s);
  EXPECT_EQ(a.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(a.rank, 3u);
  const cuuint64_t dims[3] = {64, 100, 6};
  const cuuint64_t strides[2] = {128, 12800};
  const cuuint32_t box[3] = {64, 64, 1};
  const cuuint32_t estr[3] = {2, 1, 1};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a.globalDim[i], dims[i]) << i;
    EXPECT_EQ(a.boxDim[i], box[i]) << i;
    EXPECT_EQ(a.elementStrides[i], estr[i]) << i;
  }
  for (int i = 0; i < 2; ++i) EXPECT_EQ(a.globalStrides[i], strides[i]) << i;
  EXPECT_EQ(a.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
  EXPECT_EQ(a.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_NONE);
}

TEST(TensorMap, Fp8TilesAreByteMaps) {
  // An e4m3 [8192, 8192] tensor loaded in 128x128 boxes of 128-byte rows.
  TensorSpec t{"A", DType::E4M3, {8192, 8192}, TensorRole::Input, {}};
  TensorMapSpec s;
  s.tensor = "A";
  s.dtype = DType::E4M3;
  s.globalShape = {8192, 8192};
  s.globalStridesBytes = {8192, 1};
  s.box = {128, 128};
  s.elementStrides = {1, 1};
  s.swizzle = Swizzle::B128;
  EXPECT_EQ(validateTensorMap(s, t, "p"), "");
  TensorMapArgs a = deriveTensorMapArgs(s);
  EXPECT_EQ(a.dataType, CU_TENSOR_MAP_DATA_TYPE_UINT8);
  EXPECT_EQ(a.boxDim[0], 128u);
  EXPECT_EQ(a.globalStrides[0], 8192u);
  s.box = {128, 144};  // 144 bytes: past the 128-byte swizzle span
  EXPECT_NE(validateTensorMap(s, t, "p").find("p.swizzle: 128B needs the inner box to be at most 128 bytes"),
            std::string::npos);
  s.box = {128, 128};
  s.oobFill = OobFill::NaN;
  EXPECT_EQ(validateTensorMap(s, t, "p"), "p.oob_fill: \"nan\" needs a bf16, f16 or f32 dtype, got e4m3");
  // e8m0 scales stored transposed, [K/32, M]: a 4 x 128 box is 128 bytes wide.
  TensorSpec sc{"SA", DType::E8M0, {256, 8192}, TensorRole::Input, {}};
  TensorMapSpec ss;
  ss.tensor = "SA";
  ss.dtype = DType::E8M0;
  ss.globalShape = {256, 8192};
  ss.globalStridesBytes = {8192, 1};
  ss.box = {4, 128};
  ss.elementStrides = {1, 1};
  ss.swizzle = Swizzle::B128;
  EXPECT_EQ(validateTensorMap(ss, sc, "p"), "");
  EXPECT_EQ(deriveTensorMapArgs(ss).dataType, CU_TENSOR_MAP_DATA_TYPE_UINT8);
}

TEST(TensorMap, ABoxMayExceedASmallTensor) {
  // A per-tensor scale: one f32 read through the smallest box TMA takes (16 bytes); the
  // elements past the tensor read as zero, and the view stays inside its 4 bytes.
  TensorSpec t{"SA", DType::F32, {1}, TensorRole::Input, {}};
  TensorMapSpec s;
  s.tensor = "SA";
  s.dtype = DType::F32;
  s.globalShape = {1};
  s.globalStridesBytes = {4};
  s.box = {4};
  s.elementStrides = {1};
  EXPECT_EQ(validateTensorMap(s, t, "p"), "");
  EXPECT_EQ(tensorMapExtentBytes(s), 4);
}

TEST(TensorMap, LimitsOfTheDriver) {
  TensorSpec t{"X", DType::I32, {64, 64}, TensorRole::Input, {}};
  TensorMapSpec s;
  s.tensor = "X";
  s.dtype = DType::I32;
  s.globalShape = {64, 64};
  s.globalStridesBytes = {256, 4};
  s.box = {8, 8};
  s.elementStrides = {1, 1};
  EXPECT_EQ(validateTensorMap(s, t, "p"), "");
  s.oobFill = OobFill::NaN;
  EXPECT_EQ(validateTensorMap(s, t, "p"), "p.oob_fill: \"nan\" needs a bf16, f16 or f32 dtype, got i32");
  s.oobFill = OobFill::Zero;
  s.swizzle = Swizzle::B32;  // 8 x 4 bytes = 32: fits exactly
  EXPECT_EQ(validateTensorMap(s, t, "p"), "");
  s.box = {8, 16};  // 64 bytes > 32
  EXPECT_NE(validateTensorMap(s, t, "p").find("p.swizzle: 32B needs the inner box to be at most 32 bytes"),
            std::string::npos);
  s.swizzle = Swizzle::None;
  s.globalShape = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(validateTensorMap(s, t, "p"), "p.global_shape: rank 6 is outside 1..5");
}

}  // namespace
