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
  EXPECT_EQ(validateTensorMap(s, t, "p"), "p.oob_fill: \"nan\" needs a floating-point dtype");
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
