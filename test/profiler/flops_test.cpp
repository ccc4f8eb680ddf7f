#include "attention_chunking.h"
#include "flops.h"
#include "timing_plan.h"

#include <gtest/gtest.h>

using namespace stagecraft::profiler;

namespace {

TEST(Flops, Gemm) {
  EXPECT_DOUBLE_EQ(gemmFlops(8192, 8192, 8192), 1099511627776.0);
  EXPECT_DOUBLE_EQ(gemmFlops(1000, 520, 200), 2.0 * 1000 * 520 * 200);
}

TEST(Flops, Attention) {
  // Non-causal: 2 GEMMs of 2*S*S*D per head.
  EXPECT_DOUBLE_EQ(attentionFlops(4, 16, 8192, 8192, 128, false), 4.0 * 4 * 16 * 8192.0 * 8192 * 128);
  // Causal counts the S(S+1)/2 unmasked pairs.
  EXPECT_DOUBLE_EQ(attentionFlops(1, 1, 4, 4, 8, true), 4.0 * 10 * 8);
  ReferenceSpec r;
  r.kind = ReferenceSpec::Kind::Attention;
  r.attention.batch = 2;
  r.attention.heads = 3;
  r.attention.seqQ = r.attention.seqKv = 200;
  r.attention.headDim = 128;
  EXPECT_DOUBLE_EQ(referenceFlops(r), 4.0 * 6 * 200 * 200 * 128);
  r.kind = ReferenceSpec::Kind::None;
  EXPECT_EQ(referenceFlops(r), 0.0);
}

TEST(Flops, Tflops) {
  // 1.0995e12 FLOPs in 1.4 ms = 785.4 TFLOP/s.
  EXPECT_NEAR(tflops(1099511627776.0, 1400.0), 785.37, 0.01);
  EXPECT_EQ(tflops(1e12, 0.0), 0.0);
  EXPECT_EQ(tflops(1e12, -1.0), 0.0);
}

TEST(TimingPlan, InputSetsCoverThreeTimesL2) {
  const int64_t l2 = 50 * 1000 * 1000, lots = int64_t(40) << 30;
  EXPECT_EQ(inputSetsFor(64 << 20, l2, lots), 3);         // 4096^3 bf16 GEMM: 64 MiB per set
  EXPECT_EQ(inputSetsFor(int64_t(256) << 20, l2, lots), 2);  // 8192^3: still 2, never 1
  EXPECT_EQ(inputSetsFor(128, l2, lots), kMaxInputSets);  // tiny inputs: capped
  EXPECT_EQ(inputSetsFor(int64_t(256) << 20, l2, int64_t(300) << 20), 1);  // no room for a copy
  EXPECT_EQ(inputSetsFor(0, l2, lots), 1);
}

TEST(AttentionChunking, BoundsScoreMemory) {
  AttentionReference a;
  a.batch = 4;
  a.heads = 16;
  a.seqQ = a.seqKv = 8192;
  a.headDim = 128;
  AttentionChunking c = chooseAttentionChunking(a, kDefaultAttentionChunkBytes);
  EXPECT_EQ(c.queriesPerChunk, 8192);
  EXPECT_EQ(c.headsPerChunk, 4);  // 4 x 256 MiB of scores = 1 GiB
  // A budget below one head splits the query rows of one head at a time.
  c = chooseAttentionChunking(a, 64 << 20);
  EXPECT_EQ(c.headsPerChunk, 1);
  EXPECT_EQ(c.queriesPerChunk, 2048);
  // Small problems fit whole.
  a.seqQ = a.seqKv = 256;
  c = chooseAttentionChunking(a, kDefaultAttentionChunkBytes);
  EXPECT_EQ(c.headsPerChunk, 64);
  EXPECT_EQ(c.queriesPerChunk, 256);
  // Even a budget of one byte makes progress.
  c = chooseAttentionChunking(a, 1);
  EXPECT_EQ(c.queriesPerChunk, 1);
  EXPECT_EQ(c.headsPerChunk, 1);
}

}  // namespace
