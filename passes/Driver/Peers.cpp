//===- Peers.cpp - is a kernel's math exactly a GEMM or attention? --------===//
//
// A peer (cuBLAS for a GEMM, the runner's fp32 attention) checks a kernel a
// second time and, for GEMMs, is its timed peer. Only a kernel whose math is
// exactly theirs gets one: a GEMM with a ReLU, or an attention with a
// softcap, a window or another head layout is checked against its own IR
// reference alone.
//
//===----------------------------------------------------------------------===//
#include "passes/Driver/Peers.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/ScheduleIR.h"

#include <cmath>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;

namespace {

bool isZeroSplat(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  if (!c)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  return dense && dense.isSplat() && isa<FloatType>(dense.getElementType()) &&
         dense.getSplatValue<APFloat>().isZero();
}

int argOf(Value desc) {
  auto arg = dyn_cast<BlockArgument>(desc);
  return arg ? static_cast<int>(arg.getArgNumber()) : -1;
}

/// The tensor ops of a block (no scalar math, no constants, no terminator).
SmallVector<Operation *> tensorOps(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    if (isScheduledOp(&op))
      ops.push_back(&op);
  return ops;
}

SmallVector<std::string> names(ArrayRef<Operation *> ops) {
  SmallVector<std::string> n;
  for (Operation *op : ops)
    n.push_back(op->getName().getStringRef().str());
  llvm::sort(n);
  return n;
}

} // namespace

std::optional<GemmPeer> stagecraft::matchGemmPeer(func::FuncOp kernel) {
  FailureOr<scf::ForOp> maybeLoop = findPipelinedLoop(kernel);
  if (failed(maybeLoop))
    return std::nullopt;
  scf::ForOp loop = *maybeLoop;
  if (loop->getParentOp() != kernel.getOperation() || loop.getNumRegionIterArgs() != 1)
    return std::nullopt;
  SmallVector<Operation *> body = tensorOps(*loop.getBody());
  if (body.size() != 3)
    return std::nullopt;
  DotOp dot;
  for (Operation *op : body)
    if (auto d = dyn_cast<DotOp>(op))
      dot = d;
  if (!dot || dot.getTransposeA() || dot.getAcc() != loop.getRegionIterArgs()[0] ||
      loop.getBody()->getTerminator()->getOperand(0) != dot.getResult() ||
      !isZeroSplat(loop.getInitArgs()[0]))
    return std::nullopt;
  auto la = dot.getA().getDefiningOp<LoadOp>(), lb = dot.getB().getDefiningOp<LoadOp>();
  if (!la || !lb || la == lb)
    return std::nullopt;
  if (!cast<RankedTensorType>(dot.getA().getType()).getElementType().isBF16())
    return std::nullopt; // the runner's cuBLAS peer takes bf16 operands
  // After the loop: the result, maybe converted, stored once; nothing else.
  SmallVector<Operation *> outside = tensorOps(kernel.getBody().front());
  StoreOp store;
  Value stored = loop.getResult(0);
  for (Operation *op : outside) {
    if (op == loop.getOperation())
      continue;
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (store)
        return std::nullopt;
      store = s;
    } else if (isa<arith::TruncFOp, arith::ExtFOp>(op) && op->getOperand(0) == stored) {
      stored = op->getResult(0);
    } else {
      return std::nullopt;
    }
  }
  if (!store || store.getValue() != stored)
    return std::nullopt;
  // cuBLAS takes bf16 operands to a bf16 or f32 result.
  Type out = cast<RankedTensorType>(stored.getType()).getElementType();
  if (!out.isBF16() && !out.isF32())
    return std::nullopt;
  GemmPeer p;
  p.a = argOf(la.getDesc());
  p.b = argOf(lb.getDesc());
  p.c = argOf(store.getDesc());
  p.transposeB = dot.getTransposeB();
  if (p.a < 0 || p.b < 0 || p.c < 0)
    return std::nullopt;
  return p;
}

std::optional<AttentionPeer> stagecraft::matchAttentionPeer(func::FuncOp kernel) {
  // The attention forward pass of the bundled assets, op for op: S = Q K^T,
  // the mask, the online softmax, the rescale, O += P V; O / l stored.
  static const SmallVector<std::string> kLoop = [] {
    SmallVector<std::string> n = {
        "tile.load", "tile.dot", "tile.mask", "arith.mulf", "tile.reduce", "arith.maximumf",
        "tile.broadcast", "arith.subf", "math.exp2", "tile.reduce", "arith.subf",
        "math.exp2", "arith.mulf", "arith.addf", "arith.truncf", "tile.broadcast",
        "arith.mulf", "tile.load", "tile.dot"};
    llvm::sort(n);
    return n;
  }();
  static const SmallVector<std::string> kOutside = [] {
    SmallVector<std::string> n = {"tile.load", "scf.for", "tile.broadcast", "arith.divf",
                                  "arith.truncf", "tile.store"};
    llvm::sort(n);
    return n;
  }();
  FailureOr<scf::ForOp> maybeLoop = findPipelinedLoop(kernel);
  if (failed(maybeLoop))
    return std::nullopt;
  scf::ForOp loop = *maybeLoop;
  if (loop->getParentOp() != kernel.getOperation() || loop.getNumRegionIterArgs() != 3)
    return std::nullopt;
  if (names(tensorOps(*loop.getBody())) != kLoop ||
      names(tensorOps(kernel.getBody().front())) != kOutside)
    return std::nullopt;
  SmallVector<DotOp> dots;
  loop.walk([&](DotOp d) { dots.push_back(d); });
  auto q = dots[0].getA().getDefiningOp<LoadOp>(), k = dots[0].getB().getDefiningOp<LoadOp>(),
       v = dots[1].getB().getDefiningOp<LoadOp>();
  if (!q || !k || !v || q->getParentOp() == loop.getOperation() || !dots[0].getTransposeB() ||
      dots[1].getTransposeB() || dots[0].getTransposeA())
    return std::nullopt;
  StoreOp store;
  kernel.walk([&](StoreOp s) { store = s; });
  AttentionPeer p;
  p.q = argOf(q.getDesc());
  p.k = argOf(k.getDesc());
  p.v = argOf(v.getDesc());
  p.o = argOf(store.getDesc());
  if (p.q < 0 || p.k < 0 || p.v < 0 || p.o < 0)
    return std::nullopt;
  kernel.walk([&](MaskOp m) { p.causal |= m.getCausal(); });
  // The softmax scale: the splat constant the scores are multiplied by.
  kernel.walk([&](arith::MulFOp mul) {
    for (Value o : mul->getOperands())
      if (auto c = o.getDefiningOp<arith::ConstantOp>())
        if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
          if (dense.isSplat() && dense.getElementType().isF32() &&
              mul->getOperand(0).getDefiningOp<MaskOp>())
            p.log2Scale = dense.getSplatValue<APFloat>().convertToDouble();
  });
  if (p.log2Scale <= 0)
    return std::nullopt;
  return p;
}
