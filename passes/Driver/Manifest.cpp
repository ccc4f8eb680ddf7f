//===- Manifest.cpp - the bundle manifest of a kernel ---------------------===//
#include "passes/Driver/Manifest.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/ScheduleIR.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;

static const char *dtypeName(Type t) {
  if (t.isBF16()) return "bf16";
  if (t.isF16()) return "f16";
  return "f32";
}

/// The tensor-descriptor argument a value was loaded from, or -1.
static int loadedFrom(Value v) {
  if (auto load = v.getDefiningOp<LoadOp>())
    if (auto arg = dyn_cast<BlockArgument>(load.getDesc()))
      return arg.getArgNumber();
  return -1;
}

FailureOr<KernelManifest>
stagecraft::deriveManifest(func::FuncOp kernel,
                           const std::vector<std::pair<std::string, int64_t>> &overrides) {
  FailureOr<KernelSignature> sig = KernelSignature::get(kernel);
  if (failed(sig))
    return failure();
  KernelManifest m;
  m.kernel = kernel.getSymName().str();
  std::vector<int64_t> sizes = sig->sizeDefaults;
  for (const auto &[name, value] : overrides) {
    int i = sig->sizeIndex(name);
    if (i < 0) {
      std::string known;
      for (const std::string &n : sig->sizeNames)
        known += (known.empty() ? "" : ", ") + n;
      return kernel.emitError("unknown size \"")
             << name << "\" for kernel @" << m.kernel << " (its sizes: " << known << ")";
    }
    if (value < 1 || value > (1ll << 31) - 1)
      return kernel.emitError("size ") << name << " = " << value
                                       << " is out of range (1 to 2^31-1)";
    sizes[i] = value;
  }
  for (unsigned i = 0; i < sizes.size(); ++i)
    m.sizes.push_back({sig->sizeNames[i], sizes[i]});
  m.grid = KernelSignature::evaluate(sig->grid, sizes);
  while (m.grid.size() < 3)
    m.grid.push_back(1);
  for (int64_t g : m.grid)
    if (g < 1 || g > 0x7fffffff)
      return kernel.emitError("grid dimension ") << g << " is out of range at these sizes";

  // Roles of the descriptors, from how the kernel uses them.
  SmallVector<DotOp> dots;
  kernel.walk([&](DotOp d) { dots.push_back(d); });
  std::vector<std::string> names(kernel.getNumArguments());
  std::vector<bool> stored(kernel.getNumArguments(), false);
  kernel.walk([&](StoreOp s) {
    stored[cast<BlockArgument>(s.getDesc()).getArgNumber()] = true;
  });
  int out = -1;
  for (unsigned i = 0; i < stored.size(); ++i)
    if (stored[i])
      out = i;

  llvm::json::Object reference;
  double flops = 0;
  auto shapeOf = [&](unsigned arg) {
    for (unsigned k = 0; k < sig->descArgs.size(); ++k)
      if (sig->descArgs[k] == arg)
        return KernelSignature::evaluate(sig->descShapes[k], sizes);
    return std::vector<int64_t>();
  };
  if (dots.size() == 1 && out >= 0) {
    int a = loadedFrom(dots[0].getA()), b = loadedFrom(dots[0].getB());
    if (a < 0 || b < 0)
      return dots[0].emitError("manifest: GEMM operands must be loaded from descriptors");
    names[a] = "A";
    names[b] = "B";
    names[out] = "C";
    auto sa = shapeOf(a), sb = shapeOf(b);
    int64_t M = sa[0], K = sa[1];
    int64_t N = dots[0].getTransposeB() ? sb[0] : sb[1];
    flops = 2.0 * M * N * K;
    reference = llvm::json::Object{{"kind", "gemm"}, {"a", "A"}, {"b", "B"}, {"c", "C"},
                                   {"M", M}, {"N", N}, {"K", K},
                                   {"transpose_b", dots[0].getTransposeB()}};
  } else if (dots.size() == 2 && out >= 0) {
    int q = loadedFrom(dots[0].getA()), k = loadedFrom(dots[0].getB()),
        v = loadedFrom(dots[1].getB());
    if (q < 0 || k < 0 || v < 0)
      return dots[0].emitError("manifest: attention operands must be loaded from descriptors");
    names[q] = "Q";
    names[k] = "K";
    names[v] = "V";
    names[out] = "O";
    auto sq = shapeOf(q);
    int bi = sig->sizeIndex("B"), hi = sig->sizeIndex("H");
    int64_t batch = bi >= 0 ? sizes[bi] : sq[0], heads = hi >= 0 ? sizes[hi] : 1;
    int64_t seq = sq[sq.size() - 2], dim = sq.back();
    bool causal = false;
    double scale = 0;
    kernel.walk([&](MaskOp mask) { causal |= mask.getCausal(); });
    kernel.walk([&](arith::MulFOp mul) {
      for (Value o : mul->getOperands())
        if (auto c = o.getDefiningOp<arith::ConstantOp>())
          if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
            if (dense.isSplat() && dense.getElementType().isF32())
              scale = dense.getSplatValue<APFloat>().convertToDouble();
    });
    if (scale == 0)
      return kernel.emitError("manifest: no softmax scale constant found");
    flops = 4.0 * batch * heads * seq * seq * dim * (causal ? 0.5 : 1.0);
    reference = llvm::json::Object{
        {"kind", "attention"}, {"q", "Q"}, {"k", "K"}, {"v", "V"}, {"o", "O"},
        {"batch", batch}, {"heads", heads}, {"seq_q", seq}, {"seq_kv", seq},
        {"head_dim", dim}, {"causal", causal}, {"sm_scale", scale / M_LOG2E}};
  } else {
    return kernel.emitError("manifest: the runner checks GEMM (one dot) and "
                            "attention (two dots) kernels; this one has ")
           << dots.size() << " dots";
  }

  // The attention reference reads [batch, heads, seq, dim] tensors; the
  // kernel's descriptors may view the same memory as [batch*heads, seq, dim].
  std::vector<int64_t> attentionShape;
  if (auto kind = reference.getString("kind"); kind && *kind == "attention")
    attentionShape = {*reference.getInteger("batch"), *reference.getInteger("heads"),
                      *reference.getInteger("seq_q"), *reference.getInteger("head_dim")};

  llvm::json::Array tensors, params;
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    Type t = kernel.getArgumentTypes()[i];
    if (auto desc = dyn_cast<DescType>(t)) {
      if (names[i].empty())
        names[i] = llvm::formatv("T{0}", i).str();
      auto shape = shapeOf(i);
      llvm::json::Array shapeJson, strides, box;
      // Loads use 128-byte-swizzled panels (see DescType::getLoadBoxShape);
      // the store writes the whole tile from an unswizzled staging buffer.
      SmallVector<int64_t> boxShape =
          stored[i] ? SmallVector<int64_t>(desc.getBoxShape()) : desc.getLoadBoxShape();
      int64_t stride = desc.getElementBytes();
      std::vector<int64_t> strideBytes(shape.size());
      for (int d = shape.size() - 1; d >= 0; --d) {
        strideBytes[d] = stride;
        stride *= shape[d];
      }
      for (unsigned d = 0; d < shape.size(); ++d) {
        shapeJson.push_back(shape[d]);
        strides.push_back(strideBytes[d]);
        box.push_back(boxShape[d]);
      }
      llvm::json::Array tensorShape(shapeJson);
      int64_t elems = 1, attentionElems = 1;
      for (int64_t d : shape)
        elems *= d;
      for (int64_t d : attentionShape)
        attentionElems *= d;
      if (!attentionShape.empty() && attentionElems == elems &&
          llvm::is_contained({"Q", "K", "V", "O"}, names[i]))
        tensorShape = llvm::json::Array(attentionShape);
      llvm::json::Object tensor{{"name", names[i]},
                                {"dtype", dtypeName(desc.getElementType())},
                                {"shape", std::move(tensorShape)},
                                {"role", stored[i] ? "output" : "input"}};
      if (!stored[i])
        tensor["init"] = llvm::json::Object{{"kind", "uniform"}, {"low", -1.0},
                                            {"high", 1.0}, {"seed", int64_t(i + 1)}};
      tensors.push_back(std::move(tensor));
      int64_t innerBytes = boxShape.back() * desc.getElementBytes();
      std::string swizzle = stored[i] ? "none"
                            : innerBytes == 128 ? "128B"
                            : innerBytes == 64  ? "64B"
                            : innerBytes == 32  ? "32B"
                                                : "none";
      params.push_back(llvm::json::Object{
          {"kind", "tensormap"}, {"tensor", names[i]},
          {"dtype", dtypeName(desc.getElementType())},
          {"global_shape", std::move(shapeJson)},
          {"global_strides_bytes", std::move(strides)},
          {"box", std::move(box)}, {"swizzle", swizzle},
          {"l2_promotion", "256B"}, {"oob_fill", "zero"}});
    } else {
      int s = -1;
      for (unsigned k = 0; k < sig->sizeArgs.size(); ++k)
        if (sig->sizeArgs[k] == i)
          s = k;
      params.push_back(llvm::json::Object{{"kind", "scalar"}, {"dtype", "i32"},
                                          {"value", sizes[s]}});
    }
  }
  llvm::json::Object problem{{"kind", reference["kind"]}};
  for (const auto &[name, value] : m.sizes)
    problem[name] = value;

  std::string body;
  llvm::raw_string_ostream os(body);
  os << "  \"flops\": " << llvm::formatv("{0:F0}", flops) << ",\n";
  os << "  \"problem\": " << llvm::json::Value(std::move(problem)) << ",\n";
  os << "  \"tensors\": " << llvm::json::Value(std::move(tensors)) << ",\n";
  os << "  \"params\": " << llvm::json::Value(std::move(params)) << ",\n";
  os << "  \"reference\": " << llvm::json::Value(std::move(reference)) << "\n";
  m.body = body;
  return m;
}

std::string KernelManifest::toJson(int64_t blockThreads, int64_t smem) const {
  return llvm::formatv("{{\n  \"format\": \"stagecraft-bundle\",\n  \"version\": 1,\n"
                       "  \"kernel\": \"{0}\",\n  \"grid\": [{1}, {2}, {3}],\n"
                       "  \"block\": [{4}, 1, 1],\n  \"dynamic_smem_bytes\": {5},\n{6}}\n",
                       kernel, grid[0], grid[1], grid[2], blockThreads, smem, body)
      .str();
}
