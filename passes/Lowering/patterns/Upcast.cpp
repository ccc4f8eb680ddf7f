//===- Upcast.cpp - tile.upcast: microscaled FP8 to a wider float ---------===//
//
// result[r][c] = x[r][c] * 2^(scale(r, c / 32) - 127), exact in f32 (an FP8
// value has at most 4 significant bits; a power of two only moves its
// exponent), hence exact in bf16 too; f16 results are rounded.
//
// FP8 pairs become f32 by one cvt.rn.f16x2.{e4m3,e5m2}x2 (exact, the same
// values as the reference's bit-level conversion), then one multiply each.
//
// Into registers (an A operand of a dot, or any register reader): each thread
// reads its elements of the FP8 tile in pairs of neighbouring columns (one
// 2-byte load; the swizzle moves 16-byte granules, which keep a pair
// together) and each scale once per row and 32-column block: the column
// block of an accumulator-layout element is a constant (columns 8j + 2(l%4)
// + c lie in block j / 4).
//
// Into shared memory (a dot's B, in a local ring): the consumer threads
// convert the tile in 16-byte chunks, 16 FP8 values of one row (one 16-byte
// load of the swizzled source, one scale), into 16 bf16 values (two 16-byte
// granules of the K-major 128-byte-swizzled panels wgmma reads); consecutive
// threads take consecutive chunks of a row. Then fence.proxy.async (the
// generic-proxy writes become visible to wgmma) and a named barrier over the
// consumer threads.
//
// Reference: x times the scale, element by element, rounded to the result
// type.
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/patterns/Fp8.h"
#include "passes/Lowering/patterns/Memory.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;
using hopper::Emitter;
using arith::CmpIPredicate;

namespace {

/// The named barrier the upcast's writers meet at (1 is the epilogue's).
constexpr int kUpcastBarrier = 2;

Type elementOf(Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); }

/// The scale of row `row`, 32-column block `group` (i32 values), as f32.
Value scaleAt(Emitter &e, UpcastOp op, const SmemRef &scale, Value row, Value group) {
  return op.scalesTransposed() ? readSmemElement(e, scale, group, row)
                               : readSmemElement(e, scale, row, group);
}

Value shr(Emitter &e, Value v, int64_t bits) {
  return bits ? arith::ShRUIOp::create(e.b, e.loc, v, e.c32(bits)).getResult() : v;
}

Frag upcastToRegisters(RegisterContext &ctx, UpcastOp op, const SmemRef &input,
                       const SmemRef &scale, const Layout &layout) {
  Emitter &e = ctx.e;
  Type fp8 = elementOf(op.getInput()), res = elementOf(op.getResult());
  Frag out{layout, res, {}, false};
  std::map<std::tuple<int64_t, int64_t, int64_t>, Value> scales;
  for (int64_t el = 0; el < layout.count(ctx.geom); el += 2) {
    TileElement t = tileElement(layout.cols, el);
    Value row = ctx.rowOf(layout, el), col = ctx.colOf(layout, el);
    Value ptr = e.smemPtr(e.add(input.offset, smemByteOffset(e, *input.tile, row, col)));
    Value pair = LLVM::LoadOp::create(e.b, e.loc, e.b.getI16Type(), ptr, /*alignment=*/2);
    pair = arith::ExtUIOp::create(e.b, e.loc, e.i32(), pair);
    Value &s = scales[{t.block, t.half, t.colBlock / 4}];
    if (!s)
      s = scaleAt(e, op, scale, row, e.c32(t.colBlock / 4));
    auto [lo, hi] = fp8PairToF32(e.b, e.loc, pair, fp8);
    for (Value x : {lo, hi}) {
      Value v = arith::MulFOp::create(e.b, e.loc, x, s);
      out.elems.push_back(res.isF16() ? roundTo(e.b, e.loc, v, res) : v);
    }
  }
  return out;
}

void upcastToSmem(RegisterContext &ctx, UpcastOp op, const SmemRef &input, const SmemRef &scale,
                  const SmemRef &dst) {
  Emitter &e = ctx.e;
  Type fp8 = elementOf(op.getInput()), res = elementOf(op.getResult());
  int64_t rows = input.tile->rows, cols = input.tile->cols;
  int64_t perRow = cols / 16, total = rows * perRow;
  int64_t threads = 128 * ctx.geom.wgs;
  auto v4 = VectorType::get({4}, e.i32());
  Value tid = ctx.threadIndex();
  for (int64_t base = 0; base < total; base += threads) {
    Value q = e.add(tid, e.c32(base));
    auto chunk = [&] {
      Value n = e.divu(q, e.c32(perRow));
      Value k0 = e.mul(e.remu(q, e.c32(perRow)), e.c32(16));
      Value src = e.smemPtr(e.add(input.offset, smemByteOffset(e, *input.tile, n, k0)));
      Value words = LLVM::LoadOp::create(e.b, e.loc, v4, src, /*alignment=*/16);
      Value s = scaleAt(e, op, scale, n, e.divu(k0, e.c32(32)));
      SmallVector<Value> packed;
      for (int64_t w = 0; w < 4; ++w) {
        Value word = LLVM::ExtractElementOp::create(e.b, e.loc, words, e.c32(w));
        for (int64_t j = 0; j < 4; j += 2) {
          auto [x0, x1] = fp8PairToF32(e.b, e.loc, shr(e, word, 8 * j), fp8);
          Value lo = arith::MulFOp::create(e.b, e.loc, x0, s);
          Value hi = arith::MulFOp::create(e.b, e.loc, x1, s);
          packed.push_back(e.pack16(res, lo, hi));
        }
      }
      for (int64_t half = 0; half < 2; ++half) {
        Value vec = LLVM::UndefOp::create(e.b, e.loc, v4);
        for (int64_t i = 0; i < 4; ++i)
          vec = LLVM::InsertElementOp::create(e.b, e.loc, vec, packed[4 * half + i], e.c32(i));
        Value at = smemByteOffset(e, *dst.tile, n, e.add(k0, e.c32(8 * half)));
        LLVM::StoreOp::create(e.b, e.loc, vec, e.smemPtr(e.add(dst.offset, at)), /*alignment=*/16);
      }
    };
    if (base + threads > total)
      e.ifThen(e.cmp(CmpIPredicate::slt, q, e.c32(total)), chunk);
    else
      chunk();
  }
  // wgmma reads through the async proxy: make the writes visible to it, and
  // every consumer warp group's part of the tile to every other.
  e.fenceProxyAsyncShared();
  e.namedBarrier(kUpcastBarrier, static_cast<int>(threads));
}

} // namespace

Frag stagecraft::lowering::emitUpcast(RegisterContext &ctx, UpcastOp op, const SmemRef &input,
                                      const SmemRef &scale, const SmemRef &out,
                                      const Layout &layout) {
  if (out) {
    upcastToSmem(ctx, op, input, scale, out);
    return Frag{Layout::smem(), elementOf(op.getResult()), {}, false};
  }
  return upcastToRegisters(ctx, op, input, scale, layout);
}

/// x[index] * scale of its row and 32-column block, in the reference.
static Value referenceScaled(ReferenceContext &ctx, Value x, Value scale, bool transposed,
                             Value row, Value col) {
  Emitter e = ctx.emitter();
  Value group = e.divu(col, e.c32(32));
  Value s = transposed ? ctx.element(scale, {group, row}) : ctx.element(scale, {row, group});
  return arith::MulFOp::create(ctx.b, ctx.loc, ctx.element(x, {row, col}), s);
}

void stagecraft::lowering::emitReferenceUpcast(UpcastOp op, ReferenceContext &ctx) {
  bool transposed = op.scalesTransposed();
  ctx.forEach(op.getResult(), [&](ValueRange index) {
    return referenceScaled(ctx, op.getInput(), op.getScale(), transposed, index[0], index[1]);
  });
}

void stagecraft::lowering::emitReferenceDotScaled(DotScaledOp d, ReferenceContext &ctx) {
  int64_t k = d.getK();
  // The verifier rejects a scale tile that reads the same either way round.
  auto transposed = [&](Value scale, int64_t rows) {
    auto t = cast<RankedTensorType>(scale.getType());
    return t.getDimSize(0) == k / 32 && t.getDimSize(1) == rows;
  };
  bool ta = transposed(d.getAScale(), d.getM()), tb = transposed(d.getBScale(), d.getN());
  ctx.forEach(d.getResult(), [&](ValueRange index) {
    Emitter e = ctx.emitter();
    Value m = index[0], n = index[1];
    Value init = ctx.element(d.getAcc(), index);
    auto loop = scf::ForOp::create(ctx.b, ctx.loc, e.c32(0), e.c32(k), e.c32(1), ValueRange{init});
    OpBuilder::InsertionGuard guard(ctx.b);
    ctx.b.setInsertionPointToStart(loop.getBody());
    Value kk = ctx.sumIndex(loop.getInductionVar(), k);
    Value a = referenceScaled(ctx, d.getA(), d.getAScale(), ta, m, kk);
    Value b = referenceScaled(ctx, d.getB(), d.getBScale(), tb, n, kk);
    Value acc = LLVM::FMAOp::create(ctx.b, ctx.loc, a, b, loop.getRegionIterArgs()[0]);
    scf::YieldOp::create(ctx.b, ctx.loc, acc);
    return loop.getResult(0);
  });
}
