//===- TileLoopIR.cpp - read a persistent kernel's tile loop --------------===//
#include "core/Schedule/TileLoopIR.h"
#include "core/Dialect/Tile/IR/IndexEval.h"
#include "core/Schedule/ScheduleIR.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;

namespace {

/// At most this many tiles are evaluated (a kernel at its default sizes has
/// a few thousand); the order is classified on them.
constexpr int64_t kMaxTiles = 1 << 16;

Value stripCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

} // namespace

TileLoop stagecraft::analyzeTileLoop(func::FuncOp kernel, scf::ForOp pipelined,
                                     const std::vector<std::pair<std::string, int64_t>> &sizes) {
  TileLoop out;
  auto tl = dyn_cast_or_null<scf::ForOp>(pipelined->getParentOp());
  if (!tl)
    return out;
  out.persistent = true;
  out.location = formatLocation(tl.getLoc());
  out.stridedByGrid = stripCasts(tl.getLowerBound()).getDefiningOp<ProgramIdOp>() &&
                      stripCasts(tl.getStep()).getDefiningOp<NumProgramsOp>();

  // The signature was read when the loop graph was built; its diagnostics,
  // if any, were reported there.
  ScopedDiagnosticHandler silence(kernel.getContext(), [](Diagnostic &) { return success(); });
  FailureOr<KernelSignature> sig = KernelSignature::get(kernel);
  if (failed(sig)) {
    out.note = "the kernel's signature cannot be read";
    return out;
  }
  FailureOr<KernelSignature::Bound> bound = sig->bind(sizes);
  if (failed(bound)) {
    out.note = sizes.empty() ? "the kernel's default sizes cannot be bound"
                             : "the kernel's sizes cannot be bound";
    return out;
  }
  out.programs = 1;
  for (int64_t g : bound->grid)
    out.programs *= g;
  IndexEvaluator ev(kernel, *sig, bound->values, bound->grid);
  DenseMap<Value, int64_t> env;
  std::optional<int64_t> lb = ev.eval(tl.getLowerBound(), env),
                         ub = ev.eval(tl.getUpperBound(), env),
                         step = ev.eval(tl.getStep(), env);
  // Program 0 starts at the first tile when the loop strides by the grid.
  if (ub && out.stridedByGrid)
    out.tiles = std::max<int64_t>(*ub, 0);

  // The output tile each t stores.
  StoreOp store;
  tl.getBody()->walk([&](StoreOp s) {
    if (store || pipelined->isAncestor(s))
      return;
    for (Value c : s.getCoords()) {
      env[tl.getInductionVar()] = 1;
      std::optional<int64_t> at1 = ev.eval(c, env);
      env[tl.getInductionVar()] = 0;
      std::optional<int64_t> at0 = ev.eval(c, env);
      if (at0 && at1 && *at0 != *at1) {
        store = s;
        return;
      }
    }
  });
  env.erase(tl.getInductionVar());
  if (!store) {
    out.order = TileOrder::Custom;
    out.note = "no tile.store in the tile loop has indices that depend on the tile index and "
               "can be evaluated";
    return out;
  }
  out.storeLocation = formatLocation(store.getLoc());
  auto arg = dyn_cast<BlockArgument>(store.getDesc());
  int descIndex = -1;
  if (arg && arg.getOwner()->getParentOp() == kernel.getOperation())
    for (unsigned k = 0; k < sig->descArgs.size(); ++k)
      if (sig->descArgs[k] == arg.getArgNumber())
        descIndex = static_cast<int>(k);
  if (descIndex < 0) {
    out.order = TileOrder::Custom;
    out.note = "the stored descriptor is not a kernel argument";
    return out;
  }
  std::vector<int64_t> global =
      KernelSignature::evaluate(sig->descShapes[descIndex], bound->values);
  llvm::ArrayRef<int64_t> box = cast<DescType>(store.getDesc().getType()).getBoxShape();
  std::vector<int64_t> dims;
  for (size_t d = 0; d < box.size() && d < global.size(); ++d)
    dims.push_back(ceilDiv(global[d], box[d]));

  int64_t count = out.tiles > 0 ? std::min(out.tiles, kMaxTiles) : 0;
  if (!out.stridedByGrid && lb && ub && step && *step > 0)
    count = std::min(std::max<int64_t>(*ub, 0), kMaxTiles);
  auto coordsOf = [&](int64_t t) -> std::optional<std::vector<int64_t>> {
    env[tl.getInductionVar()] = t;
    std::vector<int64_t> c;
    for (auto [d, v] : llvm::enumerate(store.getCoords())) {
      std::optional<int64_t> x = ev.eval(v, env);
      if (!x || d >= box.size())
        return std::nullopt;
      c.push_back(*x / box[d]);
    }
    return c;
  };
  std::vector<std::vector<int64_t>> coords;
  for (int64_t t = 0; t < count; ++t) {
    std::optional<std::vector<int64_t>> c = coordsOf(t);
    if (!c) {
      out.order = TileOrder::Custom;
      out.note = "the stored tile's indices cannot be evaluated at t = " + std::to_string(t);
      return out;
    }
    coords.push_back(std::move(*c));
  }
  classifyTileOrder(dims, coords, out);

  // Program 0's first tiles.
  if (lb && ub && step && *step > 0)
    for (int64_t t = *lb; t < *ub && out.firstT.size() < 4; t += *step)
      if (std::optional<std::vector<int64_t>> c = coordsOf(t)) {
        std::vector<int64_t> varying;
        for (size_t d = 0; d < c->size() && d < dims.size(); ++d)
          if (dims[d] > 1)
            varying.push_back((*c)[d]);
        out.firstT.push_back(t);
        out.firstTiles.push_back(std::move(varying));
      }
  return out;
}

std::string stagecraft::tileOrderAt(func::FuncOp kernel,
                                    const std::vector<std::pair<std::string, int64_t>> &sizes) {
  ScopedDiagnosticHandler silence(kernel.getContext(), [](Diagnostic &) { return success(); });
  FailureOr<scf::ForOp> loop = findPipelinedLoop(kernel);
  if (failed(loop))
    return "";
  TileLoop tl = analyzeTileLoop(kernel, *loop, sizes);
  return tl.persistent ? tl.orderSpec() : "";
}
