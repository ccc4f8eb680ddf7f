//===- EmitCpp.cpp - the C++ side of an exported package ------------------===//
//
// NAME.h: CUDA driver API only. A Sizes struct (defaults: the compiled
// sizes), shape and grid functions of the sizes, check() (no CUDA calls) and
// a Kernel class that loads the cubin into the current context and
// launches: tensor maps are encoded from the device pointers at each launch.
// Errors are thrown as NAME::Error (a std::runtime_error with the CUresult).
//
//===----------------------------------------------------------------------===//
#include "passes/Driver/export/Emit.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace stagecraft::exporter;

namespace {

const char *kDetail = R"cpp(
/// Every failure is thrown as an Error: what() names the argument or the
/// driver call; result() is the CUresult (CUDA_SUCCESS for a bad argument).
class Error : public std::runtime_error {
public:
  explicit Error(const std::string &what, CUresult result = CUDA_SUCCESS)
      : std::runtime_error(what), result_(result) {}
  CUresult result() const { return result_; }

private:
  CUresult result_;
};

namespace detail {
// Affine arithmetic of the sizes (floor / ceiling division as in MLIR).
inline int64_t floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t ceildiv(int64_t a, int64_t b) { return -floordiv(-a, b); }
inline int64_t mod(int64_t a, int64_t b) { return a - b * floordiv(a, b); }

inline std::string cuText(CUresult r) {
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  return std::string(name ? name : "CUDA error " + std::to_string(int(r))) +
         (text ? std::string(": ") + text : std::string());
}
inline void check(CUresult r, const std::string &what) {
  if (r != CUDA_SUCCESS)
    throw Error(what + ": " + cuText(r), r);
}

/// A dense row-major tensor as one tensor map sees it.
struct View {
  const char *name;
  CUdeviceptr ptr;
  int rank;
  int64_t shape[5];   // outermost first
  int64_t strides[5]; // bytes, outermost first; the last is the element size
};

inline View dense(const char *name, CUdeviceptr ptr, std::initializer_list<int64_t> shape,
                  int64_t elemBytes) {
  View v{name, ptr, int(shape.size()), {}, {}};
  int d = 0;
  for (int64_t x : shape)
    v.shape[d++] = x;
  int64_t stride = elemBytes;
  for (d = v.rank - 1; d >= 0; --d) {
    v.strides[d] = stride;
    stride *= v.shape[d];
  }
  return v;
}

inline int64_t extentBytes(const View &v) {
  int64_t last = 0;
  for (int d = 0; d < v.rank; ++d)
    last += (v.shape[d] - 1) * v.strides[d];
  return last + v.strides[v.rank - 1];
}

/// The driver's limits for cuTensorMapEncodeTiled, checked up front.
inline std::string checkView(const View &v) {
  std::string n = v.name;
  for (int d = 0; d < v.rank; ++d)
    if (v.shape[d] < 1 || v.shape[d] >= (int64_t(1) << 31))
      return n + ": dimension " + std::to_string(d) + " of its shape is " +
             std::to_string(v.shape[d]) + ", outside 1..2^31-1 (the kernel's coordinates are "
             "32-bit)";
  for (int d = 0; d + 1 < v.rank; ++d)
    if (v.strides[d] % 16 != 0 || v.strides[d] >= (int64_t(1) << 40))
      return n + ": the stride of dimension " + std::to_string(d) + " is " +
             std::to_string(v.strides[d]) +
             " bytes; TMA needs a multiple of 16 bytes below 2^40 (make the inner "
             "dimensions a multiple of " + std::to_string(16 / v.strides[v.rank - 1]) +
             " elements)";
  if (v.ptr % 16 != 0)
    return n + ": the pointer is not 16-byte aligned (TMA needs 16)";
  return "";
}

/// The pointer must be device memory of the current context's device, with
/// room for the whole view: otherwise the kernel would fault.
inline void checkDeviceMemory(const View &v, CUdevice device) {
  std::string n = v.name;
  unsigned int type = 0;
  CUresult r = cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, v.ptr);
  if (r != CUDA_SUCCESS || (type != CU_MEMORYTYPE_DEVICE && type != CU_MEMORYTYPE_UNIFIED))
    throw Error(n + ": not CUDA device memory" +
                (r != CUDA_SUCCESS ? " (" + cuText(r) + ")" : std::string()));
  int ordinal = -1;
  check(cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, v.ptr),
        n + ": cuPointerGetAttribute(DEVICE_ORDINAL)");
  if (ordinal != int(device))
    throw Error(n + ": on device " + std::to_string(ordinal) +
                ", but the current context is on device " + std::to_string(int(device)));
  CUdeviceptr base = 0;
  size_t size = 0;
  check(cuMemGetAddressRange(&base, &size, v.ptr), n + ": cuMemGetAddressRange");
  int64_t room = int64_t(base + size - v.ptr);
  if (extentBytes(v) > room)
    throw Error(n + ": needs " + std::to_string(extentBytes(v)) +
                " bytes from the pointer, its allocation has " + std::to_string(room));
}

inline void encode(CUtensorMap *map, const View &v, CUtensorMapDataType type,
                   std::initializer_list<cuuint32_t> box,
                   std::initializer_list<cuuint32_t> elementStrides,
                   CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                   CUtensorMapFloatOOBfill oob) {
  // The driver wants the innermost dimension first and no innermost stride.
  cuuint64_t dims[5], strides[5];
  cuuint32_t boxDims[5], estr[5];
  const cuuint32_t *b = box.begin(), *e = elementStrides.begin();
  for (int d = 0; d < v.rank; ++d) {
    int r = v.rank - 1 - d;
    dims[r] = cuuint64_t(v.shape[d]);
    boxDims[r] = b[d];
    estr[r] = e[d];
    if (r >= 1)
      strides[r - 1] = cuuint64_t(v.strides[d]);
  }
  check(cuTensorMapEncodeTiled(map, type, cuuint32_t(v.rank), reinterpret_cast<void *>(v.ptr),
                               dims, strides, boxDims, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                               swizzle, l2, oob),
        std::string("cuTensorMapEncodeTiled for ") + v.name);
}
} // namespace detail
)cpp";

const char *dtypeEnum(const std::string &d) {
  if (d == "bf16") return "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
  if (d == "f16") return "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
  if (d == "f32") return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
  // The 1-byte floats move as bytes (the kernel converts them itself).
  if (d == "e4m3" || d == "e5m2" || d == "e8m0") return "CU_TENSOR_MAP_DATA_TYPE_UINT8";
  return "CU_TENSOR_MAP_DATA_TYPE_INT32";
}
const char *swizzleEnum(const std::string &s) {
  if (s == "32B") return "CU_TENSOR_MAP_SWIZZLE_32B";
  if (s == "64B") return "CU_TENSOR_MAP_SWIZZLE_64B";
  if (s == "128B") return "CU_TENSOR_MAP_SWIZZLE_128B";
  return "CU_TENSOR_MAP_SWIZZLE_NONE";
}
const char *l2Enum(const std::string &s) {
  if (s == "64B") return "CU_TENSOR_MAP_L2_PROMOTION_L2_64B";
  if (s == "128B") return "CU_TENSOR_MAP_L2_PROMOTION_L2_128B";
  if (s == "256B") return "CU_TENSOR_MAP_L2_PROMOTION_L2_256B";
  return "CU_TENSOR_MAP_L2_PROMOTION_NONE";
}
std::string ctype(const std::string &d) {
  for (const char *known : {"bf16", "f16", "f32", "e4m3", "e5m2", "e8m0"})
    if (d == known)
      return d;
  return "i32";
}

std::string join(const std::vector<std::string> &v, const std::string &sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? sep : "") + v[i];
  return s;
}

std::string ints(const std::vector<int64_t> &v) {
  std::vector<std::string> s;
  for (int64_t x : v)
    s.push_back(std::to_string(x));
  return "{" + join(s, ", ") + "}";
}

std::string pointerParams(const Model &m) {
  std::vector<std::string> p;
  for (const TensorArg &t : m.tensors)
    p.push_back("CUdeviceptr " + t.ident);
  return join(p, ", ");
}

std::string pointerArgs(const Model &m) {
  std::vector<std::string> p;
  for (const TensorArg &t : m.tensors)
    p.push_back(t.ident);
  return join(p, ", ");
}

std::string guardName(const Model &m) {
  std::string g = "STAGECRAFT_EXPORT_";
  for (char c : m.package)
    g += char(toupper(static_cast<unsigned char>(c)));
  return g + "_H";
}

} // namespace

std::string stagecraft::exporter::emitCppHeader(const Model &m) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "// " << m.package << ".h: the Stagecraft kernel " << m.kernel
     << " (sm_90a), exported.\n";
  os << "// Generated by stagecraft-compile --export; edits are lost on the next export.\n";
  os << "//\n// CUDA driver API only (cuda.h; link with -lcuda). Use it from a thread whose\n"
        "// current CUDA context is on an sm_90 GPU (the CUDA runtime's primary context is\n"
        "// fine):\n//\n";
  os << "//   " << m.package << "::Kernel kernel(" << m.package << "_cubin);   // "
     << m.package << "_cubin.h, or Kernel::fromFile(\"kernel.cubin\")\n";
  os << "//   kernel.launch(" << pointerArgs(m) << ", {";
  for (size_t i = 0; i < m.sizes.size(); ++i)
    os << (i ? ", " : "") << m.sizes[i].ident;
  os << "}, stream);\n//\n";
  os << "// Tensors are dense row-major device buffers:\n";
  for (const TensorArg &t : m.tensors)
    os << "//   " << t.ident << "  " << t.dtype << "  " << tupleText(t.naturalText()) << "  "
       << t.role << "\n";
  if (!m.steadyState.empty())
    os << "// Schedule: steady state " << m.steadyState << ". See README.md.\n";
  os << "#ifndef " << guardName(m) << "\n#define " << guardName(m) << "\n\n";
  os << "#include <cuda.h>\n\n#include <cstdint>\n#include <fstream>\n#include <initializer_list>\n"
        "#include <iterator>\n#include <stdexcept>\n#include <string>\n#include <utility>\n"
        "#include <vector>\n\n";
  os << "namespace " << m.package << " {\n";
  os << kDetail;

  os << "\n/// The kernel's entry point in the cubin.\n";
  os << "inline const char *kernelName() { return \"" << m.kernel << "\"; }\n";
  os << "/// Block, dynamic shared memory" << (m.cluster ? " and cluster" : "")
     << ": fixed by the schedule.\n";
  os << "constexpr unsigned kBlock[3] = {" << m.block[0] << ", " << m.block[1] << ", "
     << m.block[2] << "};\n";
  os << "constexpr unsigned kDynamicSmemBytes = " << m.dynamicSmem << ";\n";
  if (m.cluster)
    os << "constexpr unsigned kCluster[3] = {" << (*m.cluster)[0] << ", " << (*m.cluster)[1]
       << ", " << (*m.cluster)[2] << "};\n";

  os << "\n/// The problem sizes; the defaults are the sizes it was compiled and checked at.\n";
  os << "struct Sizes {\n";
  for (const SizeInfo &s : m.sizes)
    os << "  int64_t " << s.ident << " = " << s.compiled << ";\n";
  os << "};\n\n";

  os << "/// Shapes of the tensors (outermost first, elements) and their element types.\n";
  os << "namespace shape {\n";
  for (const TensorArg &t : m.tensors) {
    // (void)s: a constant shape (an FP8 scale's (1)) reads no size, and a
    // project building with -Wextra -Werror refused the unused parameter.
    os << "inline std::vector<int64_t> " << t.ident << "(const Sizes &s) { (void)s; return {"
       << join(t.naturalCpp("s."), ", ") << "}; }  // " << tupleText(t.naturalText()) << "\n";
  }
  os << "inline int64_t elements(const std::vector<int64_t> &shape) {\n"
        "  int64_t n = 1;\n  for (int64_t d : shape) n *= d;\n  return n;\n}\n";
  os << "} // namespace shape\n";
  os << "namespace element_bytes {\n";
  for (const TensorArg &t : m.tensors)
    os << "constexpr int64_t " << t.ident << " = " << t.elemBytes << ";  // " << t.dtype
       << "\n";
  os << "} // namespace element_bytes\n\n";

  os << "/// The launch grid at these sizes: " << join(m.gridText, ", ") << ".\n";
  os << "inline std::vector<int64_t> grid(const Sizes &s) {\n  (void)s;\n  return {";
  for (size_t d = 0; d < 3; ++d)
    os << (d ? ", " : "") << (d < m.grid.size() ? m.grid[d].cpp("s.") : "int64_t(1)");
  os << "};\n}\n\n";

  // check(): no CUDA calls.
  os << "/// Checks sizes, shapes, strides and alignment without calling CUDA: \"\" when\n"
        "/// launch() can use these arguments, else the reason.\n";
  os << "inline std::string check(" << pointerParams(m) << ", const Sizes &s) {\n";
  for (const SizeInfo &s : m.sizes)
    os << "  if (s." << s.ident << " < 1 || s." << s.ident
       << " > 2147483647) return \"size " << s.ident << " = \" + std::to_string(s." << s.ident
       << ") + \" is outside 1..2^31-1\";\n";
  for (const SizeInfo &s : m.sizes)
    if (s.multipleOf > 1)
      os << "  if (s." << s.ident << " % " << s.multipleOf << " != 0) return \"size " << s.ident
         << " = \" + std::to_string(s." << s.ident << ") + \" must be a multiple of "
         << s.multipleOf << ": a load's innermost coordinate follows it, and TMA starts a copy "
            "at a 16-byte unit\";\n";
  os << "  std::vector<int64_t> g = grid(s);\n";
  os << "  const int64_t limit[3] = {2147483647, 65535, 65535};\n";
  os << "  for (int d = 0; d < 3; ++d)\n"
        "    if (g[d] < 1 || g[d] > limit[d])\n"
        "      return \"grid dimension \" + std::to_string(d) + \" is \" + "
        "std::to_string(g[d]) + \" at these sizes, outside 1..\" + std::to_string(limit[d]);\n";
  if (m.cluster)
    os << "  for (int d = 0; d < 3; ++d)\n"
          "    if (g[d] % kCluster[d] != 0)\n"
          "      return \"grid dimension \" + std::to_string(d) + \" is \" + std::to_string(g[d]) + "
          "\" at these sizes, not a multiple of the cluster's \" + std::to_string(kCluster[d]) + "
          "\": a cluster's CTAs launch together\";\n";
  for (const TensorArg &t : m.tensors) {
    std::vector<std::string> view;
    for (const Expr &e : t.view)
      view.push_back(e.cpp("s."));
    // v_why: the v_ prefix is the header's own (no tensor is named so), a
    // tensor `e` shadowed the `e` this was (the fifteenth sweep's B4).
    os << "  if (std::string v_why = detail::checkView(detail::dense(\"" << t.ident << "\", "
       << t.ident << ", {" << join(view, ", ") << "}, " << t.elemBytes
       << ")); !v_why.empty()) return v_why;\n";
  }
  // An output the same memory as another argument: the kernel's stores race
  // with its loads (run() refuses it too).
  for (size_t i = 0; i < m.tensors.size(); ++i)
    for (size_t j = 0; j < m.tensors.size(); ++j)
      if (i != j && m.tensors[i].role == "output" && (m.tensors[j].role != "output" || j < i))
        os << "  if (" << m.tensors[i].ident << " == " << m.tensors[j].ident
           << ") return \"" << m.tensors[j].ident << " and " << m.tensors[i].ident
           << " are the same memory; an output must not alias another tensor\";\n";
  os << "  return \"\";\n}\n\n";

  os << "class Kernel {\npublic:\n";
  os << "  /// Loads the kernel into the current context from a cubin image in memory.\n";
  os << "  explicit Kernel(const void *cubin) {\n";
  os << "    CUdevice device;\n";
  os << "    detail::check(cuCtxGetDevice(&device), \"" << m.package
     << ": no current CUDA context (cuCtxGetDevice)\");\n";
  os << "    int major = 0, minor = 0;\n";
  os << "    detail::check(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "
        "device), \"cuDeviceGetAttribute\");\n";
  os << "    detail::check(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "
        "device), \"cuDeviceGetAttribute\");\n";
  os << "    if (major != 9 || minor != 0)\n";
  os << "      throw Error(\"" << m.package << ": the current device is sm_\" + "
        "std::to_string(major) + std::to_string(minor) + \"; this kernel is sm_90a machine "
        "code (H100, H200)\");\n";
  os << "    detail::check(cuModuleLoadData(&module_, cubin), \"" << m.package
     << ": loading the cubin (cuModuleLoadData)\");\n";
  os << "    CUresult r = cuModuleGetFunction(&function_, module_, kernelName());\n";
  os << "    if (r == CUDA_SUCCESS)\n";
  os << "      r = cuFuncSetAttribute(function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "
        "int(kDynamicSmemBytes));\n";
  if (m.cluster && (*m.cluster)[0] * (*m.cluster)[1] * (*m.cluster)[2] > 8)
    os << "    if (r == CUDA_SUCCESS)\n      r = cuFuncSetAttribute(function_, "
          "CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);\n";
  os << "    if (r != CUDA_SUCCESS) {\n      cuModuleUnload(module_);\n      module_ = nullptr;\n"
     << "      detail::check(r, \"" << m.package << ": preparing " << m.kernel << "\");\n    }\n";
  os << "  }\n";
  os << "  /// Loads the kernel from a cubin file (the package's kernel.cubin).\n";
  os << "  static Kernel fromFile(const std::string &path) {\n"
        "    std::ifstream in(path, std::ios::binary);\n"
        "    if (!in) throw Error(\"" << m.package << ": cannot read \" + path);\n"
        "    std::vector<char> image((std::istreambuf_iterator<char>(in)), "
        "std::istreambuf_iterator<char>());\n"
        "    return Kernel(image.data());\n  }\n";
  os << "  Kernel(Kernel &&o) noexcept : module_(std::exchange(o.module_, nullptr)),\n"
        "                                 function_(std::exchange(o.function_, nullptr)) {}\n";
  os << "  Kernel &operator=(Kernel &&o) noexcept {\n"
        "    std::swap(module_, o.module_);\n    std::swap(function_, o.function_);\n"
        "    return *this;\n  }\n";
  os << "  Kernel(const Kernel &) = delete;\n  Kernel &operator=(const Kernel &) = delete;\n";
  os << "  ~Kernel() {\n    if (module_) cuModuleUnload(module_);\n  }\n\n";

  os << "  /// Checks the arguments (check(), then that each pointer is device memory of the\n"
        "  /// current device with room for its tensor), encodes the tensor maps and\n"
        "  /// launches on `stream`. Throws Error; a bad argument never reaches the GPU.\n";
  os << "  void launch(" << pointerParams(m) << ", const Sizes &s, CUstream stream = nullptr) const {\n";
  os << "    std::string problem = check(" << pointerArgs(m) << ", s);\n";
  os << "    if (!problem.empty()) throw Error(\"" << m.package << ": \" + problem);\n";
  os << "    CUdevice device;\n    detail::check(cuCtxGetDevice(&device), \"" << m.package
     << ": no current CUDA context (cuCtxGetDevice)\");\n";
  int maps = 0;
  for (const TensorArg &t : m.tensors)
    maps += t.access == "tensormap";
  if (maps)
    // CUtensorMap carries its alignment (128 bytes in CUDA 13's cuda.h, 64
    // before): an alignas weaker than the type's is ill-formed (clang++
    // refused every header: the ninth sweep's B9).
    os << "    CUtensorMap maps[" << maps << "];\n";
  int mapIndex = 0;
  std::vector<std::string> argPtrs;
  std::vector<std::string> tensorArgExpr(m.tensors.size());
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const TensorArg &t = m.tensors[i];
    std::vector<std::string> view;
    for (const Expr &e : t.view)
      view.push_back(e.cpp("s."));
    os << "    detail::View v_" << t.ident << " = detail::dense(\"" << t.ident << "\", "
       << t.ident << ", {" << join(view, ", ") << "}, " << t.elemBytes << ");\n";
    os << "    detail::checkDeviceMemory(v_" << t.ident << ", device);\n";
    if (t.access == "tensormap") {
      std::vector<int64_t> estr = t.elementStrides;
      os << "    detail::encode(&maps[" << mapIndex << "], v_" << t.ident << ", "
         << dtypeEnum(t.dtype) << ", " << ints(t.box) << ", " << ints(estr) << ", "
         << swizzleEnum(t.swizzle) << ", " << l2Enum(t.l2Promotion) << ", "
         << (t.oobFill == "nan" ? "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA"
                                : "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE")
         << ");\n";
      tensorArgExpr[i] = "&maps[" + std::to_string(mapIndex++) + "]";
    } else {
      tensorArgExpr[i] = "&" + t.ident + "_value";
      os << "    CUdeviceptr " << t.ident << "_value = " << t.ident << ";\n";
    }
  }
  for (const SizeInfo &s : m.sizes)
    os << "    " << (s.dtype == "i64" ? "int64_t " : "int32_t ") << "p_" << s.ident
       << " = " << (s.dtype == "i64" ? "int64_t" : "int32_t") << "(s." << s.ident << ");\n";
  for (const Param &p : m.params)
    argPtrs.push_back(p.kind == Param::Kind::Tensor ? tensorArgExpr[p.index]
                                                    : "&p_" + m.sizes[p.index].ident);
  os << "    void *params[] = {";
  for (size_t i = 0; i < argPtrs.size(); ++i)
    os << (i ? ", " : "") << "const_cast<void *>(static_cast<const void *>(" << argPtrs[i]
       << "))";
  if (argPtrs.empty())
    os << "nullptr";
  os << "};\n";
  os << "    std::vector<int64_t> g = grid(s);\n";
  if (m.cluster) {
    os << "    CUlaunchAttribute cluster{};\n"
          "    cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;\n"
          "    cluster.value.clusterDim.x = kCluster[0];\n"
          "    cluster.value.clusterDim.y = kCluster[1];\n"
          "    cluster.value.clusterDim.z = kCluster[2];\n";
  }
  os << "    CUlaunchConfig config{};\n"
        "    config.gridDimX = unsigned(g[0]);\n    config.gridDimY = unsigned(g[1]);\n"
        "    config.gridDimZ = unsigned(g[2]);\n"
        "    config.blockDimX = kBlock[0];\n    config.blockDimY = kBlock[1];\n"
        "    config.blockDimZ = kBlock[2];\n"
        "    config.sharedMemBytes = kDynamicSmemBytes;\n    config.hStream = stream;\n";
  if (m.cluster)
    os << "    config.attrs = &cluster;\n    config.numAttrs = 1;\n";
  os << "    detail::check(cuLaunchKernelEx(&config, function_, params, nullptr), \""
     << m.package << ": cuLaunchKernelEx(" << m.kernel << ")\");\n";
  os << "  }\n\n";
  os << "  CUfunction function() const { return function_; }\n\n";
  os << "private:\n  CUmodule module_ = nullptr;\n  CUfunction function_ = nullptr;\n};\n\n";
  os << "} // namespace " << m.package << "\n\n#endif // " << guardName(m) << "\n";
  return out;
}

std::string stagecraft::exporter::emitCubinHeader(const Model &m, const std::string &cubin) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "// " << m.package << "_cubin.h: the sm_90a cubin of " << m.kernel
     << " as bytes (the package's kernel.cubin), for " << m.package << "::Kernel.\n";
  os << "// Generated by stagecraft-compile --export.\n";
  os << "#ifndef " << guardName(m) << "_CUBIN\n#define " << guardName(m) << "_CUBIN\n\n";
  os << "alignas(64) static const unsigned char " << m.package << "_cubin[" << cubin.size()
     << "] = {";
  for (size_t i = 0; i < cubin.size(); ++i) {
    if (i % 16 == 0)
      os << "\n   ";
    os << llvm::formatv(" 0x{0:x-2},", static_cast<unsigned char>(cubin[i]));
  }
  os << "\n};\n\n#endif\n";
  return out;
}

// --- example.cpp ------------------------------------------------------------

namespace {

const char *kExampleSupport = R"cpp(
// Host-side element conversions (no CUDA headers beyond cuda.h).
static float fromBits(uint32_t b) { float f; std::memcpy(&f, &b, 4); return f; }
static uint32_t toBits(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }
static float bf16ToFloat(uint16_t h) { return fromBits(uint32_t(h) << 16); }
static uint16_t floatToBf16(float f) {
  uint32_t b = toBits(f);
  if ((b & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;  // NaN
  return uint16_t((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);  // round to nearest even
}
static float f16ToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f) return fromBits(sign | 0x7f800000u | (man << 13));
  if (exp == 0) return (sign ? -1.0f : 1.0f) * std::ldexp(float(man), -24);
  return fromBits(sign | ((exp + 112) << 23) | (man << 13));
}
static uint16_t floatToF16(float f) {
  uint32_t b = toBits(f), sign = (b >> 16) & 0x8000u;
  float a = std::fabs(f);
  if (std::isnan(f)) return uint16_t(sign | 0x7e00u);
  if (a >= 65520.0f) return uint16_t(sign | 0x7c00u);
  if (a < 6.103515625e-05f) return uint16_t(sign | uint16_t(std::nearbyint(a * 16777216.0f)));
  uint32_t e = ((b >> 23) & 0xff) - 112, m = b & 0x7fffffu;
  uint32_t h = (e << 10) | (m >> 13), rest = m & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return uint16_t(sign | h);
}

// FP8 (float8_e4m3fn, float8_e5m2) and e8m0 (2^(b - 127)) bytes. Encoding
// rounds to nearest even and saturates at the largest finite value, as the
// kernels and the runner's inputs do.
static float fp8ToFloat(uint8_t b, bool e5m2) {
  int man = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  int e = (b & 0x7f) >> man, m = b & ((1 << man) - 1);
  float sign = (b & 0x80) ? -1.0f : 1.0f;
  if (e5m2 && e == 31) return m ? std::nanf("") : sign * INFINITY;
  if (!e5m2 && (b & 0x7f) == 0x7f) return std::nanf("");
  if (e == 0) return sign * std::ldexp(float(m), 1 - bias - man);
  return sign * std::ldexp(float((1 << man) + m), e - bias - man);
}
static uint8_t floatToFp8(float f, bool e5m2) {
  int man = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7, emin = 1 - bias;
  float largest = e5m2 ? 57344.0f : 448.0f;
  if (std::isnan(f)) return 0x7f;
  uint8_t sign = std::signbit(f) ? 0x80 : 0;
  float a = std::fmin(std::fabs(f), largest);
  int e = 0;
  std::frexp(a, &e);  // a = m 2^e, m in [0.5, 1)
  e = std::max(e - 1, emin);
  float q = std::ldexp(1.0f, e - man), r = std::fmin(std::nearbyint(a / q) * q, largest);
  if (r == 0) return sign;
  std::frexp(r, &e);
  e -= 1;
  if (e < emin) return uint8_t(sign | int(r / std::ldexp(1.0f, emin - man)));
  int m = int((r / std::ldexp(1.0f, e) - 1.0f) * float(1 << man));
  return uint8_t(sign | ((e + bias) << man) | m);
}

/// A host copy of one tensor, as floats, and its device buffer.
struct Tensor {
  std::string name, dtype;
  std::vector<int64_t> shape;
  int64_t elemBytes = 2;
  std::vector<unsigned char> host;
  CUdeviceptr device = 0;
  int64_t elements() const { int64_t n = 1; for (int64_t d : shape) n *= d; return n; }
  size_t bytes() const { return size_t(elements() * elemBytes); }
  float at(int64_t i) const {
    const unsigned char *p = host.data() + i * elemBytes;
    uint16_t h; uint32_t w;
    if (dtype == "e4m3" || dtype == "e5m2") return fp8ToFloat(*p, dtype == "e5m2");
    if (dtype == "e8m0") return *p == 0xff ? std::nanf("") : std::ldexp(1.0f, int(*p) - 127);
    if (dtype == "bf16") { std::memcpy(&h, p, 2); return bf16ToFloat(h); }
    if (dtype == "f16") { std::memcpy(&h, p, 2); return f16ToFloat(h); }
    std::memcpy(&w, p, 4);
    return dtype == "f32" ? fromBits(w) : float(int32_t(w));
  }
  void set(int64_t i, float v) {
    unsigned char *p = host.data() + i * elemBytes;
    if (dtype == "e4m3" || dtype == "e5m2") *p = floatToFp8(v, dtype == "e5m2");
    // e8m0: 2^round(v), powers of two near 1 for draws in [-1, 1).
    else if (dtype == "e8m0") *p = uint8_t(127 + int(std::nearbyint(v)));
    else if (dtype == "bf16") { uint16_t h = floatToBf16(v); std::memcpy(p, &h, 2); }
    else if (dtype == "f16") { uint16_t h = floatToF16(v); std::memcpy(p, &h, 2); }
    else if (dtype == "f32") { uint32_t w = toBits(v); std::memcpy(p, &w, 4); }
    else { int32_t w = int32_t(v); std::memcpy(p, &w, 4); }
  }
};

static void cu(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *name = nullptr;
    cuGetErrorName(r, &name);
    std::fprintf(stderr, "example: %s: %s\n", what, name ? name : "CUDA error");
    std::exit(2);
  }
}

/// Uniform in [lo, hi) (the IR's tile.init, else [-1, 1)), the same on every
/// machine; an i32 element is the draw rounded down.
static void fillUniform(Tensor &t, uint64_t seed, double lo = -1.0, double hi = 1.0) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int64_t i = 0; i < t.elements(); ++i) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    double v = lo + (hi - lo) * (double(x >> 11) / double(1ull << 53));
    if (t.dtype == "i32") { // in integers: a float loses them above 2^24
      int32_t w = int32_t(std::min(std::floor(v), std::ceil(hi) - 1)); // below hi
      std::memcpy(t.host.data() + i * 4, &w, 4);
    } else {
      t.set(i, float(v));
    }
  }
}

/// Errors relative to the reference's largest magnitude (as stagecraft-run measures).
struct Check {
  double maxAbsErr = 0, maxAbsRef = 0;
  long nonfinite = 0, compared = 0;
  void add(double out, double ref) {
    ++compared;
    if (!std::isfinite(out)) { ++nonfinite; return; }
    maxAbsErr = std::max(maxAbsErr, std::fabs(out - ref));
    maxAbsRef = std::max(maxAbsRef, std::fabs(ref));
  }
  double relErr() const { return maxAbsRef > 0 ? maxAbsErr / maxAbsRef : 0; }
  bool ok() const { return compared > 0 && nonfinite == 0 && maxAbsRef > 0 && relErr() <= 2e-2; }
};

/// C[M, N] = A[M, K] B^T (B is [N, K]) or A B (B is [K, N]), sampled entries.
[[maybe_unused]] static Check checkGemm(const Tensor &a, const Tensor &b, const Tensor &c, int64_t M, int64_t N,
                       int64_t K, bool transposeB, double scale = 1.0) {
  Check chk;
  uint64_t x = 12345;
  for (int s = 0; s < 256; ++s) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    int64_t m = int64_t((x >> 33) % uint64_t(M)), n = int64_t((x >> 13) % uint64_t(N));
    if (s == 0) { m = 0; n = 0; }
    if (s == 1) { m = M - 1; n = N - 1; }
    double ref = 0;
    for (int64_t k = 0; k < K; ++k)
      ref += double(a.at(m * K + k)) * double(transposeB ? b.at(n * K + k) : b.at(k * N + n));
    chk.add(c.at(m * N + n), scale * ref);
  }
  return chk;
}

/// O = softmax(scale Q K^T [causal]) V per (batch*head) for sampled query rows;
/// tensors are [BH, S, D].
[[maybe_unused]] static Check checkAttention(const Tensor &q, const Tensor &k, const Tensor &v, const Tensor &o,
                            int64_t BH, int64_t S, int64_t D, double scale, bool causal) {
  Check chk;
  uint64_t x = 777;
  std::vector<double> p(size_t(S), 0.0);
  for (int s = 0; s < 24; ++s) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    int64_t bh = int64_t((x >> 33) % uint64_t(BH)), i = int64_t((x >> 13) % uint64_t(S));
    if (s == 0) { bh = 0; i = 0; }
    if (s == 1) { bh = BH - 1; i = S - 1; }
    const int64_t base = bh * S * D;
    double mx = -1e300;
    int64_t keys = causal ? i + 1 : S;
    for (int64_t j = 0; j < keys; ++j) {
      double dot = 0;
      for (int64_t d = 0; d < D; ++d)
        dot += double(q.at(base + i * D + d)) * double(k.at(base + j * D + d));
      p[size_t(j)] = dot * scale;
      mx = std::max(mx, p[size_t(j)]);
    }
    double sum = 0;
    for (int64_t j = 0; j < keys; ++j) sum += (p[size_t(j)] = std::exp(p[size_t(j)] - mx));
    for (int64_t d = 0; d < D; ++d) {
      double ref = 0;
      for (int64_t j = 0; j < keys; ++j) ref += p[size_t(j)] * double(v.at(base + j * D + d));
      chk.add(o.at(base + i * D + d), ref / sum);
    }
  }
  return chk;
}

)cpp";

/// The GEMM's M, K and N in the example: from the 2-D views of A and C (rows
/// x columns of the row-major tensors), not the natural shapes, whose first
/// two dimensions are M and K only where they are the view's (a [BT, M, K]
/// tensor viewed as [BT * M, K] was checked as M = BT: the ninth sweep's B2).
static std::string gemmSizes(const Model &m, int a, int c) {
  return "    const int64_t M = " + m.tensors[a].view[0].cpp("s.") +
         ", K = " + m.tensors[a].view[1].cpp("s.") + ", N = " + m.tensors[c].view[1].cpp("s.") +
         ";\n";
}

} // namespace

std::string stagecraft::exporter::emitCppExample(const Model &m) {
  std::string out;
  llvm::raw_string_ostream os(out);
  const std::string &P = m.package;
  os << "// example.cpp: runs the exported " << m.kernel
     << " once on random inputs, times it and checks it on the CPU.\n";
  os << "// Generated by stagecraft-compile --export. Build and run (CUDA 12 or newer, an "
        "sm_90 GPU):\n//\n";
  os << "//   nvcc -std=c++17 -O2 -o example example.cpp -lcuda\n";
  os << "//   ./example";
  for (const SizeInfo &s : m.sizes)
    os << " " << s.ident << "=" << s.compiled;
  os << "\n//\n// Sizes default to the compiled ones. Exit status: 0 checked and right, 1 wrong,\n"
        "// 2 a CUDA or argument error.\n";
  os << "#include \"" << P << ".h\"\n#include \"" << P << "_cubin.h\"\n\n";
  os << "#include <algorithm>\n#include <cmath>\n#include <cstdio>\n#include <cstdlib>\n"
        "#include <cstring>\n#include <string>\n#include <vector>\n";
  os << kExampleSupport;
  os << "\nint main(int argc, char **argv) {\n";
  os << "  " << P << "::Sizes s;\n";
  os << "  for (int i = 1; i < argc; ++i) {\n"
        "    std::string a = argv[i];\n"
        "    size_t eq = a.find('=');\n"
        "    char *end = nullptr;\n"
        "    long long v = eq == std::string::npos ? 0 : std::strtoll(a.c_str() + eq + 1, &end, 10);\n"
        "    std::string name = a.substr(0, eq);\n"
        "    if (eq == std::string::npos || !end || *end || end == a.c_str() + eq + 1) {\n"
        "      std::fprintf(stderr, \"example: expected NAME=VALUE, got %s\\n\", a.c_str());\n"
        "      return 2;\n    }\n";
  for (const SizeInfo &s : m.sizes)
    os << "    if (name == \"" << s.ident << "\") { s." << s.ident << " = v; continue; }\n";
  os << "    std::fprintf(stderr, \"example: unknown size %s (sizes:";
  for (const SizeInfo &s : m.sizes)
    os << " " << s.ident;
  os << ")\\n\", name.c_str());\n    return 2;\n  }\n";
  os << "  cu(cuInit(0), \"cuInit\");\n  CUdevice dev;\n  cu(cuDeviceGet(&dev, 0), \"cuDeviceGet\");\n"
        "  CUcontext ctx;\n  cu(cuDevicePrimaryCtxRetain(&ctx, dev), \"cuDevicePrimaryCtxRetain\");\n"
        "  cu(cuCtxSetCurrent(ctx), \"cuCtxSetCurrent\");\n";
  os << "  std::vector<Tensor> t(" << m.tensors.size() << ");\n";
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const TensorArg &a = m.tensors[i];
    os << "  t[" << i << "] = Tensor{\"" << a.ident << "\", \"" << ctype(a.dtype) << "\", " << P
       << "::shape::" << a.ident << "(s), " << a.elemBytes << ", {}, 0};  // " << a.role << "\n";
  }
  os << "  try {\n";
  os << "    std::string problem = " << P << "::check(";
  for (size_t i = 0; i < m.tensors.size(); ++i)
    os << (i ? ", " : "") << "CUdeviceptr(" << 256 * (i + 1) << ")"; // apart: check() refuses aliases
  os << ", s);\n";
  os << "    if (!problem.empty()) throw " << P << "::Error(problem);\n";
  os << "    for (size_t i = 0; i < t.size(); ++i) {\n"
        "      t[i].host.assign(t[i].bytes(), 0xff);  // outputs start as NaN\n"
        "      cu(cuMemAlloc(&t[i].device, t[i].bytes()), \"cuMemAlloc\");\n"
        "    }\n";
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const TensorArg &a = m.tensors[i];
    if (a.role == "output")
      continue;
    os << "    fillUniform(t[" << i << "], " << i + 1;
    if (a.initBounds) {
      std::string helpers = P + "::detail::"; // main() is outside the header's namespace
      os << ", double(" << a.initBounds->first.cpp("s.", helpers) << "), double("
         << a.initBounds->second.cpp("s.", helpers) << ")";
    } else if (a.initRange) {
      os << ", " << exactNumber(a.initRange->first) << ", " << exactNumber(a.initRange->second);
    }
    os << ");" << (a.initBounds || a.initRange ? "  // the IR's tile.init" : "") << "\n";
  }
  os << "    for (Tensor &x : t)\n"
        "      cu(cuMemcpyHtoD(x.device, x.host.data(), x.bytes()), \"cuMemcpyHtoD\");\n";
  os << "    " << P << "::Kernel kernel(" << P << "_cubin);\n";
  os << "    CUstream stream;\n    cu(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), \"cuStreamCreate\");\n";
  std::string ptrs;
  for (size_t i = 0; i < m.tensors.size(); ++i)
    ptrs += (i ? ", " : "") + std::string("t[") + std::to_string(i) + "].device";
  os << "    kernel.launch(" << ptrs << ", s, stream);\n";
  os << "    cu(cuStreamSynchronize(stream), \"the kernel\");\n";
  os << "    for (Tensor &x : t)\n"
        "      cu(cuMemcpyDtoH(x.host.data(), x.device, x.bytes()), \"cuMemcpyDtoH\");\n";
  // Timing.
  os << "    CUevent start, stop;\n    cu(cuEventCreate(&start, 0), \"cuEventCreate\");\n"
        "    cu(cuEventCreate(&stop, 0), \"cuEventCreate\");\n"
        "    const int reps = 20;\n"
        "    cu(cuEventRecord(start, stream), \"cuEventRecord\");\n"
        "    for (int r = 0; r < reps; ++r) kernel.launch(" << ptrs << ", s, stream);\n"
        "    cu(cuEventRecord(stop, stream), \"cuEventRecord\");\n"
        "    cu(cuEventSynchronize(stop), \"the timed launches\");\n"
        "    float ms = 0;\n    cu(cuEventElapsedTime(&ms, start, stop), \"cuEventElapsedTime\");\n"
        "    double us = 1000.0 * ms / reps;\n";
  os << "    std::printf(\"" << m.kernel << " at";
  for (const SizeInfo &s : m.sizes)
    os << " " << s.ident << "=%lld";
  os << ": %.1f us per launch (events, mean of %d)\\n\"";
  for (const SizeInfo &s : m.sizes)
    os << ", (long long)s." << s.ident;
  os << ", us, reps);\n";

  // The CPU check, from the manifest's reference.
  int a = m.referenceTensor("a"), b = m.referenceTensor("b"), c = m.referenceTensor("c");
  int q = m.referenceTensor("q"), k = m.referenceTensor("k"), v = m.referenceTensor("v"),
      o = m.referenceTensor("o");
  bool checked = false;
  if (m.referenceKind == "gemm" && a >= 0 && b >= 0 && c >= 0 &&
      m.tensors[a].view.size() == 2 && m.tensors[b].view.size() == 2 &&
      m.tensors[c].view.size() == 2) {
    bool tb = m.reference.getBoolean("transpose_b").value_or(true);
    os << gemmSizes(m, a, c);
    os << "    std::printf(\"%.1f TFLOP/s\\n\", 2.0 * M * N * K / us * 1e-6);\n";
    os << "    Check chk = checkGemm(t[" << a << "], t[" << b << "], t[" << c << "], M, N, K, "
       << (tb ? "true" : "false") << ");\n";
    os << "    const char *what = \"C = A B" << (tb ? "^T" : "") << "\";\n";
    checked = true;
  } else if (m.referenceKind == "gemm_fp8" && a >= 0 && b >= 0 && c >= 0 &&
             m.tensors[a].view.size() == 2 && m.tensors[b].view.size() == 2 &&
             m.tensors[c].view.size() == 2) {
    // C = sa sb A B^T with K-major FP8 A and B (the host decodes their bytes)
    // and per-tensor scales read from element 0 of their tensors.
    int sa = m.referenceTensor("scale_a"), sb = m.referenceTensor("scale_b");
    os << gemmSizes(m, a, c);
    os << "    std::printf(\"%.1f TFLOP/s\\n\", 2.0 * M * N * K / us * 1e-6);\n";
    auto scaleOf = [](int i) {
      return i >= 0 ? "double(t[" + std::to_string(i) + "].at(0))" : std::string("1.0");
    };
    os << "    const double scale = " << scaleOf(sa) << " * " << scaleOf(sb) << ";\n";
    os << "    Check chk = checkGemm(t[" << a << "], t[" << b << "], t[" << c
       << "], M, N, K, true, scale);\n";
    os << "    const char *what = \"C = sa sb A B^T (FP8 A and B)\";\n";
    checked = true;
  } else if (m.referenceKind == "attention" && q >= 0 && k >= 0 && v >= 0 && o >= 0) {
    bool causal = m.reference.getBoolean("causal").value_or(false);
    double scale = m.reference.getNumber("sm_scale").value_or(0);
    // [BH, S, D] from the natural shapes: everything but the last two is BH.
    os << "    int64_t BH = 1;\n    for (size_t d = 0; d + 2 < t[" << q
       << "].shape.size(); ++d) BH *= t[" << q << "].shape[d];\n";
    os << "    const int64_t S = t[" << q << "].shape[t[" << q << "].shape.size() - 2], D = t["
       << q << "].shape.back();\n";
    os << "    std::printf(\"%.1f TFLOP/s\\n\", 4.0 * BH * D * "
       << (causal ? "(S * (S + 1) / 2.0)" : "double(S) * S") << " / us * 1e-6);\n";
    os << "    Check chk = checkAttention(t[" << q << "], t[" << k << "], t[" << v << "], t["
       << o << "], BH, S, D, " << llvm::formatv("{0:e}", scale) << ", "
       << (causal ? "true" : "false") << ");\n";
    os << "    const char *what = \"O = softmax(" << shortNumber(scale)
       << " Q K^T" << (causal ? ", causal" : "") << ") V\";\n";
    checked = true;
  }
  if (checked) {
    os << "    std::printf(\"CPU check of %s: %ld sampled values, max |err| / max |ref| = %.3g, "
          "%ld not finite: %s\\n\", what, chk.compared, chk.relErr(), chk.nonfinite, chk.ok() "
          "? \"ok\" : \"WRONG\");\n";
    os << "    return chk.ok() ? 0 : 1;\n";
  } else {
    os << "    std::printf(\"no CPU reference for a kernel of reference kind \\\""
       << m.referenceKind << "\\\": ran it, did not check its values\\n\");\n";
    // Still: are its outputs written? They start as NaN (bytes 0xFF), so an
    // element no program wrote stays one (every unchecked package said
    // nothing of a kernel that wrote nothing: the ninth sweep's M1).
    for (size_t i = 0; i < m.tensors.size(); ++i) {
      const TensorArg &t = m.tensors[i];
      if ((t.role != "output" && t.role != "inout") || t.dtype == "i32")
        continue;
      os << "    {\n      int64_t bad = 0, n = t[" << i << "].elements();\n"
         << "      for (int64_t e = 0; e < n; ++e) bad += !std::isfinite(t[" << i << "].at(e));\n"
         << "      std::printf(\"" << t.name
         << ": %lld of %lld elements NaN or infinite%s\\n\", (long long)bad, (long long)n, bad ? "
            "\" (unwritten, as outputs start as NaN; or overflowed)\" : \"\");\n    }\n";
    }
    os << "    return 0;\n";
  }
  os << "  } catch (const " << P << "::Error &e) {\n"
        "    std::fprintf(stderr, \"example: %s\\n\", e.what());\n    return 2;\n  }\n}\n";
  return out;
}
