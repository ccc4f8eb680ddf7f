//===- Tcgen05.cpp - the pipelined loop on sm_100a (tcgen05) --------------===//
#include "passes/Lowering/Tcgen05.h"
#include "passes/Lowering/Tcgen05Ops.h"
#include "passes/Lowering/patterns/Memory.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;
using hopper::Emitter;
using arith::CmpIPredicate;
namespace bw = stagecraft::blackwell;

namespace {

constexpr int kTcgen05Barrier = 3; // named barrier of the consumers (1: epilogue, 2: upcasts)
constexpr int64_t kMaxTensorMemoryColumns = 512;

InFlightDiagnostic refuse(Operation *op, const Twine &why) {
  return op->emitError("tile-lower-to-nvvm (sm_100a): ") << why;
}

int64_t alignTo(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

bool isZeroSplat(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
  return dense && dense.isSplat() && isa<FloatType>(dense.getElementType()) &&
         dense.getSplatValue<APFloat>().isPosZero();
}

Type elementOf(Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); }

/// A and B of a dot or a block-scaled dot, and its scales.
Value operandA(Operation *op) { return op->getOperand(0); }
Value operandB(Operation *op) { return op->getOperand(isa<DotOp>(op) ? 1 : 2); }
Value accumulator(Operation *op) { return op->getOperand(isa<DotOp>(op) ? 2 : 4); }
int64_t dimN(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType()).getDimSize(1);
}
int64_t dimK(Operation *op) {
  auto a = cast<RankedTensorType>(operandA(op).getType());
  return a.getDimSize(1); // K-major (placement and planTcgen05 check it)
}

/// Whether a scale tile of `rows` rows is stored transposed (K/32 x rows).
bool scalesTransposed(Value scale, int64_t rows, int64_t k) {
  auto t = cast<RankedTensorType>(scale.getType());
  return t.getDimSize(0) == k / 32 && t.getDimSize(1) == rows;
}

/// Format codes of the instruction descriptor: kind::f16 (f16 0, bf16 1)
/// and kind::f8f6f4 / mxf8f6f4 (e4m3 0, e5m2 1).
int formatOf(Type t) { return t.isBF16() || isa<Float8E5M2Type>(t) ? 1 : 0; }

int ringIndexOf(const KernelPlan &p, Value v) {
  for (unsigned i = 0; i < p.rings.size(); ++i)
    if (const_cast<Ring &>(p.rings[i]).load.getResult() == v)
      return static_cast<int>(i);
  return -1;
}

} // namespace

LogicalResult stagecraft::lowering::planTcgen05(KernelPlan &p) {
  Block *body = p.loop.getBody();
  Operation *yield = body->getTerminator();
  int64_t column = 0;
  auto dotOf = [](const BodyUnit &bu) -> Operation * {
    return bu.ops.size() == 1 && isa<DotOp, DotScaledOp>(bu.ops[0]) ? bu.ops[0] : nullptr;
  };
  for (const BodyUnit &bu : p.body)
    if (!bu.isLoad && !dotOf(bu))
      return refuse(bu.ops.front(), "the pipelined loop may hold loads and dots only (the "
                                    "accumulators stay in tensor memory); '")
             << p.graph.units[bu.unit].name
             << "' computes in registers, which is not lowered for sm_100a yet";
  for (unsigned u = 0; u < p.body.size(); ++u) {
    BodyUnit &bu = p.body[u];
    if (bu.isLoad)
      continue;
    Operation *op = dotOf(bu);
    Value result = op->getResult(0);
    auto arg = dyn_cast<BlockArgument>(accumulator(op));
    if (!arg || arg.getOwner() != body || arg.getArgNumber() == 0 ||
        yield->getOperand(arg.getArgNumber() - 1) != result ||
        !isZeroSplat(p.loop.getInitArgs()[arg.getArgNumber() - 1]))
      return refuse(op, "a dot must accumulate into its own loop-carried tile, zero at the "
                        "start (it stays in tensor memory)");
    if (!arg.hasOneUse() || !result.hasOneUse())
      return refuse(op, "a dot's result may only be carried to its next iteration and read "
                        "after the loop (register math on it in the loop is not lowered for "
                        "sm_100a yet)");
    Tcgen05Dot d;
    d.op = op;
    d.body = static_cast<int>(u);
    auto loaded = [&](Value v, const char *what) -> FailureOr<int> {
      if (!v.getDefiningOp<LoadOp>()) {
        refuse(op, "") << what << " must be a tile loaded by TMA";
        return failure();
      }
      return ringIndexOf(p, v);
    };
    FailureOr<int> ra = loaded(operandA(op), "A"), rb = loaded(operandB(op), "B");
    if (failed(ra) || failed(rb))
      return failure();
    d.ringA = *ra;
    d.ringB = *rb;
    int64_t n = dimN(op), k = dimK(op);
    if (n % 16 || n < 16 || n > 256)
      return refuse(op, "N = ") << n << " must be a multiple of 16 from 16 to 256 for an M = 128 "
                                       "tcgen05.mma";
    d.accColumn = column;
    column += n;
    if (auto s = dyn_cast<DotScaledOp>(op)) {
      if (k != 128)
        return refuse(op, "a block-scaled dot takes K = 128 per iteration here (four e8m0 "
                          "scales per row: one 32-bit tensor-memory column), got ")
               << k;
      if (n % 128)
        return refuse(op, "a block-scaled dot needs N a multiple of 128 here (scales are "
                          "copied to tensor memory 128 rows at a time), got ")
               << n;
      FailureOr<int> rsa = loaded(s.getAScale(), "a_scale"), rsb = loaded(s.getBScale(), "b_scale");
      if (failed(rsa) || failed(rsb))
        return failure();
      if (*rsa < 0 || *rsb < 0)
        return refuse(op, "the scales must be loaded in the loop (on rings of their own)");
      d.ringSA = *rsa;
      d.ringSB = *rsb;
      d.sfaColumns = 4;
      d.sfbColumns = 4 * (n / 128);
      d.sfaColumn = column;
      column += d.sfaColumns * p.rings[d.ringSA].copies;
      d.sfbColumn = column;
      column += d.sfbColumns * p.rings[d.ringSB].copies;
      d.stagingBytesA = 512;
      d.stagingBytesB = 512 * (n / 128);
    }
    p.tcgen05.dots.push_back(d);
  }
  if (column > kMaxTensorMemoryColumns)
    return refuse(p.loop, "the accumulators and scales need ")
           << column << " tensor-memory columns; a block has " << kMaxTensorMemoryColumns;
  p.tcgen05.columns = 32;
  while (p.tcgen05.columns < column)
    p.tcgen05.columns *= 2;

  // Every ring buffer is freed by a tcgen05.commit of the MMA that read it
  // (the scales' too: their staging copy lives in the ring's slot's stead).
  for (Ring &r : p.rings)
    r.emptyArrivals = 1;

  // Shared memory: the scales' staging after the rings, local rings and
  // residents; two barrier words at the end of the barrier area.
  int64_t end = 1024;
  for (const Ring &r : p.rings)
    end = std::max(end, r.offset + r.copies * r.stride);
  for (const LocalRing &r : p.locals)
    end = std::max(end, r.offset + r.copies * r.stride);
  for (const Resident &r : p.residents)
    end = std::max(end, r.offset + alignTo(r.tile.bytes, 1024));
  for (Tcgen05Dot &d : p.tcgen05.dots) {
    if (!d.stagingBytesA)
      continue;
    d.stagingA = alignTo(end, 128);
    end = d.stagingA + d.stagingBytesA * p.rings[d.ringSA].copies;
    d.stagingB = alignTo(end, 128);
    end = d.stagingB + d.stagingBytesB * p.rings[d.ringSB].copies;
  }
  p.smemBytes = std::max(p.smemBytes, end);
  if (p.smemBytes > p.target.smemPerBlock())
    return p.kernel.emitError("tile-lower-to-nvvm (sm_100a): the kernel needs ")
           << p.smemBytes << " bytes of shared memory (the scales' staging included); a block "
           << "has " << p.target.smemPerBlock();
  p.tcgen05.accBar = 1024 - 16;
  p.tcgen05.tmemSlot = 1024 - 8;
  if (p.lateResidentBar + 8 > p.tcgen05.accBar)
    return p.kernel.emitError("tile-lower-to-nvvm (sm_100a): too many ring buffers for the "
                              "barrier area");
  return success();
}

void stagecraft::lowering::emitTensorMemoryAlloc(Emitter &e, const KernelPlan &p, Value ctid) {
  Value warp = e.divu(ctid, e.c32(32));
  e.ifThen(e.cmp(CmpIPredicate::eq, warp, e.c32(0)), [&] {
    bw::tmemAlloc(e, e.smemAddr32(e.smemPtr(p.tcgen05.tmemSlot)), p.tcgen05.columns);
  });
  e.ifThen(e.cmp(CmpIPredicate::eq, ctid, e.c32(0)),
           [&] { e.mbarrierInit(e.smemPtr(p.tcgen05.accBar), 1); });
  // The address tcgen05.alloc wrote, and the barrier, seen by every consumer.
  bw::fenceBeforeThreadSync(e);
  e.namedBarrier(kTcgen05Barrier, static_cast<int>(128 * p.geom.wgs));
  bw::fenceAfterThreadSync(e);
}

void stagecraft::lowering::emitTensorMemoryRelease(Emitter &e, const KernelPlan &p, Value ctid) {
  bw::fenceBeforeThreadSync(e);
  e.namedBarrier(kTcgen05Barrier, static_cast<int>(128 * p.geom.wgs));
  e.ifThen(e.cmp(CmpIPredicate::eq, e.divu(ctid, e.c32(32)), e.c32(0)), [&] {
    bw::fenceAfterThreadSync(e);
    Value tmem = LLVM::LoadOp::create(e.b, e.loc, e.i32(), e.smemPtr(p.tcgen05.tmemSlot));
    bw::tmemDealloc(e, tmem, p.tcgen05.columns);
  });
}

namespace {

class Tcgen05Loop {
public:
  Tcgen05Loop(Emitter &e, KernelPlan &p, WarpGroupFrame &frame, Value ctid)
      : e(e), p(p), frame(frame), ctid(ctid) {}
  std::vector<std::pair<Value, Frag>> run();

private:
  void iteration(Value kit);
  void stageScales(const Tcgen05Dot &d, Value src);
  void issue(const Tcgen05Dot &d, Value src);
  SmemRef operandTile(int ring, Value v, Value src);
  Frag readAccumulator(const Tcgen05Dot &d, const Layout &layout);

  Emitter &e;
  KernelPlan &p;
  WarpGroupFrame &frame;
  Value ctid, tmem, issuer;
};

SmemRef Tcgen05Loop::operandTile(int ring, Value v, Value src) {
  if (ring >= 0)
    return SmemRef{frame.slotOffset(e, p.rings[ring], src), &p.rings[ring].tile};
  const Resident *r = p.residentOf(v);
  return SmemRef{e.c32(r->offset), &r->tile};
}

void Tcgen05Loop::stageScales(const Tcgen05Dot &d, Value src) {
  // Each consumer thread moves the four scales of a row into the layout
  // tcgen05.cp 32x128b.warpx4 reads: 32 rows of 16 bytes per 128 rows, row r
  // at 16 (r % 32) + 4 ((r % 128) / 32), one byte per 32-element block of K.
  auto dot = cast<DotScaledOp>(d.op);
  int64_t k = dimK(d.op), threads = 128 * p.geom.wgs;
  auto stage = [&](int ringIndex, Value scale, int64_t rows, int64_t stagingOffset,
                   int64_t stagingBytes) {
    const Ring &ring = p.rings[ringIndex];
    frame.waitFull(e, ring, src);
    SmemRef tile{frame.slotOffset(e, ring, src), &ring.tile};
    bool transposed = scalesTransposed(scale, rows, k);
    Value slot = e.remu(src, e.c32(ring.copies));
    Value staging = e.add(e.c32(stagingOffset), e.mul(slot, e.c32(stagingBytes)));
    for (int64_t base = 0; base < rows; base += threads) {
      Value r = e.add(ctid, e.c32(base));
      auto row = [&] {
        Value word = e.c32(0);
        for (int64_t s = 0; s < 4; ++s) {
          Value at = transposed ? smemByteOffset(e, ring.tile, e.c32(s), r)
                                : smemByteOffset(e, ring.tile, r, e.c32(s));
          Value byte = LLVM::LoadOp::create(e.b, e.loc, e.b.getI8Type(),
                                            e.smemPtr(e.add(tile.offset, at)));
          byte = arith::ExtUIOp::create(e.b, e.loc, e.i32(), byte);
          word = arith::OrIOp::create(e.b, e.loc, word,
                                      arith::ShLIOp::create(e.b, e.loc, byte, e.c32(8 * s)));
        }
        Value atom = e.divu(r, e.c32(128)), inAtom = e.remu(r, e.c32(128));
        Value at = e.add(e.mul(atom, e.c32(512)),
                         e.add(e.mul(e.remu(inAtom, e.c32(32)), e.c32(16)),
                               e.mul(e.divu(inAtom, e.c32(32)), e.c32(4))));
        LLVM::StoreOp::create(e.b, e.loc, word, e.smemPtr(e.add(staging, at)), /*alignment=*/4);
      };
      if (base + threads > rows)
        e.ifThen(e.cmp(CmpIPredicate::slt, r, e.c32(rows)), row);
      else
        row();
    }
  };
  stage(d.ringSA, dot.getAScale(), dot.getM(), d.stagingA, d.stagingBytesA);
  stage(d.ringSB, dot.getBScale(), dot.getN(), d.stagingB, d.stagingBytesB);
  // tcgen05.cp reads through the async proxy.
  e.fenceProxyAsyncShared();
  e.namedBarrier(kTcgen05Barrier, static_cast<int>(threads));
}

void Tcgen05Loop::issue(const Tcgen05Dot &d, Value src) {
  Operation *op = d.op;
  Value a = operandA(op), b = operandB(op);
  if (d.ringA >= 0)
    frame.waitFull(e, p.rings[d.ringA], src);
  if (d.ringB >= 0 && d.ringB != d.ringA)
    frame.waitFull(e, p.rings[d.ringB], src);
  bw::fenceAfterThreadSync(e);
  SmemRef ta = operandTile(d.ringA, a, src), tb = operandTile(d.ringB, b, src);
  Value descA = e.pinned(bw::smemDescriptor(e, e.smemAddr32(e.smemPtr(ta.offset))));
  Value descB = e.pinned(bw::smemDescriptor(e, e.smemAddr32(e.smemPtr(tb.offset))));
  Type ea = elementOf(a), eb = elementOf(b);
  bool eightBit = isFp8(ea);
  int64_t m = 128, n = dimN(op), k = dimK(op), kStep = eightBit ? 32 : 16;
  // K-major: a k step is 32 bytes along a 128-byte row, then the next panel.
  auto step = [&](Value desc, const SmemTile &t, int64_t kk) {
    int64_t bytes = (kk / 4) * t.panelBytes + (kk % 4) * 32;
    return bytes ? arith::AddIOp::create(e.b, e.loc, desc, e.c64(bytes >> 4)).getResult() : desc;
  };
  Value accAddr = e.add(tmem, e.c32(d.accColumn));
  Value first = arith::ExtUIOp::create(e.b, e.loc, e.i32(),
                                       e.cmp(CmpIPredicate::ne, src, e.c32(0)));
  Value sfa, sfb;
  if (isa<DotScaledOp>(op)) {
    const Ring &rsa = p.rings[d.ringSA], &rsb = p.rings[d.ringSB];
    Value slotA = e.remu(src, e.c32(rsa.copies)), slotB = e.remu(src, e.c32(rsb.copies));
    sfa = e.add(tmem, e.add(e.c32(d.sfaColumn), e.mul(slotA, e.c32(d.sfaColumns))));
    sfb = e.add(tmem, e.add(e.c32(d.sfbColumn), e.mul(slotB, e.c32(d.sfbColumns))));
    Value stA = e.add(e.c32(d.stagingA), e.mul(slotA, e.c32(d.stagingBytesA)));
    Value stB = e.add(e.c32(d.stagingB), e.mul(slotB, e.c32(d.stagingBytesB)));
    bw::copyScales(e, sfa, bw::smemDescriptorPlain(e, e.smemAddr32(e.smemPtr(stA))));
    for (int64_t atom = 0; atom < n / 128; ++atom)
      bw::copyScales(e, e.add(sfb, e.c32(4 * atom)),
                     bw::smemDescriptorPlain(
                         e, e.smemAddr32(e.smemPtr(e.add(stB, e.c32(512 * atom))))));
  }
  for (int64_t kk = 0; kk < k / kStep; ++kk) {
    Value enable = kk == 0 ? first : e.c32(1);
    Value da = step(descA, *ta.tile, kk), db = step(descB, *tb.tile, kk);
    if (isa<DotScaledOp>(op))
      bw::mmaBlockScaled(e, accAddr, da, db,
                         bw::instrDescriptorBlockScaled(formatOf(ea), formatOf(eb), m, n,
                                                        static_cast<int>(kk)),
                         sfa, sfb, enable);
    else
      bw::mma(e, eightBit ? "f8f6f4" : "f16", accAddr, da, db,
              bw::instrDescriptor(formatOf(ea), formatOf(eb), m, n), enable);
  }
  // The MMA-pipelining signal: each ring's buffer is free once these MMAs
  // (and the scale copies before them) complete.
  SmallVector<int> rings = {d.ringA, d.ringB, d.ringSA, d.ringSB};
  llvm::sort(rings);
  rings.erase(std::unique(rings.begin(), rings.end()), rings.end());
  for (int ri : rings)
    if (ri >= 0) {
      const Ring &r = p.rings[ri];
      Value slot = e.remu(src, e.c32(r.copies));
      bw::commit(e, e.smemAddr32(e.smemPtr(e.add(e.c32(r.emptyBar), e.mul(slot, e.c32(8))))));
    }
}

void Tcgen05Loop::iteration(Value kit) {
  for (unsigned u = 0; u < p.body.size(); ++u) {
    BodyUnit &bu = p.body[u];
    Value src = e.sub(kit, e.c32(bu.off));
    Value inRange = e.land(e.cmp(CmpIPredicate::sge, src, e.c32(0)),
                           e.cmp(CmpIPredicate::slt, src, frame.trip.count));
    if (bu.isLoad) {
      for (const Ring &r : p.rings)
        if (r.unit == bu.unit)
          e.ifThen(e.land(inRange, issuer), [&] { frame.produce(e, r, src, src); });
      continue;
    }
    const Tcgen05Dot *d = nullptr;
    for (const Tcgen05Dot &x : p.tcgen05.dots)
      if (x.body == static_cast<int>(u))
        d = &x;
    e.ifThen(inRange, [&] {
      if (isa<DotScaledOp>(d->op))
        stageScales(*d, src);
      e.ifThen(issuer, [&] { issue(*d, src); });
    });
  }
}

Frag Tcgen05Loop::readAccumulator(const Tcgen05Dot &d, const Layout &layout) {
  // Warp w of warp group g reads, for its row block b, the 16 lanes at
  // 32 w + 16 (g rowBlocks + b): rows in the wgmma accumulator order.
  Value warp = e.remu(e.divu(ctid, e.c32(32)), e.c32(4));
  Value cwg = e.divu(ctid, e.c32(128));
  int64_t n = dimN(d.op);
  Frag f{layout, e.f32(), {}, false};
  for (int64_t blk = 0; blk < p.geom.rowBlocks; ++blk) {
    Value lane = e.add(e.mul(warp, e.c32(32)),
                       e.mul(e.add(e.mul(cwg, e.c32(p.geom.rowBlocks)), e.c32(blk)), e.c32(16)));
    Value base = e.add(tmem, e.add(arith::ShLIOp::create(e.b, e.loc, lane, e.c32(16)),
                                   e.c32(d.accColumn)));
    for (int64_t rep = 0; rep < n / 8;) {
      int64_t chunk = 8;
      while (rep + chunk > n / 8)
        chunk /= 2;
      SmallVector<Value> v = bw::load16x256b(e, e.add(base, e.c32(8 * rep)), chunk);
      f.elems.append(v.begin(), v.end());
      rep += chunk;
    }
  }
  return f;
}

std::vector<std::pair<Value, Frag>> Tcgen05Loop::run() {
  tmem = LLVM::LoadOp::create(e.b, e.loc, e.i32(), e.smemPtr(p.tcgen05.tmemSlot));
  issuer = e.cmp(CmpIPredicate::eq, ctid, e.c32(0));
  bool everyone = llvm::any_of(p.tcgen05.dots,
                               [](const Tcgen05Dot &d) { return isa<DotScaledOp>(d.op); });
  Value total = e.add(frame.trip.count, e.c32(p.cMax - p.cMin));
  auto loop = [&] {
    auto kloop = scf::ForOp::create(e.b, e.loc, e.c32(0), total, e.c32(1));
    OpBuilder::InsertionGuard guard(e.b);
    e.b.setInsertionPoint(kloop.getBody()->getTerminator());
    iteration(kloop.getInductionVar());
  };
  // Only the issuer runs the loop, unless every consumer stages scales.
  if (everyone)
    loop();
  else
    e.ifThen(issuer, loop);
  e.ifThen(issuer, [&] { bw::commit(e, e.smemAddr32(e.smemPtr(p.tcgen05.accBar))); });
  e.mbarrierWait(e.smemPtr(p.tcgen05.accBar), e.c32(0));
  bw::fenceAfterThreadSync(e);

  std::vector<std::pair<Value, Frag>> results;
  Value ran = e.cmp(CmpIPredicate::sgt, frame.trip.count, e.c32(0));
  Value zero = arith::ConstantOp::create(e.b, e.loc, e.b.getF32FloatAttr(0.0f));
  Operation *yield = p.loop.getBody()->getTerminator();
  for (auto [i, r] : llvm::enumerate(p.loop.getResults())) {
    Value yielded = yield->getOperand(i);
    const Tcgen05Dot *d = nullptr;
    for (const Tcgen05Dot &x : p.tcgen05.dots)
      if (x.op->getResult(0) == yielded)
        d = &x;
    Frag f = readAccumulator(*d, p.layouts.lookup(r));
    // No iterations: no MMA wrote the accumulator; the result is its init.
    for (Value &v : f.elems)
      v = arith::SelectOp::create(e.b, e.loc, ran, v, zero);
    results.push_back({r, f});
  }
  return results;
}

} // namespace

std::vector<std::pair<Value, Frag>>
stagecraft::lowering::emitTcgen05Loop(Emitter &e, KernelPlan &plan, WarpGroupFrame &frame,
                                      Value ctid) {
  return Tcgen05Loop(e, plan, frame, ctid).run();
}
