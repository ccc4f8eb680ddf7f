//===- KernelAttrs.cpp - the kernel signature -----------------------------===//
#include "core/Dialect/Tile/IR/KernelSignature.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"

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
  }

  auto grid = func->getAttrOfType<AffineMapAttr>(TileDialect::kGridAttrName);
  if (!grid)
    return func.emitOpError("tile kernel needs a `tile.grid` affine map");
  if (failed(checkMap(grid.getValue(), "tile.grid", 0)))
    return failure();
  if (grid.getValue().getNumResults() < 1 || grid.getValue().getNumResults() > 3)
    return func.emitOpError("tile.grid must have 1 to 3 results");
  sig.grid = grid.getValue();

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
    if (value < 1 || value > (1ll << 31) - 1)
      return f.emitError("size ") << name << " = " << value
                                     << " is out of range (1 to 2^31-1)";
    b.values[i] = value;
  }
  for (unsigned i = 0; i < b.values.size(); ++i)
    b.sizes.push_back({sizeNames[i], b.values[i]});
  b.grid = evaluate(grid, b.values);
  while (b.grid.size() < 3)
    b.grid.push_back(1);
  for (int64_t g : b.grid)
    if (g < 1 || g > 0x7fffffff)
      return f.emitError("grid dimension ") << g << " is out of range at these sizes";
  return b;
}

SmallVector<func::FuncOp> stagecraft::tile::getKernels(ModuleOp module) {
  SmallVector<func::FuncOp> kernels;
  for (auto func : module.getOps<func::FuncOp>())
    if (func->hasAttr(TileDialect::kKernelAttrName))
      kernels.push_back(func);
  return kernels;
}
