//===- ReduceBroadcast.cpp - row reductions and broadcasts ----------------===//
//
// tile.reduce along the columns (dim = 1) of a tile in the accumulator
// layout reduces within the thread (its columns of each row), then across
// the four lanes that share a row (shfl.bfly 1 and 2): the result is a row
// vector, each lane holding its rows' values. A reduction over the rows
// (dim = 0) reduces within the thread (its rows of each column), across the
// eight lanes that share a column (shfl.bfly 4, 8, 16), then across the
// consumer warps through shared memory: a row of partials per warp, each
// column's combined by one thread in warp order into a final row that every
// thread reads its columns of (three consumer barriers): a column vector,
// the same in every thread.
//
// tile.broadcast is a view in registers: a row vector broadcast along the
// columns (dim = 1) keeps its two values per row block (RowView), a column
// vector broadcast along the rows (dim = 0) its column values (ColView).
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/patterns/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;

namespace {

Value combine(OpBuilder &b, Location loc, bool isMax, Value x, Value y) {
  if (isMax)
    return arith::MaximumFOp::create(b, loc, x, y);
  return arith::AddFOp::create(b, loc, x, y);
}

/// Column e = 2 j + c of this thread (Layout Cols) reduced over every row of
/// the consumer tile.
SmallVector<Value> reduceRows(RegisterContext &ctx, const Frag &in, int64_t cols, bool isMax) {
  hopper::Emitter &e = ctx.e;
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Layout tile = Layout::tile(cols);
  SmallVector<Value> part(cols / 4);
  for (int64_t el = 0; el < tile.count(ctx.geom); ++el) {
    TileElement t = tileElement(cols, el);
    Value x = ctx.element(in, tile, el);
    Value &acc = part[2 * t.colBlock + t.colPair];
    acc = acc ? combine(b, loc, isMax, acc, x) : x;
  }
  // The eight lanes of a column set (lane bits 2-4) reduce-scatter their
  // cols / 4 partials: each round a lane keeps half of its values, adding
  // its partner's copies of them (16 + 8 + 4 shuffles for 128 columns where
  // a full butterfly on every value takes 96), and ends with cols / 32 of
  // them, its warp's sums of those columns. Widths not a multiple of 32:
  // the full butterfly, lanes 0-3 holding every column.
  int64_t warps = 4 * ctx.geom.wgs, threads = 128 * ctx.geom.wgs;
  Value ctid = ctx.threadIndex();
  Value lane = e.remu(ctid, e.c32(32));
  Value quad = e.remu(ctid, e.c32(4));
  Value warp = e.divu(ctid, e.c32(32));
  Value base = ctx.exchangeBuffer();
  auto cell = [&](Value row, Value col) {
    return e.smemPtr(e.add(base, e.mul(e.add(e.mul(row, e.c32(cols)), col), e.c32(4))));
  };
  auto columnOf = [&](Value el) { // this thread's column of element el (2 j + c)
    return e.add(e.add(e.mul(e.divu(el, e.c32(2)), e.c32(8)), e.remu(el, e.c32(2))),
                 e.mul(quad, e.c32(2)));
  };
  auto mine = [&](int64_t el) { return columnOf(e.c32(el)); };
  ctx.consumerBarrier(); // the buffer's last readers are done
  if (cols % 32 == 0) {
    Value first = e.c32(0); // the element index of part[0]
    for (int bit : {16, 8, 4}) {
      int64_t half = part.size() / 2;
      Value upper = e.cmp(arith::CmpIPredicate::ne, e.andi(lane, e.c32(bit)), e.c32(0));
      SmallVector<Value> kept;
      for (int64_t i = 0; i < half; ++i) {
        Value keep = arith::SelectOp::create(b, loc, upper, part[half + i], part[i]);
        Value give = arith::SelectOp::create(b, loc, upper, part[i], part[half + i]);
        kept.push_back(combine(b, loc, isMax, keep, e.shflXor(give, bit)));
      }
      first = e.add(first, arith::SelectOp::create(b, loc, upper, e.c32(half), e.c32(0)));
      part = std::move(kept);
    }
    for (int64_t i = 0; i < static_cast<int64_t>(part.size()); ++i)
      LLVM::StoreOp::create(b, loc, part[i], cell(warp, columnOf(e.add(first, e.c32(i)))));
  } else {
    for (Value &acc : part)
      for (int lanes : {4, 8, 16})
        acc = combine(b, loc, isMax, acc, e.shflXor(acc, lanes));
    e.ifThen(e.cmp(arith::CmpIPredicate::ult, lane, e.c32(4)), [&] {
      for (int64_t el = 0; el < cols / 4; ++el)
        LLVM::StoreOp::create(b, loc, part[el], cell(warp, mine(el)));
    });
  }
  // Consumer thread t combines column t's partials (warp order) into the
  // final row, which every thread reads its columns of.
  ctx.consumerBarrier();
  for (int64_t first = 0; first < cols; first += threads) {
    Value col = e.add(ctid, e.c32(first));
    e.ifThen(e.cmp(arith::CmpIPredicate::ult, col, e.c32(cols)), [&] {
      Value acc;
      for (int64_t w = 0; w < warps; ++w) {
        Value x = LLVM::LoadOp::create(b, loc, b.getF32Type(), cell(e.c32(w), col));
        acc = acc ? combine(b, loc, isMax, acc, x) : x;
      }
      LLVM::StoreOp::create(b, loc, acc, cell(e.c32(warps), col));
    });
  }
  ctx.consumerBarrier();
  SmallVector<Value> out;
  for (int64_t el = 0; el < cols / 4; ++el)
    out.push_back(LLVM::LoadOp::create(b, loc, b.getF32Type(), cell(e.c32(warps), mine(el))));
  return out;
}

class ReducePattern final : public TilePattern {
public:
  bool matches(Operation *op) const override { return isa<ReduceOp>(op); }

  FailureOr<Layout> inferLayout(Operation *op, ArrayRef<Layout> operands, const TileGeometry &,
                                std::string &why) const override {
    auto r = cast<ReduceOp>(op);
    if (!operands[0].is2d() && operands[0].kind != Kind::Splat) {
      why = "needs a tile in registers";
      return failure();
    }
    if (r.getDim() == 0)
      return Layout::colsOf(cast<RankedTensorType>(r.getInput().getType()).getDimSize(1));
    return Layout::rows();
  }

  Frag emit(Operation *op, RegisterContext &ctx, const Layout &result) const override {
    auto r = cast<ReduceOp>(op);
    OpBuilder &b = ctx.e.b;
    Location loc = ctx.e.loc;
    bool isMax = r.getKind() == ReduceKind::Max;
    Frag in = ctx.operand(op, 0);
    int64_t cols = cast<RankedTensorType>(r.getInput().getType()).getDimSize(1);
    Layout tile = Layout::tile(cols);
    Frag out{result, b.getF32Type(), {}, false};
    if (r.getDim() == 0) {
      out.elems = reduceRows(ctx, in, cols, isMax);
      return out;
    }
    for (int64_t blk = 0; blk < ctx.geom.rowBlocks; ++blk)
      for (int64_t h = 0; h < 2; ++h) {
        Value acc;
        for (int64_t e = 0; e < tile.count(ctx.geom); ++e) {
          TileElement t = tileElement(cols, e);
          if (t.block != blk || t.half != h)
            continue;
          Value x = ctx.element(in, tile, e);
          acc = acc ? combine(b, loc, isMax, acc, x) : x;
        }
        acc = combine(b, loc, isMax, acc, ctx.e.shflXor(acc, 1));
        acc = combine(b, loc, isMax, acc, ctx.e.shflXor(acc, 2));
        out.elems.push_back(acc);
      }
    return out;
  }

  void emitReference(Operation *op, ReferenceContext &ctx) const override {
    auto r = cast<ReduceOp>(op);
    bool isMax = r.getKind() == ReduceKind::Max;
    auto in = cast<RankedTensorType>(r.getInput().getType());
    int64_t dim = r.getDim(), len = in.getDimSize(dim);
    ctx.forEach(r.getResult(), [&](ValueRange index) {
      hopper::Emitter e = ctx.emitter();
      Value init = arith::ConstantOp::create(
          ctx.b, ctx.loc,
          ctx.b.getF32FloatAttr(isMax ? -std::numeric_limits<float>::infinity() : 0.0f));
      auto loop = scf::ForOp::create(ctx.b, ctx.loc, e.c32(0), e.c32(len), e.c32(1),
                                     ValueRange{init});
      OpBuilder::InsertionGuard guard(ctx.b);
      ctx.b.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> full(index.begin(), index.end());
      full.insert(full.begin() + dim, ctx.sumIndex(loop.getInductionVar(), len));
      Value x = ctx.element(r.getInput(), full);
      Value acc = combine(ctx.b, ctx.loc, isMax, loop.getRegionIterArgs()[0], x);
      scf::YieldOp::create(ctx.b, ctx.loc, acc);
      ctx.b.setInsertionPointAfter(loop);
      return loop.getResult(0);
    });
  }
};

class BroadcastPattern final : public TilePattern {
public:
  bool matches(Operation *op) const override { return isa<BroadcastOp>(op); }

  FailureOr<Layout> inferLayout(Operation *op, ArrayRef<Layout> operands, const TileGeometry &,
                                std::string &why) const override {
    auto bc = cast<BroadcastOp>(op);
    auto out = cast<RankedTensorType>(bc.getResult().getType());
    const Layout &in = operands[0];
    if (in.kind == Kind::Splat)
      return in;
    if (out.getRank() != 2) {
      why = "of a tile is not lowered: only 1-d vectors are broadcast to tiles";
      return failure();
    }
    if (bc.getDim() == 1 && in.kind == Kind::Rows)
      return Layout{Kind::RowView, out.getDimSize(1)};
    if (bc.getDim() == 0 && in.kind == Kind::Cols)
      return Layout{Kind::ColView, out.getDimSize(1)};
    why = "along dim " + std::to_string(bc.getDim()) + " takes a vector that runs along the other dimension (a " + in.str() + ")";
    return failure();
  }

  Frag emit(Operation *op, RegisterContext &ctx, const Layout &result) const override {
    Frag in = ctx.operand(op, 0);
    in.layout = in.layout.kind == Kind::Splat ? in.layout : result;
    return in;
  }

  bool elementLocal() const override { return true; }

  void emitReference(Operation *op, ReferenceContext &ctx) const override {
    auto bc = cast<BroadcastOp>(op);
    ctx.forEach(bc.getResult(), [&](ValueRange index) {
      SmallVector<Value> in(index.begin(), index.end());
      in.erase(in.begin() + bc.getDim());
      return ctx.element(bc.getInput(), in);
    });
  }
};

} // namespace

namespace stagecraft::lowering {
const TilePattern &reducePattern() {
  static ReducePattern p;
  return p;
}
const TilePattern &broadcastPattern() {
  static BroadcastPattern p;
  return p;
}
} // namespace stagecraft::lowering
