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

bool isConstantZero(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto i = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
  return i && i.getInt() == 0;
}

/// A per-tensor scale: the product of elements 0 of f32 tiles loaded at
/// coordinates 0 from kernel arguments; their argument numbers appended.
bool collectScales(Value s, SmallVector<int> &args) {
  if (auto mul = s.getDefiningOp<arith::MulFOp>())
    return collectScales(mul.getLhs(), args) && collectScales(mul.getRhs(), args);
  auto ex = s.getDefiningOp<tensor::ExtractOp>();
  if (!ex || !llvm::all_of(ex.getIndices(), isConstantZero))
    return false;
  auto load = ex.getTensor().getDefiningOp<LoadOp>();
  if (!load || !load.getDesc().getType().getElementType().isF32() ||
      !llvm::all_of(load.getCoords(), isConstantZero) || argOf(load.getDesc()) < 0)
    return false;
  args.push_back(argOf(load.getDesc()));
  return true;
}

/// Whether the loop sums over all of K, as cuBLAS does: k from 0 to the
/// size that is A's K extent, in steps of the tile's K, A and B loaded at k
/// (a loop over part of K is some other product: its peer would differ).
bool coversK(scf::ForOp loop, LoadOp la, ArrayRef<LoadOp> lbs, bool transposeB,
             func::FuncOp kernel) {
  Value k = loop.getInductionVar();
  auto stepOp = loop.getStep().getDefiningOp<arith::ConstantOp>();
  auto step = stepOp ? dyn_cast<IntegerAttr>(stepOp.getValue()) : IntegerAttr();
  int64_t tileK = cast<RankedTensorType>(la.getResult().getType()).getDimSize(1);
  if (!isConstantZero(loop.getLowerBound()) || !step || step.getInt() != tileK)
    return false;
  if (la.getCoords().size() != 2 || la.getCoords()[1] != k)
    return false;
  for (LoadOp lb : lbs)
    if (lb.getCoords().size() != 2 || lb.getCoords()[transposeB ? 1 : 0] != k)
      return false;
  FailureOr<KernelSignature> sig = KernelSignature::get(kernel);
  auto ub = dyn_cast<BlockArgument>(loop.getUpperBound());
  if (failed(sig) || !ub || ub.getOwner() != &kernel.getBody().front())
    return false;
  auto size = llvm::find(sig->sizeArgs, ub.getArgNumber());
  auto desc = llvm::find(sig->descArgs, static_cast<unsigned>(argOf(la.getDesc())));
  if (size == sig->sizeArgs.end() || desc == sig->descArgs.end())
    return false;
  AffineMap shape = sig->descShapes[desc - sig->descArgs.begin()];
  return shape.getNumResults() == 2 &&
         shape.getResult(1) ==
             getAffineSymbolExpr(size - sig->sizeArgs.begin(), kernel.getContext());
}

} // namespace

std::optional<GemmPeer> stagecraft::matchGemmPeer(func::FuncOp kernel) {
  FailureOr<scf::ForOp> maybeLoop = findPipelinedLoopQuietly(kernel);
  if (failed(maybeLoop))
    return std::nullopt;
  scf::ForOp loop = *maybeLoop;
  unsigned parts = loop.getNumRegionIterArgs();
  if (parts < 1)
    return std::nullopt;
  // A persistent kernel: the loop and its epilogue in a tile loop at the
  // kernel's top level (the peer also checks that its tiles cover C).
  Block *scope = &kernel.getBody().front();
  if (loop->getParentOp() != kernel.getOperation()) {
    auto tileLoop = dyn_cast<scf::ForOp>(loop->getParentOp());
    if (!tileLoop || tileLoop->getParentOp() != kernel.getOperation() ||
        tileLoop.getNumRegionIterArgs() != 0)
      return std::nullopt;
    scope = tileLoop.getBody();
  }
  // The loop computes C's tile in `parts` column blocks, each a running sum
  // (an iter_arg from zero) of A times a row block of B (with transpose_b;
  // a column block without): accumulated in place (the dot onto the running
  // sum) or promoted (the dot sums each iteration's products from zero and
  // an addf adds them to the running sum: CUTLASS's promotion of FP8 partial
  // sums, DeepSeek-V3's remedy for the FP8 wgmma's 13-bit accumulation; a
  // 128x256 tile promoted whole needs more registers than a consumer has).
  // Nothing else is in the loop: A's load, B's loads, the dots, the adds.
  Operation *terminator = loop.getBody()->getTerminator();
  SmallVector<DotOp> dots;
  bool promoted = false;
  for (unsigned j = 0; j < parts; ++j) {
    Value sum = loop.getRegionIterArgs()[j];
    Value yielded = terminator->getOperand(j);
    if (!isZeroSplat(loop.getInitArgs()[j]))
      return std::nullopt;
    DotOp dot = yielded.getDefiningOp<DotOp>();
    bool inPlace = dot && dot.getAcc() == sum;
    if (auto add = yielded.getDefiningOp<arith::AddFOp>()) {
      Value other = add.getLhs() == sum ? add.getRhs() : add.getRhs() == sum ? add.getLhs() : Value();
      dot = other ? other.getDefiningOp<DotOp>() : DotOp();
      if (!dot || !isZeroSplat(dot.getAcc()) || !dot->hasOneUse())
        return std::nullopt;
      if (j > 0 && !promoted)
        return std::nullopt;
      promoted = true;
    } else if (!inPlace || (j > 0 && promoted)) {
      return std::nullopt;
    }
    dots.push_back(dot);
  }
  SmallVector<Operation *> body = tensorOps(*loop.getBody());
  if (body.size() != 1 + parts * (promoted ? 3 : 2))
    return std::nullopt;
  DotOp dot = dots.front();
  auto la = dot.getA().getDefiningOp<LoadOp>();
  SmallVector<LoadOp> lbs;
  for (DotOp d : dots) {
    auto lb = d.getB().getDefiningOp<LoadOp>();
    if (d.getTransposeA() || d.getTransposeB() != dot.getTransposeB() || d.getA() != dot.getA() ||
        !lb || lb == la || llvm::is_contained(lbs, lb) ||
        (!lbs.empty() && lb.getDesc() != lbs.front().getDesc()))
      return std::nullopt;
    lbs.push_back(lb);
  }
  if (!la || !coversK(loop, la, lbs, dot.getTransposeB(), kernel))
    return std::nullopt;
  Type ta = cast<RankedTensorType>(dot.getA().getType()).getElementType();
  Type tb = cast<RankedTensorType>(dot.getB().getType()).getElementType();
  bool fp8 = isFp8(ta);
  // The runner's cuBLAS peer takes bf16 operands; its cuBLASLt FP8 peer
  // K-major e4m3/e5m2 operands, not both e5m2.
  if (!ta.isBF16() && !(fp8 && dot.getTransposeB() &&
                        !(isa<Float8E5M2Type>(ta) && isa<Float8E5M2Type>(tb))))
    return std::nullopt;
  // After the loop: each block's result, maybe scaled (FP8) and converted,
  // stored once; nothing else but the scales' loads, extracts and splats.
  SmallVector<Operation *> outside = tensorOps(kernel.getBody().front());
  if (scope != &kernel.getBody().front())
    outside.append(tensorOps(*scope));
  SmallVector<Value> stored(loop.getResults().begin(), loop.getResults().end());
  SmallVector<StoreOp> stores(parts);
  SmallVector<SmallVector<int>> scales(parts);
  auto blockOf = [&](Value v) -> int {
    auto it = llvm::find(stored, v);
    return it == stored.end() ? -1 : static_cast<int>(it - stored.begin());
  };
  for (Operation *op : outside) {
    if (op == loop.getOperation() || isa<tensor::SplatOp, tensor::ExtractOp>(op))
      continue; // a splat or an extract counts where a scale uses it
    if (auto s = dyn_cast<StoreOp>(op)) {
      int j = blockOf(s.getValue());
      if (j < 0 || stores[j])
        return std::nullopt;
      stores[j] = s;
    } else if (isa<arith::TruncFOp, arith::ExtFOp>(op) && blockOf(op->getOperand(0)) >= 0) {
      stored[blockOf(op->getOperand(0))] = op->getResult(0);
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      if (!fp8 || !llvm::all_of(load->getUsers(), [](Operation *u) {
            return isa<tensor::ExtractOp>(u);
          }))
        return std::nullopt;
    } else if (auto mul = dyn_cast<arith::MulFOp>(op);
               mul && fp8 && (blockOf(mul.getLhs()) >= 0 || blockOf(mul.getRhs()) >= 0)) {
      int j = blockOf(mul.getLhs()) >= 0 ? blockOf(mul.getLhs()) : blockOf(mul.getRhs());
      Value other = mul.getLhs() == stored[j] ? mul.getRhs() : mul.getLhs();
      auto splat = other.getDefiningOp<tensor::SplatOp>();
      if (!splat || !collectScales(splat.getInput(), scales[j]))
        return std::nullopt;
      stored[j] = mul.getResult();
    } else {
      return std::nullopt;
    }
  }
  Type out = cast<RankedTensorType>(stored.front().getType()).getElementType();
  for (unsigned j = 0; j < parts; ++j) {
    if (!stores[j] || stores[j].getValue() != stored[j] ||
        stores[j].getDesc() != stores.front().getDesc() ||
        cast<RankedTensorType>(stored[j].getType()).getElementType() != out)
      return std::nullopt;
    llvm::sort(scales[j]);
    scales[j].erase(std::unique(scales[j].begin(), scales[j].end()), scales[j].end());
    if (scales[j] != scales.front())
      return std::nullopt;
    // Block j of B lands in block j of C: the coordinate that picks B's
    // block picks C's column block (one SSA value), so a kernel that stores
    // a block elsewhere is not taken for a GEMM.
    if (parts > 1) {
      auto bc = lbs[j].getCoords(), cc = stores[j].getCoords();
      if (bc.size() != 2 || cc.size() != 2 || bc[dot.getTransposeB() ? 0 : 1] != cc[1])
        return std::nullopt;
    }
  }
  // cuBLAS takes bf16 operands to a bf16 or f32 result; cuBLASLt FP8 to
  // bf16, f16 or f32.
  if (!out.isBF16() && !out.isF32() && !(fp8 && out.isF16()))
    return std::nullopt;
  if (scales.front().size() > 2)
    return std::nullopt;
  GemmPeer p;
  p.fp8 = fp8;
  p.promoted = promoted;
  if (scales.front().size() > 0)
    p.scaleA = scales.front()[0];
  if (scales.front().size() > 1)
    p.scaleB = scales.front()[1];
  p.a = argOf(la.getDesc());
  p.b = argOf(lbs.front().getDesc());
  p.c = argOf(stores.front().getDesc());
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
  FailureOr<scf::ForOp> maybeLoop = findPipelinedLoopQuietly(kernel);
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
  // The peers write O in 16 bits (or f32): an FP8 O has none to compare with.
  Type out = store.getDesc().getType().getElementType();
  if (!(out.isBF16() || out.isF16() || out.isF32()))
    return std::nullopt;
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
