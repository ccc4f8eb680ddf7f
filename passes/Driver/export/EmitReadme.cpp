//===- EmitReadme.cpp - README.md of an exported package ------------------===//
#include "passes/Driver/export/Emit.h"

#include <set>
#include <optional>
#include <map>
#include <cstdio>
#include <cstdlib>
#include <cmath>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace stagecraft::exporter;

namespace {

std::string torchDtype(const std::string &d) {
  if (d == "bf16") return "torch.bfloat16";
  if (d == "f16") return "torch.float16";
  if (d == "f32") return "torch.float32";
  if (d == "e4m3") return "torch.float8_e4m3fn";
  if (d == "e5m2") return "torch.float8_e5m2";
  if (d == "e8m0") return "torch.float8_e8m0fnu";
  return "torch.int32";
}

/// A torch expression making an example input of `dtype` and `shape`:
/// randn where torch draws it (16/32-bit floats), converted for FP8 (torch
/// draws no 8-bit floats), ones for e8m0 scales (2^0), zeros for i32 tables
/// (the one index valid anywhere).
std::string exampleTensor(const std::string &dtype, const std::string &shape);

/// An input drawn where the kernel needs it (the IR's tile.init), at the
/// compiled sizes: the snippet's zeros and randn made NaN and overflow under
/// the line that stated the ranges (the fifteenth sweep's B2).
std::string exampleInput(const TensorArg &t, const std::string &shape, const Model &m) {
  std::map<std::string, int64_t> sizes;
  for (const SizeInfo &s : m.sizes)
    sizes[s.ident] = s.compiled;
  std::optional<std::pair<double, double>> range = t.initRange;
  if (t.initBounds)
    range = std::make_pair(double(t.initBounds->first.eval(sizes)),
                           double(t.initBounds->second.eval(sizes)));
  if (!range)
    return exampleTensor(t.dtype, shape);
  auto num = exactNumber;
  if (t.dtype == "e8m0") // the range is the exponent's (bundle-format.md)
    return "torch.exp2(torch.empty(" + shape + ", device=\"cuda\").uniform_(" + num(range->first) +
           ", " + num(range->second) + ").round()).to(" + torchDtype(t.dtype) + ")";
  if (t.dtype == "i32")
    return "torch.randint(" + num(std::ceil(range->first)) + ", " + num(std::ceil(range->second)) +
           ", (" + shape + ",), device=\"cuda\", dtype=torch.int32)";
  return "torch.empty(" + shape + ", device=\"cuda\").uniform_(" + num(range->first) + ", " +
         num(range->second) + ").to(" + torchDtype(t.dtype) + ")";
}

std::string exampleTensor(const std::string &dtype, const std::string &shape) {
  if (dtype == "e4m3" || dtype == "e5m2")
    return "torch.randn(" + shape + ", device=\"cuda\").to(" + torchDtype(dtype) + ")";
  if (dtype == "e8m0")
    return "torch.ones(" + shape + ", device=\"cuda\").to(" + torchDtype(dtype) + ")";
  if (dtype == "i32")
    return "torch.zeros(" + shape + ", device=\"cuda\", dtype=torch.int32)";
  return "torch.randn(" + shape + ", device=\"cuda\", dtype=" + torchDtype(dtype) + ")";
}

/// The shape at the compiled sizes, natural form.
std::vector<int64_t> naturalAt(const TensorArg &t, const Model &m) {
  std::map<std::string, int64_t> sizes;
  for (const SizeInfo &s : m.sizes)
    sizes[s.ident] = s.compiled;
  std::vector<int64_t> out;
  for (size_t d = 0; d < t.view.size(); ++d) {
    if (t.factors[d] && t.factors[d]->size() > 1)
      for (const std::string &f : *t.factors[d])
        out.push_back(sizes[f]);
    else
      out.push_back(t.view[d].eval(sizes));
  }
  return out;
}

std::string joinInts(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

/// Where the package came from, as a reader elsewhere can find it: a path
/// typed relative to the compile's working directory is made absolute while
/// it still names the file (the ninth sweep's M7).
std::string sourceShown(const Model &m) {
  if (m.source.empty())
    return m.bundleDir;
  llvm::SmallString<256> path(m.source);
  if (!llvm::sys::path::is_absolute(path) && llvm::sys::fs::exists(path) &&
      !llvm::sys::fs::make_absolute(path)) {
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    return path.str().str();
  }
  return m.source;
}

std::string whatItComputes(const Model &m) {
  auto name = [&](const char *field) {
    int i = m.referenceTensor(field);
    return i >= 0 ? m.tensors[i].ident : std::string(field);
  };
  if (m.referenceKind == "gemm") {
    bool tb = m.reference.getBoolean("transpose_b").value_or(true);
    return llvm::formatv("`{0} = {1} · {2}{3}`: a GEMM ({2} is {4}), fp32 accumulation.",
                         name("c"), name("a"), name("b"), tb ? "ᵀ" : "",
                         tb ? "`[N, K]`, like a weight matrix" : "`[K, N]`")
        .str();
  }
  if (m.referenceKind == "attention") {
    bool causal = m.reference.getBoolean("causal").value_or(false);
    double scale = m.reference.getNumber("sm_scale").value_or(0);
    return llvm::formatv("`{0} = softmax({1} · {2} {3}ᵀ{4}) {5}` per (batch, head): the "
                         "attention forward pass{6}, fp32 softmax and accumulation (what "
                         "`torch.nn.functional.scaled_dot_product_attention({2}, {3}, {5}{7})` "
                         "computes).",
                         name("o"), shortNumber(scale), name("q"), name("k"),
                         causal ? " + causal mask" : "", name("v"),
                         causal ? " with a causal mask" : "",
                         causal ? ", is_causal=True" : "")
        .str();
  }
  // Any other loop: what its author wrote above it (the IR file's leading
  // comment), else its name (every new kernel's README said only its name:
  // the fifteenth sweep's M3).
  std::string said;
  if (!m.source.empty())
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> f = llvm::MemoryBuffer::getFile(m.source)) {
      for (llvm::StringRef line : llvm::split((*f)->getBuffer(), '\n')) {
        llvm::StringRef t = line.trim();
        if (!t.consume_front("//"))
          break;
        t = t.trim();
        if (!t.empty() && said.size() < 1200)
          said += (said.empty() ? "" : " ") + t.str();
      }
    }
  std::string fallback = "The kernel `" + m.kernel + "` (the bundle's reference kind is `" +
                         m.referenceKind + "`; see manifest.json).";
  if (said.empty())
    return fallback;
  return "The kernel `" + m.kernel + "`, as its IR's leading comment says: " + said +
         " (checked against its IR reference: manifest.json).";
}

} // namespace

std::string stagecraft::exporter::emitReadme(const Model &m) {
  std::string out;
  llvm::raw_string_ostream os(out);
  const std::string &P = m.package;
  std::vector<const TensorArg *> ins, rets;
  for (const TensorArg &t : m.tensors) {
    if (t.role != "output")
      ins.push_back(&t);
    if (t.role == "output" || t.role == "inout")
      rets.push_back(&t);
  }

  os << "# " << P << ": the Stagecraft kernel `" << m.kernel << "` (sm_90a)\n\n";
  os << whatItComputes(m) << "\n\n";
  os << "Compiled by Stagecraft for Hopper (H100, H200: sm_90a); this directory is a Python "
        "package and a C++ header. It was generated by `stagecraft-compile --export` (or "
        "the app's File > Export kernel) from `"
     << sourceShown(m) << "`; do not edit it by hand, export again.\n\n";

  os << "## From Python (torch)\n\n```python\nimport sys; sys.path.insert(0, \"PARENT\")  "
        "# the directory that holds " << P << "/\nimport torch, " << P << "\n";
  std::vector<std::string> names;
  for (const TensorArg *t : ins)
    names.push_back(t->ident.size() == 1 ? std::string(1, char(tolower(t->ident[0])))
                                         : t->ident);
  bool sameShape = true;
  for (const TensorArg *t : ins)
    sameShape &= naturalAt(*t, m) == naturalAt(*ins[0], m) && t->dtype == ins[0]->dtype &&
                 !t->initRange && !t->initBounds;
  if (!ins.empty() && sameShape && ins.size() > 1) {
    std::string lhs;
    for (size_t i = 0; i < names.size(); ++i)
      lhs += (i ? ", " : "") + names[i];
    os << lhs << " = (" << exampleTensor(ins[0]->dtype, joinInts(naturalAt(*ins[0], m)))
       << " for _ in range(" << ins.size() << "))\n";
  } else {
    for (size_t i = 0; i < ins.size(); ++i)
      os << names[i] << " = " << exampleInput(*ins[i], joinInts(naturalAt(*ins[i], m)), m)
         << "\n";
  }
  std::string call;
  for (size_t i = 0; i < names.size(); ++i)
    call += (i ? ", " : "") + names[i];
  // Sizes no input's shape shows (a window W, a K start K0) are passed by
  // name, at the compiled value: run() cannot tell them (the snippet raised
  // for such kernels: the ninth sweep's B6).
  std::set<std::string> shown;
  for (const TensorArg *t : ins)
    for (const auto &f : t->factors)
      if (f)
        shown.insert(f->begin(), f->end());
  for (const SizeInfo &sz : m.sizes)
    if (!shown.count(sz.ident))
      call += (call.empty() ? "" : ", ") + sz.ident + "=" + std::to_string(sz.compiled);
  os << (rets.empty() ? "" : "out = ") << P << ".run(" << call << ")\n```\n\n";
  // The ranges the kernel needs its inputs in (tile.init): it reads rows or
  // pages at them, and neither run() nor the C++ launcher checks them.
  // Integer tables index or bound loops; a float range is what the kernel's
  // math is meant for (a gate, a scale: the fifteenth sweep's B3 had both
  // said to index).
  std::string tables, values;
  for (const TensorArg *t : ins)
    if (t->initText.size() == 2)
      (t->dtype == "i32" ? tables : values) +=
          (std::string((t->dtype == "i32" ? tables : values).empty() ? "" : ", ") + "`" +
           t->ident + "` in [" + t->initText[0] + ", " + t->initText[1] + ")");
  if (!tables.empty())
    os << "**Input values:** " << tables
       << " (the IR's `tile.init`: the kernel indexes or bounds its loops with them; nothing "
          "checks them, so values outside read or write the wrong place).\n\n";
  if (!values.empty())
    os << "**Input ranges the kernel is meant for:** " << values
       << " (the IR's `tile.init`; its output was checked with inputs drawn there; far outside, "
          "its arithmetic may overflow).\n\n";
  os << "`run()` reads the sizes from the tensors' shapes, checks every argument before "
        "anything reaches the GPU, allocates the output"
     << (rets.size() > 1 ? "s" : "")
     << " (or takes `out=`), and launches on torch's current stream (or `stream=`). "
        "`plan()` does the checks and returns the launch without CUDA. Errors: `TypeError` "
        "(not a tensor, wrong dtype), `ValueError` (shape, stride, 16-byte alignment, "
        "device, sizes), `"
     << P << ".UnsupportedDevice` (not an sm_90 GPU), `" << P
     << ".CudaError` (a driver call failed; the message names it). The cubin is loaded "
        "with `cuModuleLoadData` through ctypes on `libcuda.so.1`: nothing is compiled at "
        "import or at the first call. Results carry no autograd history.\n\n";

  os << "## From C++ (CUDA driver API only)\n\n```cpp\n#include \"" << P << ".h\"\n#include \""
     << P << "_cubin.h\"\n// with a current context on an sm_90 GPU:\n" << P << "::Kernel kernel("
     << P << "_cubin);\nkernel.launch(";
  for (size_t i = 0; i < m.tensors.size(); ++i)
    os << (i ? ", " : "") << m.tensors[i].ident << "_ptr";
  os << ", {";
  for (size_t i = 0; i < m.sizes.size(); ++i)
    os << (i ? ", " : "") << m.sizes[i].ident;
  os << "}, stream);  // CUdeviceptr ..., " << P << "::Sizes, CUstream\n```\n\n";
  os << "Buffers are dense row-major device memory. `launch()` checks the sizes, the grid, "
        "16-byte alignment and strides, and that every pointer is device memory of the "
        "current context's device with room for its tensor, then encodes the tensor maps and "
        "launches with `cuLaunchKernelEx`; any problem is thrown as `" << P
     << "::Error` (a `std::runtime_error` carrying the `CUresult`). `" << P
     << "::check()` runs the same argument checks without CUDA. Build and run the example "
        "(it fills the inputs, launches, times, and checks sampled outputs on the CPU):\n\n";
  os << "```sh\nnvcc -std=c++17 -O2 -o example example.cpp -lcuda\n./example";
  for (const SizeInfo &s : m.sizes)
    os << " " << s.ident << "=" << s.compiled;
  os << "\n```\n\n";

  os << "## Arguments\n\n| tensor | dtype | shape | role | kernel's view (TMA) |\n"
        "|---|---|---|---|---|\n";
  for (const TensorArg &t : m.tensors)
    os << "| " << t.ident << " | " << t.dtype << " | " << tupleText(t.naturalText()) << " | "
       << t.role << " | " << tupleText(t.viewText)
       << (t.access == "tensormap" ? ", box " + tupleText([&] {
                                       std::vector<std::string> b;
                                       for (int64_t x : t.box)
                                         b.push_back(std::to_string(x));
                                       return b;
                                     }()) + ", swizzle " + t.swizzle
                                   : std::string(", raw pointer"))
       << " |\n";
  os << "\nSizes (compiled, checked and timed at): ";
  for (size_t i = 0; i < m.sizes.size(); ++i)
    os << (i ? ", " : "") << "`" << m.sizes[i].ident << " = " << m.sizes[i].compiled << "`";
  os << ". Any sizes work from 1 to 2^31-1 where the tensors' row strides stay multiples of "
        "16 bytes (TMA); a tensor whose shape shows a product of sizes (such as `B * H`) may "
        "be passed either way, split or merged. In Python a tensor may be a strided view "
        "if its innermost dimension is dense and its other strides are multiples of 16 "
        "bytes.";
  std::string indexed;
  for (const TensorArg &t : m.tensors)
    if (t.indexed)
      indexed += (indexed.empty() ? "`" : ", `") + t.ident + "`";
  if (!indexed.empty())
    os << " **But** the kernel reads elements of " << indexed
       << " by index, and the compiler checked those indices stay inside the tiles it loads "
          "at the compiled sizes only: at other sizes, compile again to have them checked "
          "(`stagecraft-compile --size ...` refuses sizes that read past a tile); neither "
          "launcher can tell.";
  os << "\n\n";
  os << "Launch: grid `" << tupleText(m.gridText) << "`, block `(" << m.block[0] << ", "
     << m.block[1] << ", " << m.block[2] << ")`, " << m.dynamicSmem
     << " bytes of dynamic shared memory";
  if (m.cluster)
    os << ", cluster `(" << joinInts(*m.cluster) << ")`";
  os << ".\n\n";

  os << "## Schedule\n\n";
  if (!m.steadyState.empty())
    os << "Steady state: `" << m.steadyState << "` (" << m.stages << " stage"
       << (m.stages == 1 ? "" : "s") << ").\n\n";
  if (!m.schedule.empty()) {
    os << "| op | stage | order | warp group | wgmma wait |\n|---|---|---|---|---|\n";
    for (const ScheduleRow &r : m.schedule)
      os << "| " << r.name << " | " << r.stage << " | " << r.order << " | " << r.group << " | "
         << r.wait << " |\n";
    os << "\n";
  }
  if (!m.scheduleSummary.empty())
    os << "```\n" << m.scheduleSummary << (m.scheduleSummary.back() == '\n' ? "" : "\n")
       << "```\n\n";
  if (m.registers >= 0)
    os << "ptxas: " << m.registers << " registers per thread, " << m.spillBytes
       << " bytes of spills (ptxas.txt).\n\n";

  os << "## Measured\n\n";
  if (m.measured && m.measured->verified && m.measured->tflops) {
    const ExportMeasurement &r = *m.measured;
    os << llvm::formatv("{0:F1} TFLOP/s", *r.tflops).str();
    if (r.medianUs)
      os << llvm::formatv(" ({0:F1} us median)", *r.medianUs).str();
    os << " on " << (r.device.empty() ? "a GPU" : r.device) << " at the compiled sizes, "
       << "verified against the runner's fp32 reference";
    if (r.maxRelErr)
      os << llvm::formatv(" (max rel. error {0:e2})", *r.maxRelErr).str();
    os << ".";
    if (r.referenceTflops)
      os << llvm::formatv(" {0} in the same run: {1:F1} TFLOP/s.",
                          r.referenceName.empty() ? "The reference" : r.referenceName,
                          *r.referenceTflops)
                .str();
    os << " Measured by `stagecraft-run` (CUPTI kernel time, inputs rotated beyond L2).\n";
  } else if (m.measured) {
    os << "A run was given, but it was not a verified measurement; no speed is claimed.\n";
  } else {
    os << "Not measured at export: run the bundle with `stagecraft-run` (or in the app) and "
          "export again with `--measured RESULT.json` to record it here.\n";
  }

  os << "\n## Files\n\n| file | what |\n|---|---|\n"
     << "| `__init__.py`, `_runtime.py` | the Python package |\n"
     << "| `" << P << ".h` | the C++ launcher |\n"
     << "| `" << P << "_cubin.h` | the cubin as a byte array |\n"
     << "| `example.cpp` | a C++ program that runs and checks the kernel |\n"
     << "| `kernel.cubin`, `kernel.ptx` | sm_90a machine code and its PTX |\n"
     << "| `manifest.json`, `signature.json` | the launch at the compiled sizes; the "
        "interface at any sizes (Stagecraft's bundle format) |\n"
     << "| `schedule.json`, `ptxas.txt` | the schedule it was compiled with; ptxas's report |\n";
  return out;
}
