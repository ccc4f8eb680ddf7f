//===- Cluster.cpp - thread-block clusters of a tile kernel ---------------===//
#include "core/Dialect/Tile/IR/Cluster.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;

int64_t stagecraft::tile::clusterSize(Operation *op) {
  auto kernel = isa<func::FuncOp>(op) ? cast<func::FuncOp>(op) : op->getParentOfType<func::FuncOp>();
  if (!kernel)
    return 1;
  auto size = kernel->getAttrOfType<IntegerAttr>(TileDialect::kClusterAttrName);
  return size && size.getInt() > 0 ? size.getInt() : 1;
}

std::optional<int64_t> stagecraft::tile::clusterOpValue(Operation *op, int64_t pid0,
                                                        int64_t grid0) {
  if (!isa<ClusterRankOp, ClusterIdOp, NumClustersOp, ClusterSizeOp>(op))
    return std::nullopt;
  int64_t c = clusterSize(op);
  if (isa<ClusterSizeOp>(op))
    return c;
  if (isa<ClusterRankOp>(op))
    return pid0 % c;
  if (isa<ClusterIdOp>(op))
    return pid0 / c;
  return grid0 / c;
}

namespace {
bool varies(Value v, llvm::DenseMap<Value, bool> &memo, unsigned depth) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  // Kernels are a few ops deep (checkChainDepth bounds them); past that,
  // say "may vary", which only costs a multicast.
  if (depth > kMaxChainDepth)
    return true;
  memo[v] = true; // a cycle through a loop's values: may vary
  bool result;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<func::FuncOp>(owner)) {
      result = false; // the kernel's arguments: the same in every CTA
    } else if (auto loop = dyn_cast<scf::ForOp>(owner);
               loop && arg == loop.getInductionVar()) {
      result = varies(loop.getLowerBound(), memo, depth + 1) ||
               varies(loop.getStep(), memo, depth + 1);
    } else {
      result = true; // carried values: not followed
    }
  } else {
    Operation *op = v.getDefiningOp();
    if (isa<ClusterRankOp>(op))
      result = true;
    else if (auto pid = dyn_cast<ProgramIdOp>(op))
      result = pid.getDim() == 0;
    else if (isa<ClusterIdOp, NumClustersOp, ClusterSizeOp, NumProgramsOp, arith::ConstantOp>(op))
      result = false;
    else if (op->getNumRegions() != 0 || !isa<arith::ArithDialect>(op->getDialect()))
      result = true; // tensor.extract, calls, regions: not followed
    else
      result = llvm::any_of(op->getOperands(),
                            [&](Value o) { return varies(o, memo, depth + 1); });
  }
  memo[v] = result;
  return result;
}
} // namespace

bool stagecraft::tile::variesInCluster(Value v) {
  llvm::DenseMap<Value, bool> memo;
  return varies(v, memo, 0);
}

