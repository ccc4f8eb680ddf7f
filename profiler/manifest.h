// The kernel bundle's manifest.json (docs/bundle-format.md), parsed and validated.
//
// Everything the runner needs to allocate, launch and check a kernel comes from here, so a bad
// manifest must fail early with a message that names the field ("params[1].box[0]: ..."),
// before any GPU work. Validation covers what the driver would otherwise reject with a bare
// CUDA_ERROR_INVALID_VALUE (tensor-map limits), and what would make the run meaningless (a view
// outside its tensor, an input initialised to zeros).
#pragma once

#include "json.h"
#include "timeline_spec.h"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace stagecraft::profiler {

class ManifestError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// E4M3 / E5M2: FP8 operands (float8_e4m3fn, float8_e5m2); E8M0: microscaling block scales, a
// byte that is a power of two 2^(b - 127) (float8_e8m0fnu).
enum class DType { BF16, F16, F32, I32, I64, E4M3, E5M2, E8M0 };
const char *dtypeName(DType t);
size_t dtypeSize(DType t);
// bf16, f16, f32: the types the runner computes and compares in.
bool dtypeIsFloat(DType t);
// The 1-byte floats: e4m3, e5m2, e8m0 (inputs; e4m3 and e5m2 outputs too, checked against
// the IR reference as their values).
bool dtypeIsByteFloat(DType t);

enum class TensorRole { Input, Output, Scratch };

struct InitSpec {
  enum class Kind { Uniform, Normal } kind = Kind::Uniform;
  double a = -1.0;  // uniform: low;  normal: mean
  double b = 1.0;   // uniform: high; normal: std
  uint64_t seed = 0;
};

struct TensorSpec {
  std::string name;
  DType dtype = DType::BF16;
  std::vector<int64_t> shape;  // outermost first
  TensorRole role = TensorRole::Input;
  InitSpec init;  // inputs only

  int64_t elementCount() const;
  int64_t byteSize() const { return elementCount() * int64_t(dtypeSize(dtype)); }
};

enum class Swizzle { None, B32, B64, B128 };
enum class L2Promotion { None, B64, B128, B256 };
enum class OobFill { Zero, NaN };

struct TensorMapSpec {
  std::string tensor;
  DType dtype = DType::BF16;
  // All outermost first, as in the manifest.
  std::vector<int64_t> globalShape;
  std::vector<int64_t> globalStridesBytes;  // same rank; the last equals the element size
  std::vector<int64_t> box;
  std::vector<int64_t> elementStrides;  // default all 1
  Swizzle swizzle = Swizzle::None;
  L2Promotion l2Promotion = L2Promotion::None;
  OobFill oobFill = OobFill::Zero;
};

struct ParamSpec {
  enum class Kind { TensorMap, Pointer, Scalar } kind = Kind::Pointer;
  std::string tensor;        // TensorMap, Pointer
  TensorMapSpec tensorMap;   // TensorMap
  DType scalarType = DType::I32;  // Scalar: I32, I64, F32
  int64_t intValue = 0;      // Scalar I32 / I64
  double floatValue = 0.0;   // Scalar F32
};

struct GemmReference {
  std::string a, b, c;
  int64_t M = 0, N = 0, K = 0;
  bool transposeB = true;  // B stored [N,K] when true, [K,N] when false
};

// C[M,N] = scale_a * scale_b * (A[M,K] * B[N,K]^T) with FP8 A and B (e4m3 or e5m2, not both
// e5m2: cuBLASLt has no e5m2 x e5m2 kernel), both K-major, per-tensor scales read from f32
// tensors (element 0; empty name: 1), C bf16, f16 or f32: cuBLASLt's FP8 matmul.
struct GemmFp8Reference {
  std::string a, b, c, scaleA, scaleB;
  int64_t M = 0, N = 0, K = 0;
  // How the kernel sums its FP8 products, and so how its timed peer does:
  // "fast" (wgmma accumulating in place) or "promoted" (partial sums added
  // in fp32 registers; cuBLASLt without fast accumulation).
  bool fastAccumulation = true;
};

struct AttentionReference {
  std::string q, k, v, o;
  int64_t batch = 0, heads = 0, seqQ = 0, seqKv = 0, headDim = 0;
  bool causal = false;
  double smScale = 0.0;
};

// The bundle's own reference: the same IR lowered plainly (tile-lower-reference), a kernel in
// `module` taking the main kernel's params with every tensor map replaced by a pointer to its
// tensor (outputs: the reference's own copies), then a scratch pointer of
// `scratchBytesPerBlock` per block.
struct OutputCheck {
  std::string tensor;
  double normRelTol = 1e-2, maxRelTol = 5e-2;
  // The fraction of the elements that may miss maxRelTol by any amount: flips near ties of a
  // comparison of rounded values (error_metrics.h); 0: none.
  double flipFraction = 0;
  // Rounded to integers from computed values: may differ by this step beyond the tolerances
  // (error_metrics.h, widenedByStep); 0: none.
  double step = 0;
  std::string basis;
};

struct IrReference {
  std::string module;  // a file of the bundle, e.g. "reference.ptx"
  std::string kernel;
  std::array<int64_t, 3> grid{1, 1, 1};
  std::array<int64_t, 3> block{256, 1, 1};
  int64_t scratchBytesPerBlock = 0;
  // The kernel takes a trailing i32 after scratch: non-zero runs every sum in reverse.
  bool reorder = false;
  // The dot FLOPs its launch executes (every program's whole tiles), when the compiler counted
  // them: the watchdog's allowance for it. Negative: not given.
  double flops = -1;
  std::vector<OutputCheck> outputs;
};

struct ReferenceSpec {
  enum class Kind { None, Gemm, Attention, Ir, GemmFp8 } kind = Kind::None;
  GemmReference gemm;
  GemmFp8Reference gemmFp8;
  AttentionReference attention;
  IrReference ir;
};

struct Manifest {
  std::string kernel;
  // The GPU the code is compiled for: "sm_90a" (the default when absent) or "sm_100a"; the
  // runner refuses a bundle its GPU cannot run.
  std::string target = "sm_90a";
  std::array<int64_t, 3> grid{1, 1, 1};
  std::array<int64_t, 3> block{1, 1, 1};
  std::array<int64_t, 3> cluster{1, 1, 1};
  bool hasCluster = false;
  int64_t dynamicSmemBytes = 0;
  double flops = 0.0;
  json::Value problem;  // informational, passed through to results
  std::vector<TensorSpec> tensors;
  std::vector<ParamSpec> params;
  ReferenceSpec reference;
  // The instrumented variant of the kernel (optional "timeline" object).
  std::optional<TimelineSpec> timeline;
  // A second check where the kernel's math is exactly a GEMM or attention (kind Gemm or
  // Attention; None otherwise); a GEMM peer is also the timed peer (cuBLAS).
  ReferenceSpec peer;
  // Non-fatal findings (unknown fields, flops that disagree with the reference's arithmetic).
  std::vector<std::string> warnings;

  const TensorSpec *findTensor(const std::string &name) const;
};

// "ir", "gemm", "gemm_fp8", "attention" or "none".
const char *referenceKindName(ReferenceSpec::Kind kind);

// Parses and validates manifest text. Throws ManifestError("manifest.json: <field>: <why>"),
// and, for syntax errors, ManifestError("manifest.json: line L, column C: <why>").
Manifest parseManifest(const std::string &text);

// Reads DIR/manifest.json (at most 16 MiB) and parses it.
// "" when `path` is a regular file the runner may read whole, else why not
// ("no such file", "a directory", "not a regular file": a FIFO would block
// the runner and every request queued behind it).
std::string bundleFileProblem(const std::string &path);

Manifest loadManifest(const std::string &bundleDir);
// The number of parameters the PTX entry `kernel` takes in `ptx` (".param"s
// between its parentheses), or -1 when `ptx` has no such entry.
int64_t ptxEntryParamCount(const std::string &ptx, const std::string &kernel);

}  // namespace stagecraft::profiler
