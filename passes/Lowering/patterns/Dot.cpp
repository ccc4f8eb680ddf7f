//===- Dot.cpp - tile.dot as wgmma, and its reference ---------------------===//
//
// One dot is, per 64-row block of the warp group and per 16 of K, one
// wgmma.mma_async m64nNk16 (bf16 or f16 in, f32 accumulate). Operands in
// shared memory are tiles TMA loaded in panels of S-byte rows, swizzled by
// S = 128, 64 or 32 bytes (DescType::getLoadBoxShape: the widest that
// divides the tile's rows; 64 16-bit columns a panel at 128 bytes):
//  - K-major (A, or B with transpose_b): a k step of 16 moves 32 bytes
//    along the row (S / 32 steps a panel), then to the next panel; 8-row
//    groups are 8 S bytes apart (the descriptor's stride). Rows of A start
//    at 64 S bytes per row block.
//  - M- or N-major (A with transpose_a, B without transpose_b): the
//    descriptor's leading byte offset is the distance between panels along
//    M or N, the stride 8 S bytes per 8 rows of K; a k step moves 16 rows.
//    A row block of an M-major A is 64 / (S / 2) panels.
// Each operand gets one descriptor pinned where the dot is (LLVM would
// hoist loop-invariant descriptors and keep all of them live in registers)
// plus a constant offset per k step.
// An A operand in registers is a 16-bit tile in the accumulator layout:
// the k-th fragment is the four element pairs 8k, 8k+2, 8k+4, 8k+6 of its
// row block, converted pairwise (cvt.rn.{bf16,f16}x2.f32).
//
// FP8 operands (e4m3, e5m2, in any pairing) take m64nNk32: a k step is 32
// elements, still 32 bytes along a 128-byte row (a panel holds 128 FP8
// columns), so the K-major offsets are the same; wgmma reads 8-bit
// operands K-major only (placement refuses the rest).
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/patterns/Memory.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;
using hopper::Emitter;

namespace {
/// Where a wgmma operand's k steps and row blocks are in its shared-memory
/// tile, and its descriptor's offsets.
struct OperandLayout {
  const SmemTile &tile;
  bool mnMajor;
  int64_t leading() const { return mnMajor ? tile.panelBytes : 16; } // unused K-major
  int64_t stride() const { return 8 * tile.swizzle; }
  int64_t kStepOffset(int64_t kk) const {
    if (mnMajor)
      return kk * 16 * tile.swizzle; // 16 rows of K
    int64_t perPanel = tile.swizzle / 32; // 32 bytes a k step
    return (kk / perPanel) * tile.panelBytes + (kk % perPanel) * 32;
  }
  /// A's 64-row block `block` (i32), from the tile's start.
  Value rowBlockOffset(Emitter &e, Value block) const {
    int64_t bytes = mnMajor ? 64 / tile.panelCols * tile.panelBytes : 64 * tile.swizzle;
    return e.mul(block, e.c32(bytes));
  }
  Value descriptor(Emitter &e, Value addr) const {
    return e.wgmmaDescriptor(addr, leading(), stride(), tile.swizzle);
  }
};
} // namespace

SmallVector<Value> stagecraft::lowering::emitDot(Emitter &e, DotOp d, const TileGeometry &g,
                                                 Value cwg, const DotOperands &ops) {
  int64_t n = d.getN(), k = d.getK(), blocks = g.rowBlocks;
  Type abElem = cast<RankedTensorType>(d.getA().getType()).getElementType();
  Type bElem = cast<RankedTensorType>(d.getB().getType()).getElementType();
  auto typeName = [](Type t) -> StringRef {
    if (t.isF16()) return "f16";
    if (isa<Float8E4M3FNType>(t)) return "e4m3";
    if (isa<Float8E5M2Type>(t)) return "e5m2";
    return "bf16";
  };
  StringRef abType = typeName(abElem), bType = typeName(bElem);
  int64_t kStep = isFp8(abElem) ? 32 : 16;
  bool transA = d.getTransposeA(), nMajorB = !d.getTransposeB();
  auto step = [&](Value desc, int64_t bytes) {
    return bytes ? arith::AddIOp::create(e.b, e.loc, desc, e.c64(bytes >> 4)).getResult() : desc;
  };
  auto addr = [&](const SmemRef &r) { return e.smemAddr32(e.smemPtr(r.offset)); };

  OperandLayout lb{*ops.b.tile, nMajorB};
  Value descB0 = e.pinned(lb.descriptor(e, addr(ops.b)));
  auto offsetB = [&](int64_t kk) { return lb.kStepOffset(kk); };
  SmallVector<Value> descA0;
  std::optional<OperandLayout> la;
  if (ops.a) {
    la.emplace(OperandLayout{*ops.a.tile, transA});
    Value base = addr(ops.a);
    for (int64_t blk = 0; blk < blocks; ++blk) {
      Value block = e.add(e.mul(cwg, e.c32(blocks)), e.c32(blk));
      descA0.push_back(e.pinned(la->descriptor(e, e.add(base, la->rowBlockOffset(e, block)))));
    }
  }
  auto offsetA = [&](int64_t kk) { return la->kStepOffset(kk); };

  int64_t perBlock = n / 2;
  SmallVector<SmallVector<Value>> acc(blocks);
  for (int64_t blk = 0; blk < blocks; ++blk)
    for (int64_t i = 0; i < perBlock; ++i)
      acc[blk].push_back(ops.zeroAcc ? LLVM::UndefOp::create(e.b, e.loc, e.f32()).getResult()
                                     : ops.acc[blk * perBlock + i]);
  Layout aLayout = Layout::tile(k);
  auto aElem = [&](int64_t el) {
    return ops.aRegs.elems[sourceElement(ops.aRegs.layout, aLayout, el, g)];
  };
  e.wgmmaFence();
  for (int64_t kk = 0; kk < k / kStep; ++kk) {
    Value scaleD = kk == 0 && ops.firstScaleD ? ops.firstScaleD : e.c32(ops.zeroAcc && kk == 0 ? 0 : 1);
    Value descB = step(descB0, offsetB(kk));
    for (int64_t blk = 0; blk < blocks; ++blk) {
      if (ops.a) {
        acc[blk] = e.wgmmaTyped(n, abType, bType, {}, step(descA0[blk], offsetA(kk)), descB,
                                acc[blk], scaleD, transA, nMajorB);
        continue;
      }
      SmallVector<Value> a;
      for (int64_t q = 0; q < 4; ++q) {
        int64_t el = blk * (k / 2) + 8 * kk + 2 * q;
        if (ops.aRegs.packed) // already the pair, in the tile's own layout
          a.push_back(ops.aRegs.elems[el / 2]);
        else
          a.push_back(e.pack16(abElem, aElem(el), aElem(el + 1)));
      }
      if (ops.aPassed)
        ops.aPassed->append(a.begin(), a.end());
      acc[blk] = e.wgmmaRegs(n, abType, a, Value(), descB, acc[blk], scaleD, false, nMajorB);
    }
  }
  SmallVector<Value> out;
  for (auto &blk : acc)
    out.append(blk.begin(), blk.end());
  return out;
}

void stagecraft::lowering::emitReferenceDot(DotOp d, ReferenceContext &ctx) {
  int64_t k = d.getK();
  ctx.forEach(d.getResult(), [&](ValueRange index) {
    Emitter e = ctx.emitter();
    Value m = index[0], n = index[1];
    Value init = ctx.element(d.getAcc(), index);
    auto loop = scf::ForOp::create(ctx.b, ctx.loc, e.c32(0), e.c32(k), e.c32(1), ValueRange{init});
    OpBuilder::InsertionGuard guard(ctx.b);
    ctx.b.setInsertionPointToStart(loop.getBody());
    Value kk = ctx.sumIndex(loop.getInductionVar(), k);
    SmallVector<Value> ai = d.getTransposeA() ? SmallVector<Value>{kk, m} : SmallVector<Value>{m, kk};
    SmallVector<Value> bi = d.getTransposeB() ? SmallVector<Value>{n, kk} : SmallVector<Value>{kk, n};
    Value a = ctx.element(d.getA(), ai);
    Value b = ctx.element(d.getB(), bi);
    Value acc = LLVM::FMAOp::create(ctx.b, ctx.loc, a, b, loop.getRegionIterArgs()[0]);
    scf::YieldOp::create(ctx.b, ctx.loc, acc);
    return loop.getResult(0);
  });
}
