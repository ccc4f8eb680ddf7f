//===- LoadStore.cpp - tiles between memory and registers -----------------===//
//
// Pipelined kernel: a TMA-loaded tile that register math reads is read
// from shared memory by each thread at its elements' rows and columns,
// undoing the 128/64/32-byte swizzle TMA applied (the 16-byte chunk index
// XOR the 128-byte row index, as the address bits say). A stored value is
// written by each thread into a row-major staging tile, which one thread
// then stores with TMA (ConsumerLoop.cpp).
//
// Reference: loads read global memory element by element (zero out of
// bounds, as TMA fills), stores write the elements in bounds (TMA clips).
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/patterns/Memory.h"
#include "passes/Lowering/patterns/Fp8.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <array>
#include <map>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;
using hopper::Emitter;
using arith::CmpIPredicate;

namespace {

/// Byte offset of element (row, col) within a shared-memory tile.
Value smemElementOffset(Emitter &e, const SmemTile &t, Value row, Value col) {
  Value panel = e.divu(col, e.c32(t.panelCols));
  Value inner = e.remu(col, e.c32(t.panelCols));
  Value off = e.add(e.mul(panel, e.c32(t.panelBytes)),
                    e.add(e.mul(row, e.c32(t.panelCols * t.elemBytes)),
                          e.mul(inner, e.c32(t.elemBytes))));
  if (t.swizzle) {
    Value rowBits = e.andi(arith::ShRUIOp::create(e.b, e.loc, off, e.c32(7)),
                           e.c32(t.swizzle / 16 - 1));
    off = arith::XOrIOp::create(e.b, e.loc, off,
                                arith::ShLIOp::create(e.b, e.loc, rowBits, e.c32(4)));
  }
  return off;
}

Value loadElement(Emitter &e, const SmemRef &ref, Value row, Value col) {
  const SmemTile &t = *ref.tile;
  Value ptr = e.smemPtr(e.add(ref.offset, smemElementOffset(e, t, row, col)));
  Value v = LLVM::LoadOp::create(e.b, e.loc, memoryType(t.elemType), ptr);
  return loadedToF32(e.b, e.loc, v, t.elemType);
}

/// A 16-bit pair of the tile layout's elements `el` and `el + 1` (i32).
Value tilePair(RegisterContext &ctx, const Frag &value, Type elem, const Layout &tile,
               int64_t el) {
  if (value.packed) // a packed frag is always in its tile layout
    return value.elems[el / 2];
  // Raw elements: the pair conversion rounds unrounded values.
  Value lo = value.elems[sourceElement(value.layout, tile, el, ctx.geom)];
  Value hi = value.elems[sourceElement(value.layout, tile, el + 1, ctx.geom)];
  return ctx.e.pack16(elem, lo, hi);
}

/// A 16-bit tile's panel with stmatrix: a warp's share of the wgmma
/// accumulator layout is, per 64-row block and 8 columns, two 8x8 matrices
/// (rows 0-7 and 8-15 of the warp's 16) in which each thread holds the
/// pair at row lane / 4, columns 2 * (lane % 4): exactly stmatrix's
/// fragment, so one stmatrix.x4 writes four of them (x2 for an odd column
/// block). Thread `lane` gives the address of row lane % 8 of matrix
/// lane / 8: 16 contiguous bytes, a swizzle chunk.
void writeStagingPanelStmatrix(RegisterContext &ctx, const Frag &value, const SmemTile &one,
                               int64_t cols, int64_t panel, Value slot) {
  Emitter &e = ctx.e;
  Layout tile = Layout::tile(cols);
  // (block, column block) -> the pair index of each half (rows +0, +8).
  std::map<std::pair<int64_t, int64_t>, std::array<int64_t, 2>> cells;
  for (int64_t el = 0; el < tile.count(ctx.geom); el += 2) {
    TileElement te = tileElement(cols, el);
    if (8 * te.colBlock / one.panelCols != panel || !ctx.needed(tile, el))
      continue;
    auto it = cells.try_emplace({te.block, te.colBlock}, std::array<int64_t, 2>{-1, -1}).first;
    it->second[te.half] = el;
  }
  Value lane = e.remu(ctx.threadIndex(), e.c32(32));
  Value matrix = e.divu(lane, e.c32(8));
  // Row lane % 8 of the matrix instead of the fragment's row lane / 4.
  Value rowShift = e.sub(e.remu(lane, e.c32(8)), e.divu(lane, e.c32(4)));
  Value secondHalf = e.remu(matrix, e.c32(2)); // matrices 1 and 3: rows + 8
  Value secondCell = e.divu(matrix, e.c32(2)); // matrices 2 and 3
  auto *ctxMl = e.b.getContext();
  auto shape = NVVM::LdStMatrixShapeAttr::get(ctxMl, 8, 8);
  for (auto it = cells.begin(); it != cells.end();) {
    auto first = it++;
    bool pairUp = it != cells.end() && it->first.first == first->first.first;
    auto second = pairUp ? it++ : first;
    SmallVector<Value> regs;
    SmallVector<decltype(first)> both{first};
    if (pairUp)
      both.push_back(second);
    for (auto cell : both) {
      for (int64_t h = 0; h < 2; ++h) {
        assert(cell->second[h] >= 0 && "a tile cell has both halves");
        regs.push_back(tilePair(ctx, value, one.elemType, tile, cell->second[h]));
      }
    }
    // The cell's rows as this thread's fragment has them, moved to the
    // address row; columns of the first or the second cell.
    Value row = e.add(e.add(ctx.rowOf(tile, first->second[0]), rowShift),
                      e.mul(secondHalf, e.c32(8)));
    int64_t col0 = 8 * first->first.second - panel * one.panelCols;
    int64_t col1 = 8 * second->first.second - panel * one.panelCols;
    Value col = e.add(e.c32(col0), e.mul(secondCell, e.c32(col1 - col0)));
    Value ptr = e.smemPtr(e.add(slot, smemElementOffset(e, one, row, col)));
    NVVM::StMatrixOp::create(e.b, e.loc, ptr, regs, NVVM::MMALayout::row, shape,
                             NVVM::LdStMatrixEltType::B16);
  }
}

} // namespace

Value stagecraft::lowering::smemByteOffset(Emitter &e, const SmemTile &t, Value row, Value col) {
  return smemElementOffset(e, t, row, col);
}

Value stagecraft::lowering::readSmemElement(Emitter &e, const SmemRef &ref, Value row, Value col) {
  return loadElement(e, ref, row, col);
}

std::function<Value(Emitter &, Value, ValueRange)>
stagecraft::lowering::residentExtractor(const KernelPlan &plan) {
  return [&plan](Emitter &e, Value tensor, ValueRange index) -> Value {
    const Resident *r = plan.residentOf(tensor);
    assert(r && "placement: tensor.extract reads a resident tile");
    SmemRef ref{e.c32(r->offset), &r->tile};
    Value row = index.size() >= 2 ? index[index.size() - 2] : e.c32(0);
    return loadElement(e, ref, row, index.back());
  };
}

Frag stagecraft::lowering::readSmemTile(RegisterContext &ctx, const SmemRef &ref,
                                        const Layout &layout) {
  Emitter &e = ctx.e;
  Frag out{layout, ref.tile->elemType, {}, false};
  bool oneD = ref.tile->rows == 1 && layout.kind != Kind::Tile;
  Value unread;
  for (int64_t el = 0; el < layout.count(ctx.geom); ++el) {
    if (!ctx.needed(layout, el)) {
      if (!unread)
        unread = LLVM::PoisonOp::create(e.b, e.loc, carrierType(ref.tile->elemType));
      out.elems.push_back(unread);
      continue;
    }
    Value row, col;
    if (oneD) {
      row = e.c32(0);
      col = layout.kind == Kind::Rows ? ctx.rowOf(layout, el) : ctx.colOf(layout, el);
    } else {
      row = ctx.rowOf(layout, el);
      col = ctx.colOf(layout, el);
    }
    out.elems.push_back(loadElement(e, ref, row, col));
  }
  return out;
}

void stagecraft::lowering::writeStagingPanel(RegisterContext &ctx, const Frag &value,
                                             StoreOp store, int64_t panel, Value slot) {
  Emitter &e = ctx.e;
  DescType desc = store.getDesc().getType();
  ArrayRef<int64_t> shape = desc.getTileShape();
  Type elem = desc.getElementType();
  SmemTile t = SmemTile::of(desc);
  int64_t eb = t.elemBytes;
  bool fp8 = isFp8(elem);
  auto convert = [&](Value v) -> Value {
    if (fp8)
      return f32ToFp8Byte(e.b, e.loc, v, elem);
    if (elem.isF32() || elem.isInteger(32)) // an i32 tile's carrier is i32
      return v;
    return LLVM::FPTruncOp::create(e.b, e.loc, elem, v).getResult();
  };
  if (shape.size() == 2) {
    // One panel: columns [panel * panelCols, (panel + 1) * panelCols), stored
    // as the only panel of the slot (swizzled as TMA expects it).
    SmemTile one = t;
    one.panels = 1;
    int64_t cols = shape[1];
    Layout tile = Layout::tile(cols);
    if (eb == 2) {
      writeStagingPanelStmatrix(ctx, value, one, cols, panel, slot);
      return;
    }
    for (int64_t el = 0; el < tile.count(ctx.geom); el += 2) {
      TileElement te = tileElement(cols, el);
      int64_t colBase = 8 * te.colBlock;
      if (colBase / t.panelCols != panel || !ctx.needed(tile, el))
        continue;
      Value row = ctx.rowOf(tile, el);
      Value col = e.sub(ctx.colOf(tile, el), e.c32(panel * t.panelCols));
      Value ptr = e.smemPtr(e.add(slot, smemElementOffset(e, one, row, col)));
      if (fp8) {
        // Two neighbouring FP8 columns: one cvt and a 2-byte store (their
        // byte offsets differ by one in any swizzle: 16-byte chunks).
        Value lo = value.elems[sourceElement(value.layout, tile, el, ctx.geom)];
        Value hi = value.elems[sourceElement(value.layout, tile, el + 1, ctx.geom)];
        LLVM::StoreOp::create(e.b, e.loc, f32PairToFp8(e.b, e.loc, lo, hi, elem), ptr);
        continue;
      }
      // Two neighbouring f32 (or i32) columns: one 8-byte store.
      auto vec = VectorType::get({2}, elem.isInteger(32) ? e.i32() : e.f32());
      Value v = LLVM::UndefOp::create(e.b, e.loc, vec);
      v = LLVM::InsertElementOp::create(e.b, e.loc, v, ctx.element(value, tile, el), e.c32(0));
      v = LLVM::InsertElementOp::create(e.b, e.loc, v, ctx.element(value, tile, el + 1), e.c32(1));
      LLVM::StoreOp::create(e.b, e.loc, v, ptr);
    }
    return;
  }
  // A vector: the threads that hold distinct elements write them.
  auto write = [&](Value index, Value v) {
    Value ptr = e.smemPtr(e.add(slot, e.mul(index, e.c32(eb))));
    LLVM::StoreOp::create(e.b, e.loc, convert(v), ptr);
  };
  int64_t len = shape[0];
  if (value.layout.kind == Kind::Rows) {
    Value firstOfRow = e.cmp(CmpIPredicate::eq, ctx.colOf(Layout::colsOf(8), 0), e.c32(0));
    e.ifThen(firstOfRow, [&] {
      for (int64_t el = 0; el < value.layout.count(ctx.geom); ++el)
        write(ctx.rowOf(value.layout, el), ctx.element(value, value.layout, el));
    });
  } else if (value.layout.kind == Kind::Cols) {
    Value firstRow = e.cmp(CmpIPredicate::eq, ctx.rowOf(Layout::rows(), 0), e.c32(0));
    e.ifThen(firstRow, [&] {
      for (int64_t el = 0; el < value.layout.count(ctx.geom); ++el)
        write(ctx.colOf(value.layout, el), ctx.element(value, value.layout, el));
    });
  } else { // a splat: spread the elements over the threads
    int64_t threads = 128 * ctx.geom.wgs;
    for (int64_t i = 0; i < len; i += threads) {
      Value idx = e.add(ctx.threadIndex(), e.c32(i));
      e.ifThen(e.cmp(CmpIPredicate::slt, idx, e.c32(len)),
               [&] { write(idx, ctx.element(value, value.layout, 0)); });
    }
  }
}

namespace {

/// Global index of a tile element: the descriptor's coordinates plus the
/// element's index in the box's trailing dimensions; whether it is inside
/// the tensor; and its linear offset (i64).
struct GlobalElement {
  Value inBounds, linear;
};

GlobalElement globalElement(Emitter &e, ReferenceContext &ctx, GlobalMemory &mem, Value descV,
                            ValueRange coords, ValueRange index) {
  auto desc = cast<DescType>(descV.getType());
  SmallVector<Value> shape = mem.shape(descV);
  int64_t rank = desc.getRank(), lead = rank - static_cast<int64_t>(index.size());
  Value in = arith::ConstantIntOp::create(e.b, e.loc, 1, 1);
  Value linear = e.c64(0);
  for (int64_t d = 0; d < rank; ++d) {
    Value c = ctx.scalar(coords[d]);
    if (d >= lead)
      c = e.add(c, index[d - lead]);
    in = e.land(in, e.land(e.cmp(CmpIPredicate::sge, c, e.c32(0)),
                           e.cmp(CmpIPredicate::slt, c, shape[d])));
    Value c64 = arith::ExtSIOp::create(e.b, e.loc, e.i64(), c);
    Value n64 = arith::ExtSIOp::create(e.b, e.loc, e.i64(), shape[d]);
    linear = arith::AddIOp::create(e.b, e.loc, arith::MulIOp::create(e.b, e.loc, linear, n64), c64);
  }
  return {in, linear};
}

Value elementPtr(Emitter &e, Value base, Type elem, Value linear) {
  return LLVM::GEPOp::create(e.b, e.loc, e.ptr(1), elem, base, ArrayRef<LLVM::GEPArg>{linear});
}

} // namespace

void stagecraft::lowering::emitReferenceLoad(LoadOp load, ReferenceContext &ctx,
                                             GlobalMemory &mem) {
  Type elem = load.getDesc().getType().getElementType();
  ctx.forEach(load.getResult(), [&](ValueRange index) {
    Emitter e = ctx.emitter();
    GlobalElement g = globalElement(e, ctx, mem, load.getDesc(), load.getCoords(), index);
    // Out of bounds reads as zero, as TMA fills it (in the carrier's type).
    Type carrier = carrierType(elem);
    Value zero = arith::ConstantOp::create(e.b, e.loc, e.b.getZeroAttr(carrier));
    ValueRange v = e.ifYield(g.inBounds, ValueRange{zero}, [&]() -> SmallVector<Value> {
      Type stored = memoryType(elem);
      Value x = LLVM::LoadOp::create(
          e.b, e.loc, stored, elementPtr(e, mem.pointer(load.getDesc()), stored, g.linear));
      return {loadedToF32(e.b, e.loc, x, elem)};
    });
    return v[0];
  });
}

void stagecraft::lowering::emitReferenceStore(StoreOp store, ReferenceContext &ctx,
                                              GlobalMemory &mem) {
  DescType desc = store.getDesc().getType();
  Type elem = desc.getElementType();
  mem.forEachIndex(desc.getTileShape(), [&](ValueRange index) {
    Emitter e = ctx.emitter();
    GlobalElement g = globalElement(e, ctx, mem, store.getDesc(), store.getCoords(), index);
    e.ifThen(g.inBounds, [&] {
      Value x = ctx.element(store.getValue(), index);
      if (isFp8(elem)) // already rounded (roundTo): an exact conversion to its byte
        x = f32ToFp8Byte(e.b, e.loc, x, elem);
      else if (!elem.isF32() && !elem.isInteger(32))
        x = LLVM::FPTruncOp::create(e.b, e.loc, elem, x);
      Value ptr = elementPtr(e, mem.pointer(store.getDesc()), memoryType(elem), g.linear);
      LLVM::StoreOp::create(e.b, e.loc, x, ptr);
    });
  });
}
