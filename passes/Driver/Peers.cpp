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

} // namespace

std::optional<GemmPeer> stagecraft::matchGemmPeer(func::FuncOp kernel) {
  FailureOr<scf::ForOp> maybeLoop = findPipelinedLoop(kernel);
  if (failed(maybeLoop))
    return std::nullopt;
  scf::ForOp loop = *maybeLoop;
  if (loop.getNumRegionIterArgs() != 1)
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
  SmallVector<Operation *> body = tensorOps(*loop.getBody());
  if (body.size() != 3 && body.size() != 4)
    return std::nullopt;
  DotOp dot;
  arith::AddFOp promote;
  for (Operation *op : body) {
    if (auto d = dyn_cast<DotOp>(op))
      dot = d;
    else if (auto a = dyn_cast<arith::AddFOp>(op))
      promote = a;
  }
  Value sum = loop.getRegionIterArgs()[0];
  Value yielded = loop.getBody()->getTerminator()->getOperand(0);
  if (!dot || dot.getTransposeA() || !isZeroSplat(loop.getInitArgs()[0]))
    return std::nullopt;
  // Accumulated in place (wgmma adds onto the running sum), or promoted:
  // each iteration's products summed from zero by wgmma and added to the
  // running sum by the CUDA cores (CUTLASS's promotion of FP8 partial sums,
  // DeepSeek-V3's remedy for the FP8 wgmma's 13-bit accumulation).
  bool promoted = body.size() == 4;
  if (promoted ? !promote || !isZeroSplat(dot.getAcc()) || yielded != promote.getResult() ||
                     !((promote.getLhs() == sum && promote.getRhs() == dot.getResult()) ||
                       (promote.getRhs() == sum && promote.getLhs() == dot.getResult()))
               : dot.getAcc() != sum || yielded != dot.getResult())
    return std::nullopt;
  auto la = dot.getA().getDefiningOp<LoadOp>(), lb = dot.getB().getDefiningOp<LoadOp>();
  if (!la || !lb || la == lb)
    return std::nullopt;
  Type ta = cast<RankedTensorType>(dot.getA().getType()).getElementType();
  Type tb = cast<RankedTensorType>(dot.getB().getType()).getElementType();
  bool fp8 = isFp8(ta);
  // The runner's cuBLAS peer takes bf16 operands; its cuBLASLt FP8 peer
  // K-major e4m3/e5m2 operands, not both e5m2.
  if (!ta.isBF16() && !(fp8 && dot.getTransposeB() &&
                        !(isa<Float8E5M2Type>(ta) && isa<Float8E5M2Type>(tb))))
    return std::nullopt;
  // After the loop: the result, maybe scaled (FP8) and converted, stored
  // once; nothing else but the scales' loads, extracts and splats.
  SmallVector<Operation *> outside = tensorOps(kernel.getBody().front());
  if (scope != &kernel.getBody().front())
    outside.append(tensorOps(*scope));
  StoreOp store;
  Value stored = loop.getResult(0);
  SmallVector<int> scales;
  for (Operation *op : outside) {
    if (op == loop.getOperation() || isa<tensor::SplatOp, tensor::ExtractOp>(op))
      continue; // a splat or an extract counts where a scale uses it
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (store)
        return std::nullopt;
      store = s;
    } else if (isa<arith::TruncFOp, arith::ExtFOp>(op) && op->getOperand(0) == stored) {
      stored = op->getResult(0);
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      if (!fp8 || !llvm::all_of(load->getUsers(), [](Operation *u) {
            return isa<tensor::ExtractOp>(u);
          }))
        return std::nullopt;
    } else if (auto mul = dyn_cast<arith::MulFOp>(op); mul && fp8 && llvm::is_contained(mul->getOperands(), stored)) {
      Value other = mul.getLhs() == stored ? mul.getRhs() : mul.getLhs();
      auto splat = other.getDefiningOp<tensor::SplatOp>();
      if (!splat || !collectScales(splat.getInput(), scales))
        return std::nullopt;
      stored = mul.getResult();
    } else {
      return std::nullopt;
    }
  }
  if (!store || store.getValue() != stored)
    return std::nullopt;
  // cuBLAS takes bf16 operands to a bf16 or f32 result; cuBLASLt FP8 to
  // bf16, f16 or f32.
  Type out = cast<RankedTensorType>(stored.getType()).getElementType();
  if (!out.isBF16() && !out.isF32() && !(fp8 && out.isF16()))
    return std::nullopt;
  llvm::sort(scales);
  scales.erase(std::unique(scales.begin(), scales.end()), scales.end());
  if (scales.size() > 2)
    return std::nullopt;
  GemmPeer p;
  p.fp8 = fp8;
  p.promoted = promoted;
  if (scales.size() > 0)
    p.scaleA = scales[0];
  if (scales.size() > 1)
    p.scaleB = scales[1];
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
