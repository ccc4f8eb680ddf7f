//===- TileDialect.cpp - the tile dialect ---------------------------------===//
#include "core/Dialect/Tile/IR/TileDialect.h"
#include "core/Dialect/Tile/IR/KernelSignature.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include <cmath>

using namespace mlir;
using namespace stagecraft::tile;

#include "core/Dialect/Tile/IR/TileDialect.cpp.inc"

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kSchedAttrName) {
    if (!isa<ScheduleAttr>(attr.getValue()))
      return op->emitError("`tile.sched` must be a #tile.sched<...> attribute");
    return success();
  }
  if (name == kKernelAttrName) {
    auto func = dyn_cast<func::FuncOp>(op);
    if (!func)
      return op->emitError("`tile.kernel` applies to func.func only");
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError("`tile.kernel` is a unit attribute");
    // The kernel's name is a symbol of the PTX module (and of its
    // reference, `NAME_reference`) and of the exported C++: a PTX identifier
    // (letters, digits, '_' and '$', not starting with a digit). NVPTX
    // aborts on other characters; a '.' reaches ptxas, which rejects it.
    StringRef symbol = func.getSymName();
    if (symbol.empty() || llvm::isDigit(symbol.front()) || llvm::any_of(symbol, [](char c) {
          return !(llvm::isAlnum(c) || c == '_' || c == '$');
        }))
      return op->emitError("a kernel's name must be a PTX identifier: letters, digits, '_' or "
                           "'$', not starting with a digit; got @\"")
             << symbol << "\"";
    if (failed(checkChainDepth(func)))
      return failure();
    // Kernels compute coordinates, bounds and steps in 32 bits: a constant
    // past that range was cut short (a step of 2^32 + 64 ran as 64).
    WalkResult wide = func.walk([](arith::ConstantOp c) {
      auto v = dyn_cast<IntegerAttr>(c.getValue());
      if (!v || !c.getType().isIndex())
        return WalkResult::advance();
      int64_t x = v.getValue().getSExtValue();
      if (x >= INT32_MIN && x <= INT32_MAX)
        return WalkResult::advance();
      c.emitError("an index constant must fit in 32 bits (the kernel computes coordinates, "
                  "bounds and steps in i32), got ")
          << x;
      return WalkResult::interrupt();
    });
    if (wide.wasInterrupted())
      return failure();
    return KernelSignature::get(func);
  }
  if (name == kWarpGroupsAttrName) {
    if (!op->hasAttr(kKernelAttrName))
      return op->emitError("`tile.warpgroups` needs `tile.kernel` on the same op");
    auto groups = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!groups || groups.empty() || groups.size() > 8)
      return op->emitError("`tile.warpgroups` must be array<i64: ...> with one "
                           "entry (warp groups) per schedule group, 1 to 8 entries");
    int64_t total = 0;
    for (int64_t n : groups.asArrayRef()) {
      if (n < 1 || n > 4)
        return op->emitError("each schedule group has 1 to 4 warp groups, got ")
               << n;
      total += n;
    }
    if (total > 8)
      return op->emitError("at most 8 warp groups (1024 threads) per block, got ")
             << total;
    return success();
  }
  if (name == kConsumersAttrName) {
    if (!op->hasAttr(kKernelAttrName))
      return op->emitError("`tile.consumers` needs `tile.kernel` on the same op");
    auto value = dyn_cast<StringAttr>(attr.getValue());
    if (!value || !llvm::is_contained({llvm::StringRef("cooperative"), llvm::StringRef("pingpong"),
                                       llvm::StringRef("staggered")},
                                      value.getValue()))
      return op->emitError(
          "`tile.consumers` must be \"cooperative\", \"pingpong\" or \"staggered\"");
    return success();
  }
  if (name == kRegistersAttrName) {
    if (!op->hasAttr(kKernelAttrName))
      return op->emitError("`tile.registers` needs `tile.kernel` on the same op");
    // The form only; whether the budgets obey setmaxnreg and fit the
    // register file is a schedule rule (legality: registers), checked with
    // the warp groups they apply to.
    auto budgets = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!budgets || budgets.empty() || budgets.size() > 8)
      return op->emitError("`tile.registers` must be array<i64: ...> with one register budget "
                           "per schedule group (0: the default share), 1 to 8 entries");
    for (auto [g, n] : llvm::enumerate(budgets.asArrayRef()))
      if (n < 0 || n > 256)
        return op->emitError("`tile.registers`: the budget of schedule group ")
               << g << " is " << n << ", outside 0..256 (0: the default share)";
    return success();
  }
  if (name == kClusterAttrName) {
    if (!op->hasAttr(kKernelAttrName))
      return op->emitError("`tile.cluster` needs `tile.kernel` on the same op");
    auto size = dyn_cast<IntegerAttr>(attr.getValue());
    if (!size || !llvm::is_contained({1, 2, 4}, size.getInt()))
      return op->emitError("`tile.cluster` must be 1, 2 or 4 (CTAs per cluster along grid "
                           "dimension 0), as an integer: `tile.cluster = 2`");
    return success();
  }
  if (name == kGridAttrName || name == kDefaultsAttrName) {
    if (!op->hasAttr(kKernelAttrName))
      return op->emitError("`") << name << "` needs `tile.kernel` on the same op";
    return success(); // checked with the whole signature under tile.kernel
  }
  return op->emitError("unknown tile dialect attribute `") << name << "`";
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kShapeAttrName) {
    if (!isa<AffineMapAttr>(attr.getValue()))
      return op->emitError("`tile.shape` of argument #")
             << argIndex << " must be an affine map";
    return success();
  }
  if (name == kSizeAttrName) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError("`tile.size` of argument #")
             << argIndex << " must be a string";
    return success();
  }
  if (name == kInitAttrName) {
    // The range an input is drawn from: constants, or an affine map of the
    // sizes (a page table over B * H * S / 128 pages); the map's symbols are
    // checked with the signature.
    if (auto map = dyn_cast<AffineMapAttr>(attr.getValue())) {
      if (map.getValue().getNumResults() != 2 || map.getValue().getNumDims() != 0)
        return op->emitError("`tile.init` of argument #")
               << argIndex << " must have two results, low and high: "
                  "affine_map<()[SIZES] -> (LOW, HIGH)>";
      return success();
    }
    auto range = dyn_cast<DenseF64ArrayAttr>(attr.getValue());
    if (!range || range.size() != 2)
      return op->emitError("`tile.init` of argument #")
             << argIndex << " must be a range `array<f64: LOW, HIGH>` or an affine map of the "
                "sizes with two results";
    double low = range[0], high = range[1];
    if (!std::isfinite(low) || !std::isfinite(high) || !(low < high))
      return op->emitError("`tile.init` of argument #")
             << argIndex << " must be finite with LOW < HIGH, got "
             << formatRange(low, high);
    return success();
  }
  return op->emitError("unknown tile dialect argument attribute `")
         << name << "`";
}

ScheduleAttr stagecraft::tile::getSchedule(Operation *op) {
  return op->getAttrOfType<ScheduleAttr>(TileDialect::kSchedAttrName);
}

void stagecraft::tile::setSchedule(Operation *op, ScheduleAttr sched) {
  op->setAttr(TileDialect::kSchedAttrName, sched);
}

bool stagecraft::tile::isSupportedElementType(Type type) {
  // i32: tables of indices and lengths (a page table, sequence lengths),
  // read as scalars by tensor.extract or as integer tiles.
  return type.isBF16() || type.isF16() || type.isF32() || type.isInteger(32) || isFp8(type) ||
         isScaleType(type);
}

bool stagecraft::tile::isStoredElementType(Type type) {
  // i32: indices (an argmax, a router's expert), counts, written as they are.
  return type.isF32() || type.isBF16() || type.isF16() || type.isInteger(32) || isFp8(type);
}

bool stagecraft::tile::isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

bool stagecraft::tile::isScaleType(Type type) { return isa<Float8E8M0FNUType>(type); }

const char *stagecraft::tile::elementTypeName(Type t) {
  if (t.isBF16()) return "bf16";
  if (t.isF16()) return "f16";
  if (t.isF32()) return "f32";
  if (t.isInteger(32)) return "i32";
  if (isa<Float8E4M3FNType>(t)) return "e4m3";
  if (isa<Float8E5M2Type>(t)) return "e5m2";
  if (isa<Float8E8M0FNUType>(t)) return "e8m0";
  return "";
}

void stagecraft::tile::registerStagecraftDialects(DialectRegistry &registry) {
  registry.insert<TileDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect, func::FuncDialect,
                  tensor::TensorDialect>();
}
