#include "manifest.h"

#include "test_manifests.h"

#include <gtest/gtest.h>

#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace stagecraft::profiler;
using stagecraft::profiler::testing::gemmManifest;
using stagecraft::profiler::testing::replaced;

namespace {

std::string errorOf(const std::string &text) {
  try {
    parseManifest(text);
  } catch (const ManifestError &e) {
    return e.what();
  }
  return "";
}

#define EXPECT_ERROR_CONTAINS(text, needle)                                         \
  do {                                                                              \
    std::string err_ = errorOf(text);                                               \
    EXPECT_NE(err_.find(needle), std::string::npos) << "error was: \"" << err_ << "\""; \
  } while (0)

TEST(Manifest, ParsesTheDocumentedExample) {
  Manifest m = parseManifest(gemmManifest());
  EXPECT_EQ(m.kernel, "gemm_kernel");
  EXPECT_EQ(m.grid[0], 64);
  EXPECT_EQ(m.block[0], 384);
  EXPECT_FALSE(m.hasCluster);
  EXPECT_EQ(m.dynamicSmemBytes, 197632);
  EXPECT_DOUBLE_EQ(m.flops, 1099511627776.0);
  ASSERT_EQ(m.tensors.size(), 3u);
  EXPECT_EQ(m.tensors[0].dtype, DType::BF16);
  EXPECT_EQ(m.tensors[0].byteSize(), int64_t(8192) * 8192 * 2);
  EXPECT_EQ(m.tensors[1].init.seed, 2u);
  EXPECT_EQ(m.tensors[2].role, TensorRole::Output);
  ASSERT_EQ(m.params.size(), 6u);
  EXPECT_EQ(m.params[0].kind, ParamSpec::Kind::TensorMap);
  EXPECT_EQ(m.params[0].tensorMap.swizzle, Swizzle::B128);
  EXPECT_EQ(m.params[0].tensorMap.elementStrides, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(m.params[2].kind, ParamSpec::Kind::Pointer);
  EXPECT_EQ(m.params[5].intValue, 8192);
  EXPECT_EQ(m.reference.kind, ReferenceSpec::Kind::Gemm);
  EXPECT_TRUE(m.reference.gemm.transposeB);
  EXPECT_TRUE(m.warnings.empty()) << m.warnings.front();
  EXPECT_EQ(m.problem.find("M")->asInt(), 8192);
}

TEST(Manifest, MissingFieldsAreNamed) {
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("kernel": "gemm_kernel",)", ""), "manifest.json: kernel: missing");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("flops": 1099511627776,)", ""), "flops: missing");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("role": "output")", R"("rol": "output")"),
                        "tensors[2].role: missing");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("box": [128, 64], )", ""), "params[0].box: missing");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("seed": 2)", R"("sead": 2)"), "tensors[1].init.seed: missing");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("transpose_b": true,)", ""), "reference.transpose_b: missing");
}

TEST(Manifest, WrongTypesAreNamed) {
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("grid": [64, 64, 1])", R"("grid": [64, "64", 1])"),
                        "grid[1]: expected an integer, got string");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("grid": [64, 64, 1])", R"("grid": [64, 64])"),
                        "grid: expected 3 integers, got 2");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("grid": [64, 64, 1])", R"("grid": [64, 64.5, 1])"),
                        "grid[1]: expected an integer");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("block": [384, 1, 1])", R"("block": [0, 1, 1])"),
                        "block[0]: 0 is outside 1..");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("kernel": "gemm_kernel")", R"("kernel": 7)"),
                        "kernel: expected a string, got number");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("transpose_b": true)", R"("transpose_b": 1)"),
                        "reference.transpose_b: expected true or false");
  EXPECT_ERROR_CONTAINS("[1, 2]", "top level: expected an object, got array");
}

TEST(Manifest, BadValuesAreNamed) {
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("dtype": "bf16", "shape": [8192, 8192], "role": "output")",
                                 R"("dtype": "fp8", "shape": [8192, 8192], "role": "output")"),
                        "tensors[2].dtype: unknown value \"fp8\"");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("version": 1)", R"("version": 2)"), "version: unsupported version 2");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("format": "stagecraft-bundle")", R"("format": "other")"),
                        "format: expected \"stagecraft-bundle\"");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("swizzle": "128B")", R"("swizzle": "256B")"),
                        "params[0].swizzle: unknown value \"256B\"");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("kind": "pointer")", R"("kind": "buffer")"),
                        "params[2].kind: unknown value \"buffer\"");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("low": -1.0, "high": 1.0, "seed": 1)",
                                 R"("low": 0.0, "high": 0.0, "seed": 1)"),
                        "tensors[0].init.high: must be greater than low");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("value": 8192},)", R"("value": 4294967296},)"),
                        "params[3].value: 4294967296 is outside");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"({"name": "C")", R"({"name": "A")"),
                        "tensors[2].name: duplicate tensor name \"A\"");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("grid": [64, 64, 1])", R"("grid": [1, 65536, 1])"),
                        "grid: grid[1] = 65536: CUDA launches at most 65535 CTAs along y and z");
}

// The PTX entry's parameter count, which loadManifest compares with the
// manifest's params (an empty list for a 6-parameter kernel passed before).
TEST(Manifest, PtxEntryParamCount) {
  const std::string ptx = ".visible .entry other(\n\t.param .u32 other_param_0\n)\n"
                          ".visible .entry gemm(\n\t.param .align 64 .b8 gemm_param_0[128],\n"
                          "\t.param .align 64 .b8 gemm_param_1[128],\n\t.param .u32 gemm_param_2\n)\n"
                          "{\n\tld.param.u32 %r1, [gemm_param_2];\n}\n";
  EXPECT_EQ(ptxEntryParamCount(ptx, "gemm"), 3);
  EXPECT_EQ(ptxEntryParamCount(ptx, "other"), 1);
  EXPECT_EQ(ptxEntryParamCount(ptx, "gem"), -1);
  EXPECT_EQ(ptxEntryParamCount(ptx, "missing"), -1);
}

TEST(Manifest, ParamsMustReferenceKnownTensors) {
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"({"kind": "pointer", "tensor": "C"})",
                                 R"({"kind": "pointer", "tensor": "D"})"),
                        "params[2].tensor: unknown tensor \"D\"");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"({"kind": "tensormap", "tensor": "A")",
                                 R"({"kind": "tensormap", "tensor": "Z")"),
                        "params[0].tensor: unknown tensor \"Z\"");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("a": "A", "b": "B")", R"("a": "A", "b": "Q")"),
                        "reference.b: unknown tensor \"Q\"");
}

TEST(Manifest, TensorMapLimitsAreChecked) {
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("box": [128, 64])", R"("box": [300, 64])"),
                        "params[0].box[0]: 300 is outside 1..256");
  // 128 bf16 = 256 bytes per box row: too wide for a 128-byte swizzle.
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("box": [128, 64])", R"("box": [64, 128])"),
                        "params[0].swizzle: 128B needs the inner box to be at most 128 bytes, it is 256");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("box": [128, 64])", R"("box": [128, 4])"),
                        "params[0].box[1]: inner box of 8 bytes is not a multiple of 16 bytes");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("global_strides_bytes": [16384, 2])",
                                 R"("global_strides_bytes": [16384, 4])"),
                        "params[0].global_strides_bytes[1]: 4 must equal the element size (2 bytes)");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("global_strides_bytes": [16384, 2])",
                                 R"("global_strides_bytes": [16380, 2])"),
                        "params[0].global_strides_bytes[0]: 16380 must be a positive multiple of 16");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("global_strides_bytes": [16384, 2])",
                                 R"("global_strides_bytes": [16384, 2, 2])"),
                        "params[0].global_strides_bytes: has 3 entries, global_shape has 2");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("box": [128, 64], "swizzle")",
                                 R"("box": [128, 64], "element_strides": [1, 9], "swizzle")"),
                        "params[0].element_strides[1]: 9 is outside 1..8");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"({"kind": "tensormap", "tensor": "A", "dtype": "bf16")",
                                 R"({"kind": "tensormap", "tensor": "A", "dtype": "f16")"),
                        "params[0].dtype: f16 does not match tensor \"A\" of dtype bf16");
}

TEST(Manifest, TensorMapViewMustStayInsideItsTensor) {
  // 8193 rows of 16384 bytes: one row past the end of A.
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("global_shape": [8192, 8192])", R"("global_shape": [8193, 8192])"),
                        "params[0]: the view (global_shape with global_strides_bytes) reaches byte 134234112, past "
                        "the end of tensor \"A\" (134217728 bytes)");
  // A [B*H, S, D]-style reshaped view that fits is fine: [64, 128, 8192] of A's 8192 x 8192.
  std::string view = replaced(gemmManifest(), R"("global_shape": [8192, 8192], "global_strides_bytes": [16384, 2],
     "box": [128, 64])", R"("global_shape": [64, 128, 8192], "global_strides_bytes": [2097152, 16384, 2],
     "box": [1, 128, 64])");
  EXPECT_EQ(errorOf(view), "");
}

TEST(Manifest, ReferenceShapesMustMatchTensors) {
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), "\"K\": 8192}\n}", "\"K\": 4096}\n}"),
                        "reference.a: tensor \"A\" has shape [8192, 8192], the reference needs [8192, 4096]");
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("c": "C")", R"("c": "B")"), "reference.c: tensor \"B\" must have role \"output\"");
}

TEST(Manifest, AttentionReference) {
  const std::string attn = R"({"format": "stagecraft-bundle", "version": 1, "kernel": "attn", "grid": [1,1,1],
    "block": [128,1,1], "dynamic_smem_bytes": 0, "flops": 1,
    "tensors": [
      {"name": "Q", "dtype": "bf16", "shape": [2, 4, 256, 64], "role": "input", "init": {"kind": "normal", "mean": 0, "std": 1, "seed": 1}},
      {"name": "K", "dtype": "bf16", "shape": [2, 4, 256, 64], "role": "input", "init": {"kind": "normal", "mean": 0, "std": 1, "seed": 2}},
      {"name": "V", "dtype": "bf16", "shape": [2, 4, 256, 64], "role": "input", "init": {"kind": "normal", "mean": 0, "std": 1, "seed": 3}},
      {"name": "O", "dtype": "bf16", "shape": [2, 4, 256, 64], "role": "output"}],
    "params": [{"kind": "pointer", "tensor": "Q"}, {"kind": "scalar", "dtype": "f32", "value": 0.125}],
    "reference": {"kind": "attention", "q": "Q", "k": "K", "v": "V", "o": "O", "batch": 2, "heads": 4,
                  "seq_q": 256, "seq_kv": 256, "head_dim": 64, "causal": true, "sm_scale": 0.125}})";
  Manifest m = parseManifest(attn);
  EXPECT_EQ(m.reference.kind, ReferenceSpec::Kind::Attention);
  EXPECT_TRUE(m.reference.attention.causal);
  EXPECT_EQ(m.tensors[0].init.kind, InitSpec::Kind::Normal);
  EXPECT_FLOAT_EQ(float(m.params[1].floatValue), 0.125f);
  // flops 1 disagrees with the problem's count: a warning, not an error.
  ASSERT_FALSE(m.warnings.empty());
  EXPECT_NE(m.warnings.back().find("flops"), std::string::npos);
  EXPECT_ERROR_CONTAINS(replaced(attn, R"("seq_kv": 256)", R"("seq_kv": 128)"), "reference.causal: the causal reference needs seq_q == seq_kv");
  EXPECT_ERROR_CONTAINS(replaced(attn, R"("head_dim": 64)", R"("head_dim": 32)"), "reference.q: tensor \"Q\" has shape [2, 4, 256, 64]");
  EXPECT_ERROR_CONTAINS(replaced(attn, R"("std": 1, "seed": 2)", R"("std": 0, "seed": 2)"), "tensors[1].init.std: must be positive");
}

TEST(Manifest, UnknownFieldsAreWarnings) {
  Manifest m = parseManifest(replaced(gemmManifest(), R"("kernel": "gemm_kernel",)", R"("kernel": "gemm_kernel", "colour": 1,)"));
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0], "colour: unknown field, ignored");
}

TEST(Manifest, ClusterMustDivideGrid) {
  Manifest m = parseManifest(replaced(gemmManifest(), R"("block": [384, 1, 1],)", R"("block": [384, 1, 1], "cluster": [2, 1, 1],)"));
  EXPECT_TRUE(m.hasCluster);
  EXPECT_EQ(m.cluster[0], 2);
  EXPECT_ERROR_CONTAINS(replaced(gemmManifest(), R"("block": [384, 1, 1],)", R"("block": [384, 1, 1], "cluster": [3, 1, 1],)"),
                        "cluster: grid[0] = 64 is not a multiple of cluster[0] = 3");
}

TEST(Manifest, BrokenInputGivesSyntaxErrorsWithPosition) {
  std::string full = gemmManifest();
  EXPECT_ERROR_CONTAINS(full.substr(0, full.size() / 2), "manifest.json: line ");
  EXPECT_ERROR_CONTAINS("", "manifest.json: line 1, column 1: empty input");
  EXPECT_ERROR_CONTAINS(std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10), "manifest.json: line 1, column 1: unexpected");
  EXPECT_ERROR_CONTAINS(std::string(100000, '['), "nesting deeper than");
}

TEST(Manifest, LoadReportsMissingFile) {
  try {
    loadManifest("/nonexistent-stagecraft-bundle");
    FAIL() << "no exception";
  } catch (const ManifestError &e) {
    EXPECT_STREQ(e.what(), "cannot open /nonexistent-stagecraft-bundle/manifest.json: No such file or directory");
  }
}

TEST(Manifest, LoadRefusesADirectoryOrAPipeWithoutBlocking) {
  // A FIFO would block the runner, and every request queued behind it.
  char dir[] = "/tmp/stagecraft-manifest-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/manifest.json";
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  try {
    loadManifest(dir);
    FAIL() << "no exception";
  } catch (const ManifestError &e) {
    EXPECT_STREQ(e.what(), (std::string("cannot open ") + path + ": not a regular file (a device or a pipe)").c_str());
  }
  unlink(path.c_str());
  ASSERT_EQ(mkdir(path.c_str(), 0700), 0);
  try {
    loadManifest(dir);
    FAIL() << "no exception";
  } catch (const ManifestError &e) {
    EXPECT_STREQ(e.what(), (std::string("cannot open ") + path + ": a directory, not a file").c_str());
  }
  rmdir(path.c_str());
  rmdir(dir);
}

}  // namespace

namespace {

// An FP8 GEMM as stagecraft-compile writes it: e4m3 operands in 128x128 boxes, per-tensor f32
// scales read through a 16-byte box, the IR reference and the cuBLASLt FP8 peer.
std::string fp8Manifest() {
  return R"({"format": "stagecraft-bundle", "version": 1, "kernel": "fp8_gemm", "grid": [32, 16, 1],
    "block": [384, 1, 1], "dynamic_smem_bytes": 199680, "flops": 34359738368,
    "tensors": [
      {"name": "A", "dtype": "e4m3", "shape": [4096, 2048], "role": "input",
       "init": {"kind": "uniform", "low": -1.0, "high": 1.0, "seed": 1}},
      {"name": "B", "dtype": "e4m3", "shape": [2048, 2048], "role": "input",
       "init": {"kind": "uniform", "low": -1.0, "high": 1.0, "seed": 2}},
      {"name": "scale_a", "dtype": "f32", "shape": [1], "role": "input",
       "init": {"kind": "uniform", "low": -1.0, "high": 1.0, "seed": 3}},
      {"name": "scale_b", "dtype": "f32", "shape": [1], "role": "input",
       "init": {"kind": "uniform", "low": -1.0, "high": 1.0, "seed": 4}},
      {"name": "C", "dtype": "bf16", "shape": [4096, 2048], "role": "output"}],
    "params": [
      {"kind": "tensormap", "tensor": "A", "dtype": "e4m3", "global_shape": [4096, 2048],
       "global_strides_bytes": [2048, 1], "box": [128, 128], "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero"},
      {"kind": "tensormap", "tensor": "B", "dtype": "e4m3", "global_shape": [2048, 2048],
       "global_strides_bytes": [2048, 1], "box": [256, 128], "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero"},
      {"kind": "tensormap", "tensor": "scale_a", "dtype": "f32", "global_shape": [1],
       "global_strides_bytes": [4], "box": [4], "swizzle": "none", "l2_promotion": "256B", "oob_fill": "zero"},
      {"kind": "tensormap", "tensor": "scale_b", "dtype": "f32", "global_shape": [1],
       "global_strides_bytes": [4], "box": [4], "swizzle": "none", "l2_promotion": "256B", "oob_fill": "zero"},
      {"kind": "tensormap", "tensor": "C", "dtype": "bf16", "global_shape": [4096, 2048],
       "global_strides_bytes": [4096, 2], "box": [128, 256], "swizzle": "none", "l2_promotion": "256B", "oob_fill": "zero"},
      {"kind": "scalar", "dtype": "i32", "value": 4096}, {"kind": "scalar", "dtype": "i32", "value": 2048},
      {"kind": "scalar", "dtype": "i32", "value": 2048}],
    "peer": {"kind": "gemm_fp8", "a": "A", "b": "B", "c": "C", "M": 4096, "N": 2048, "K": 2048,
             "transpose_b": true, "scale_a": "scale_a", "scale_b": "scale_b"},
    "reference": {"kind": "ir", "module": "reference.ptx", "kernel": "fp8_gemm_reference", "grid": [512, 1, 1],
                  "block": [256, 1, 1], "scratch_bytes_per_block": 393216,
                  "outputs": [{"tensor": "C", "norm_rel_tol": 0.01, "max_rel_tol": 0.0625, "basis": "bf16"}]}})";
}

}  // namespace

TEST(Manifest, Fp8TensorsAndTheCublasLtPeer) {
  Manifest m = parseManifest(fp8Manifest());
  EXPECT_TRUE(m.warnings.empty()) << m.warnings.front();
  EXPECT_EQ(m.tensors[0].dtype, DType::E4M3);
  EXPECT_EQ(dtypeSize(DType::E4M3), 1u);
  EXPECT_EQ(m.tensors[0].byteSize(), 4096 * 2048);
  EXPECT_TRUE(dtypeIsByteFloat(DType::E8M0));
  EXPECT_FALSE(dtypeIsFloat(DType::E4M3));
  EXPECT_EQ(m.params[0].tensorMap.dtype, DType::E4M3);
  EXPECT_EQ(m.peer.kind, ReferenceSpec::Kind::GemmFp8);
  EXPECT_EQ(referenceKindName(m.peer.kind), std::string("gemm_fp8"));
  EXPECT_EQ(m.peer.gemmFp8.scaleA, "scale_a");
  EXPECT_EQ(m.peer.gemmFp8.scaleB, "scale_b");
  EXPECT_EQ(m.peer.gemmFp8.K, 2048);
  EXPECT_EQ(m.target, "sm_90a");

  // The IR reference's executed FLOPs (the watchdog's allowance for it) are optional.
  EXPECT_LT(m.reference.ir.flops, 0);
  std::string counted = replaced(fp8Manifest(), R"("scratch_bytes_per_block": 393216,)",
                                 R"("scratch_bytes_per_block": 393216, "flops": 6.0e13,)");
  EXPECT_EQ(parseManifest(counted).reference.ir.flops, 6.0e13);
  EXPECT_ERROR_CONTAINS(replaced(fp8Manifest(), R"("scratch_bytes_per_block": 393216,)",
                                 R"("scratch_bytes_per_block": 393216, "flops": -1,)"),
                        "reference.flops: must be a non-negative number");

  // An output's flip fraction is optional, within [0, 1].
  EXPECT_EQ(m.reference.ir.outputs[0].flipFraction, 0.0);
  std::string flips = replaced(fp8Manifest(), R"("basis": "bf16"})", R"("basis": "bf16", "flip_fraction": 7e-4})");
  EXPECT_EQ(parseManifest(flips).reference.ir.outputs[0].flipFraction, 7e-4);
  EXPECT_TRUE(parseManifest(flips).warnings.empty());
  EXPECT_ERROR_CONTAINS(replaced(fp8Manifest(), R"("basis": "bf16"})", R"("basis": "bf16", "flip_fraction": 2})"),
                        "reference.outputs[0].flip_fraction: must be in [0, 1]");

  // Scales are optional; both e5m2 is not a cuBLASLt kernel; B must be K-major; operands FP8.
  Manifest noScale = parseManifest(replaced(fp8Manifest(), R"("scale_a": "scale_a", )", ""));
  EXPECT_EQ(noScale.peer.gemmFp8.scaleA, "");
  std::string e5 = replaced(replaced(fp8Manifest(), R"("name": "A", "dtype": "e4m3")", R"("name": "A", "dtype": "e5m2")"),
                            R"("name": "B", "dtype": "e4m3")", R"("name": "B", "dtype": "e5m2")");
  e5 = replaced(replaced(e5, R"("tensor": "A", "dtype": "e4m3")", R"("tensor": "A", "dtype": "e5m2")"),
                R"("tensor": "B", "dtype": "e4m3")", R"("tensor": "B", "dtype": "e5m2")");
  EXPECT_ERROR_CONTAINS(e5, "peer: cuBLASLt has no e5m2 x e5m2 matmul");
  EXPECT_ERROR_CONTAINS(replaced(fp8Manifest(), R"("transpose_b": true, "scale_a")", R"("transpose_b": false, "scale_a")"),
                        "peer.transpose_b: FP8 GEMMs take B as [N, K] (K-major): must be true");
  EXPECT_ERROR_CONTAINS(replaced(fp8Manifest(), R"("scale_b": "scale_b"})", R"("scale_b": "C"})"),
                        "peer.scale_b: tensor \"C\" must be an f32 input");
  EXPECT_ERROR_CONTAINS(replaced(fp8Manifest(), R"("a": "A", "b": "B", "c": "C", "M")", R"("a": "C", "b": "B", "c": "C", "M")"),
                        "peer.a: tensor \"C\" must be an input of shape [4096, 2048]");
  // How the kernel sums its FP8 products sets how its timed peer does: in place (fast, the
  // default) or promoted to fp32 registers (cuBLASLt's accurate accumulation).
  EXPECT_TRUE(m.peer.gemmFp8.fastAccumulation);
  Manifest promoted = parseManifest(replaced(fp8Manifest(), R"("transpose_b": true,)",
                                             R"("transpose_b": true, "accumulation": "promoted",)"));
  EXPECT_TRUE(promoted.warnings.empty());
  EXPECT_FALSE(promoted.peer.gemmFp8.fastAccumulation);
  EXPECT_ERROR_CONTAINS(replaced(fp8Manifest(), R"("transpose_b": true,)", R"("transpose_b": true, "accumulation": "exact",)"),
                        "peer.accumulation: must be \"fast\" or \"promoted\", got \"exact\"");
  // A NaN fill needs a 16/32-bit float map: FP8 tiles are byte maps.
  EXPECT_ERROR_CONTAINS(replaced(fp8Manifest(), R"("swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero"},)",
                                 R"("swizzle": "128B", "l2_promotion": "256B", "oob_fill": "nan"},)"),
                        "params[0].oob_fill: \"nan\" needs a bf16, f16 or f32 dtype, got e4m3");
}

TEST(Manifest, ScalesAndTargets) {
  // e8m0 scale tensors parse; the target names the GPU the code is for.
  std::string m = replaced(fp8Manifest(), R"("name": "scale_a", "dtype": "f32")", R"("name": "scale_a", "dtype": "e8m0")");
  m = replaced(m, R"("tensor": "scale_a", "dtype": "f32")", R"("tensor": "scale_a", "dtype": "e8m0")");
  m = replaced(m, R"("global_strides_bytes": [4], "box": [4])", R"("global_strides_bytes": [1], "box": [16])");
  // An e8m0 scale is not the f32 element 0 cuBLASLt reads.
  EXPECT_ERROR_CONTAINS(m, "peer.scale_a: tensor \"scale_a\" must be an f32 input");
  Manifest bw = parseManifest(replaced(fp8Manifest(), R"("kernel": "fp8_gemm",)", R"("kernel": "fp8_gemm", "target": "sm_100a",)"));
  EXPECT_EQ(bw.target, "sm_100a");
  EXPECT_ERROR_CONTAINS(replaced(fp8Manifest(), R"("kernel": "fp8_gemm",)", R"("kernel": "fp8_gemm", "target": "sm_80",)"),
                        "target: unknown value \"sm_80\" (expected \"sm_90a\" or \"sm_100a\")");
}
