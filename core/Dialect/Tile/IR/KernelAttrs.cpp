//===- KernelAttrs.cpp - the kernel signature -----------------------------===//
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Dialect/Tile/IR/IndexEval.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace stagecraft::tile;

FailureOr<KernelSignature> KernelSignature::get(func::FuncOp func) {
  KernelSignature sig;
  sig.func = func;
  FunctionType type = func.getFunctionType();
  if (type.getNumResults() != 0)
    return func.emitOpError("tile kernel must not return values");

  for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i) {
    Type argType = type.getInput(i);
    if (isa<IndexType>(argType)) {
      auto name = func.getArgAttrOfType<StringAttr>(i, TileDialect::kSizeAttrName);
      if (!name || name.getValue().empty())
        return func.emitOpError("kernel argument #")
               << i << " (index) needs a `tile.size = \"NAME\"` attribute";
      if (sig.sizeIndex(name.getValue()) >= 0)
        return func.emitOpError("kernel size \"")
               << name.getValue() << "\" is declared twice";
      sig.sizeNames.push_back(name.getValue().str());
      sig.sizeArgs.push_back(i);
    } else if (isa<DescType>(argType)) {
      sig.descArgs.push_back(i);
    } else {
      return func.emitOpError("kernel argument #")
             << i << " has type " << argType
             << "; a tile kernel takes tensor descriptors and index sizes";
    }
  }

  unsigned numSizes = sig.sizeNames.size();
  auto checkMap = [&](AffineMap map, StringRef what,
                      unsigned results) -> LogicalResult {
    if (map.getNumDims() != 0 || map.getNumSymbols() != numSizes)
      return func.emitOpError()
             << what << " must be an affine map over the " << numSizes
             << " kernel sizes as symbols, like affine_map<()[...] -> (...)>";
    if (results && map.getNumResults() != results)
      return func.emitOpError() << what << " must have " << results
                                << " results, got " << map.getNumResults();
    return success();
  };

  for (unsigned i : sig.descArgs) {
    auto shape = func.getArgAttrOfType<AffineMapAttr>(i, TileDialect::kShapeAttrName);
    if (!shape)
      return func.emitOpError("kernel argument #")
             << i << " (tensor descriptor) needs a `tile.shape` affine map "
                "giving its global shape";
    auto desc = cast<DescType>(type.getInput(i));
    if (failed(checkMap(shape.getValue(),
                        "tile.shape of argument #" + std::to_string(i),
                        desc.getRank())))
      return failure();
    sig.descShapes.push_back(shape.getValue());
    Attribute init = func.getArgAttr(i, TileDialect::kInitAttrName);
    if (auto map = dyn_cast_or_null<AffineMapAttr>(init))
      if (failed(checkMap(map.getValue(), "tile.init of argument #" + std::to_string(i), 2)))
        return failure();
    sig.descInits.push_back(init);
  }
  for (unsigned i : sig.sizeArgs)
    if (func.getArgAttr(i, TileDialect::kInitAttrName))
      return func.emitOpError("kernel argument #")
             << i << " is a size: `tile.init` gives the range a tensor's elements are drawn "
                "from, on a tensor descriptor";

  auto grid = func->getAttrOfType<AffineMapAttr>(TileDialect::kGridAttrName);
  if (!grid)
    return func.emitOpError("tile kernel needs a `tile.grid` affine map");
  if (failed(checkMap(grid.getValue(), "tile.grid", 0)))
    return failure();
  if (grid.getValue().getNumResults() < 1 || grid.getValue().getNumResults() > 3)
    return func.emitOpError("tile.grid must have 1 to 3 results");
  sig.grid = grid.getValue();
  // A program id along a dimension the grid does not have is always 0 (one
  // program along it): the seventh sweep's x09 read tile.program_id 2 on a
  // 2-D grid, every program computed column tile 0, and the manifest still
  // promised the whole GEMM.
  unsigned rank = sig.grid.getNumResults();
  Operation *beyond = nullptr;
  func.walk([&](Operation *op) {
    if (beyond)
      return;
    if (auto p = dyn_cast<ProgramIdOp>(op); p && p.getDim() >= rank)
      beyond = op;
    else if (auto n = dyn_cast<NumProgramsOp>(op); n && n.getDim() >= rank)
      beyond = op;
  });
  if (beyond) {
    int64_t dim = isa<ProgramIdOp>(beyond) ? int64_t(cast<ProgramIdOp>(beyond).getDim())
                                           : int64_t(cast<NumProgramsOp>(beyond).getDim());
    if (dim < 0 || dim > 2) // (the eighth sweep's m3: "add the dimension" to -1)
      return beyond->emitError("'") << beyond->getName() << "' along dimension " << dim
                                    << ": a grid has dimensions 0, 1 and 2";
    return beyond->emitError("'")
           << beyond->getName() << "' along dimension " << dim << " of a grid of " << rank
           << (rank == 1 ? " dimension" : " dimensions")
           << " (tile.grid): it would always be "
           << (isa<ProgramIdOp>(beyond) ? "0" : "1")
           << "; add the dimension to tile.grid or use one the grid has";
  }

  auto defaults = func->getAttrOfType<DictionaryAttr>(TileDialect::kDefaultsAttrName);
  for (const std::string &name : sig.sizeNames) {
    auto value = defaults ? defaults.getAs<IntegerAttr>(name) : IntegerAttr();
    if (!value)
      return func.emitOpError("tile.defaults needs an integer default for size \"")
             << name << "\"";
    if (value.getInt() < 1)
      return func.emitOpError("default of size \"")
             << name << "\" must be positive, got " << value.getInt();
    sig.sizeDefaults.push_back(value.getInt());
  }
  if (defaults)
    for (NamedAttribute entry : defaults)
      if (sig.sizeIndex(entry.getName().getValue()) < 0)
        return func.emitOpError("tile.defaults names \"")
               << entry.getName().getValue() << "\", which is not a kernel size";
  return sig;
}

int KernelSignature::sizeIndex(StringRef name) const {
  for (unsigned i = 0; i < sizeNames.size(); ++i)
    if (sizeNames[i] == name)
      return i;
  return -1;
}

std::vector<int64_t> KernelSignature::evaluate(AffineMap map,
                                               ArrayRef<int64_t> sizes) {
  SmallVector<AffineExpr> symbols;
  for (int64_t s : sizes)
    symbols.push_back(getAffineConstantExpr(s, map.getContext()));
  AffineMap folded = map.replaceDimsAndSymbols({}, symbols, 0, 0);
  std::vector<int64_t> values;
  for (AffineExpr e : folded.getResults())
    values.push_back(cast<AffineConstantExpr>(e).getValue());
  return values;
}

std::string stagecraft::tile::formatRange(double low, double high) {
  char text[64];
  std::snprintf(text, sizeof text, "[%g, %g)", low, high);
  return text;
}

/// The range as declared, at `sizes`, empty or not; std::nullopt without one.
static std::optional<std::pair<double, double>> declaredRange(Attribute init,
                                                              ArrayRef<int64_t> sizes) {
  if (!init)
    return std::nullopt;
  if (auto map = dyn_cast<AffineMapAttr>(init)) {
    std::vector<int64_t> v = KernelSignature::evaluate(map.getValue(), sizes);
    return std::make_pair(double(v[0]), double(v[1]));
  }
  auto range = cast<DenseF64ArrayAttr>(init);
  return std::make_pair(range[0], range[1]);
}

std::optional<std::pair<double, double>>
KernelSignature::initRangeAt(unsigned k, ArrayRef<int64_t> sizes) const {
  std::optional<std::pair<double, double>> r = declaredRange(descInits[k], sizes);
  if (!r || !(r->first < r->second))
    return std::nullopt;
  return r;
}

FailureOr<std::optional<std::pair<double, double>>>
KernelSignature::initRange(unsigned k, const Bound &b) const {
  std::optional<std::pair<double, double>> declared = declaredRange(descInits[k], b.values);
  if (!declared)
    return std::optional<std::pair<double, double>>();
  auto [low, high] = *declared;
  if (!(low < high)) {
    func::FuncOp f = func;
    std::string at;
    for (const auto &[name, value] : b.sizes)
      at += (at.empty() ? "" : ", ") + name + " = " + std::to_string(value);
    return f.emitOpError("`tile.init` of argument #")
           << descArgs[k] << " is empty at " << at << ": "
           << formatRange(low, high);
  }
  // Draws past the element type's largest finite value round to infinity
  // (the eighth sweep's m5: [-1e300, 1e300) on bf16: every element +-inf).
  func::FuncOp fn = func;
  Type elem = cast<DescType>(fn.getArgument(descArgs[k]).getType()).getElementType();
  // A float draw rounds to nearest: below the largest plus half its step it
  // is the largest (f16 [0, 65519) draws at most 65504: the eleventh sweep's
  // m6); FP8 fills saturate there instead, which is no uniform draw either.
  double largest = 0, halfStep = 0;
  bool fp8 = false;
  if (auto f = dyn_cast<FloatType>(elem); f && !isScaleType(elem)) {
    llvm::APFloat top = llvm::APFloat::getLargest(f.getFloatSemantics());
    largest = top.convertToDouble();
    llvm::APFloat below = top;
    below.next(/*nextDown=*/true);
    halfStep = (largest - below.convertToDouble()) / 2;
    fp8 = f.getWidth() == 8;
  } else if (elem.isInteger(32)) {
    largest = 2147483647.0;
    halfStep = 1; // draws below 2^31 are truncated toward zero
  }
  double limit = largest + halfStep;
  bool lowPast = elem.isInteger(32) ? low < -limit : low <= -limit; // i32 reaches -2^31
  if (largest > 0 && (lowPast || high > limit)) {
    std::string type;
    llvm::raw_string_ostream(type) << elem;
    return fn.emitOpError("`tile.init` of argument #")
           << descArgs[k] << " is " << formatRange(low, high) << ", past the largest " << type
           << " (" << largest << "): "
           << (fp8 ? "the fill would saturate its elements there, not draw them uniformly"
                   : "its elements would be infinite or wrap");
  }
  return std::optional<std::pair<double, double>>(std::make_pair(low, high));
}

FailureOr<KernelSignature::Bound>
KernelSignature::bind(const std::vector<std::pair<std::string, int64_t>> &overrides) const {
  func::FuncOp f = func; // diagnostics need a non-const op
  Bound b;
  b.values = sizeDefaults;
  for (const auto &[name, value] : overrides) {
    int i = sizeIndex(name);
    if (i < 0) {
      std::string known;
      for (const std::string &n : sizeNames)
        known += (known.empty() ? "" : ", ") + n;
      return f.emitError("unknown size \"")
             << name << "\" for kernel @" << f.getSymName() << " (its sizes: " << known
             << ")";
    }
    // 0 is a size's natural value as an offset (a K start); as an extent
    // or a grid dimension it is refused below, naming the tensor or axis.
    if (value < 0 || value > (1ll << 31) - 1)
      return f.emitError("size ") << name << " = " << value
                                     << " is out of range (0 to 2^31-1)";
    b.values[i] = value;
  }
  for (unsigned i = 0; i < b.values.size(); ++i)
    b.sizes.push_back({sizeNames[i], b.values[i]});
  b.grid = evaluate(grid, b.values);
  while (b.grid.size() < 3)
    b.grid.push_back(1);
  // CUDA launches at most 2^31-1 CTAs along x and 65535 along y and z.
  static const char *axis[] = {"x", "y", "z"};
  for (unsigned d = 0; d < b.grid.size() && d < 3; ++d) {
    int64_t limit = d == 0 ? 0x7fffffff : 65535;
    if (b.grid[d] < 1 || b.grid[d] > limit)
      return f.emitError("the grid is ")
             << b.grid[d] << " CTAs along " << axis[d]
             << " at these sizes; CUDA launches 1 to " << limit << " along " << axis[d];
  }
  // TMA's coordinates and the kernels' index math are 32-bit: a tensor with
  // a dimension of 2^31 or more could not be addressed past it.
  for (auto [arg, shape] : llvm::zip(descArgs, descShapes)) {
    std::vector<int64_t> dims = evaluate(shape, b.values);
    for (unsigned d = 0; d < dims.size(); ++d)
      if (dims[d] > (1ll << 31) - 1)
        return f.emitError("argument ")
               << arg << "'s tensor is " << dims[d] << " along dimension " << d
               << " at these sizes; coordinates are 32-bit, so a dimension must stay below "
                  "2^31 (split it: a batch dimension of its own)";
  }
  // A loop whose step is not positive at these sizes never ends (the
  // lowering's trip count divides by it): refused where it is written.
  IndexEvaluator ev(f, *this, b.values, b.grid);
  scf::ForOp bad;
  int64_t badStep = 0;
  f.walk([&](scf::ForOp loop) {
    llvm::DenseMap<Value, int64_t> env;
    if (std::optional<int64_t> step = ev.eval(loop.getStep(), env); step && *step <= 0 && !bad) {
      bad = loop;
      badStep = *step;
    }
  });
  if (bad)
    return bad.emitError("the loop's step is ")
           << badStep << " at these sizes; a loop's step must be positive";
  return b;
}

LogicalResult KernelSignature::checkTensors(const Bound &b) const {
  func::FuncOp f = func; // diagnostics need a non-const op
  for (unsigned k = 0; k < descArgs.size(); ++k) {
    unsigned i = descArgs[k];
    auto desc = cast<DescType>(f.getArgumentTypes()[i]);
    std::vector<int64_t> shape = evaluate(descShapes[k], b.values);
    auto refuse = [&]() {
      std::string dims;
      for (int64_t d : shape)
        dims += (dims.empty() ? "" : "x") + std::to_string(d);
      // The sizes, named: the argument's SSA name is gone after parsing, and
      // its extents alone do not say which size made one 0.
      std::string sizes;
      for (auto [name, value] : b.sizes)
        sizes += (sizes.empty() ? "" : ", ") + name + " = " + std::to_string(value);
      return mlir::emitError(f.getArgument(i).getLoc(), "tensor argument #")
             << i << " (" << dims << " " << desc.getElementType() << "; sizes " << sizes
             << "): at these sizes ";
    };
    for (int64_t d : shape)
      if (d < 1 || d > (int64_t(1) << 32))
        return refuse() << "an extent is " << d << "; TMA describes 1 to 2^32 elements a dimension";
    // Row steps, innermost first: a multiple of 16 bytes, under 2^40.
    double step = desc.getElementBytes();
    for (int d = static_cast<int>(shape.size()) - 1; d > 0; --d) {
      step *= static_cast<double>(shape[d]);
      if (step >= std::ldexp(1.0, 40))
        return refuse() << "a step in its dimension " << d - 1 << " is " << step
                        << " bytes; TMA takes steps under 2^40 bytes";
      if (std::fmod(step, 16.0) != 0)
        return refuse() << "a step in its dimension " << d - 1 << " is "
                        << static_cast<int64_t>(step)
                        << " bytes, and TMA needs a multiple of 16: make its innermost extent ("
                        << shape.back() << ") a multiple of "
                        << 16 / std::min<int64_t>(16, desc.getElementBytes()) << " elements";
    }
  }
  return success();
}

SmallVector<func::FuncOp> stagecraft::tile::getKernels(ModuleOp module) {
  SmallVector<func::FuncOp> kernels;
  for (auto func : module.getOps<func::FuncOp>())
    if (func->hasAttr(TileDialect::kKernelAttrName))
      kernels.push_back(func);
  return kernels;
}
