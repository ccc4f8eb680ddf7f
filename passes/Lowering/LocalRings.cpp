//===- LocalRings.cpp - shared-memory tiles the consumers write -----------===//
#include "passes/Lowering/LocalRings.h"

#include "core/Schedule/ScheduleIR.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;

static constexpr int64_t kMaxDynamicSmem = 232448; // 227 KiB per block on sm_90

static int64_t alignTo(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

LogicalResult stagecraft::lowering::placeLocalRings(KernelPlan &p) {
  for (unsigned u = 0; u < p.body.size(); ++u)
    for (Operation *op : p.body[u].ops) {
      auto up = dyn_cast<UpcastOp>(op);
      if (!up || !upcastFeedsDotB(up.getResult()))
        continue;
      auto t = cast<RankedTensorType>(up.getResult().getType());
      Type elem = t.getElementType();
      if (!(elem.isBF16() || elem.isF16()))
        return op->emitError("tile-lower-to-nvvm: an upcast read as a dot's B must be bf16 or "
                             "f16, got ")
               << elem;
      int64_t rows = t.getDimSize(0), cols = t.getDimSize(1);
      if (cols % 64)
        return op->emitError("tile-lower-to-nvvm: an upcast read as a dot's B needs a multiple "
                             "of 64 columns (128-byte swizzled rows of 16-bit values), got ")
               << cols;
      for (Operation *user : up->getUsers()) {
        auto d = cast<DotOp>(user);
        if (!d.getTransposeB())
          return d.emitError("tile-lower-to-nvvm: an upcast B is written K-major: the dot "
                             "needs transpose_b (B as NxK)");
        if (p.bodyIndexOf(d) < 0)
          return d.emitError("tile-lower-to-nvvm: the dot reading an upcast B must run in the "
                             "consumer warp group");
      }
      LocalRing r;
      r.op = up;
      r.writer = u;
      r.reader = p.bodyIndexOf(*up->getUsers().begin());
      r.tile.rows = rows;
      r.tile.cols = cols;
      r.tile.panelCols = 64;
      r.tile.panels = cols / 64;
      r.tile.elemBytes = 2;
      r.tile.panelBytes = rows * 128;
      r.tile.bytes = rows * cols * 2;
      r.tile.swizzle = 128;
      r.tile.elemType = elem;
      std::string name = p.graph.units[p.body[u].unit].name + " (upcast B)";
      for (const LoadBuffers &b : p.report.buffers)
        if (b.name == name)
          r.copies = b.copies;
      p.locals.push_back(r);
    }
  return success();
}

LogicalResult stagecraft::lowering::layoutLocalRings(KernelPlan &p) {
  if (p.locals.empty())
    return success();
  int64_t end = 1024;
  for (const Ring &r : p.rings)
    end = std::max(end, r.offset + r.copies * r.stride);
  for (const Resident &r : p.residents)
    end = std::max(end, r.offset + alignTo(r.tile.bytes, 1024));
  for (LocalRing &r : p.locals) {
    r.stride = alignTo(r.tile.bytes, 1024);
    r.offset = alignTo(end, 1024);
    end = r.offset + r.copies * r.stride;
  }
  p.smemBytes = std::max(p.smemBytes, end);
  if (p.smemBytes > kMaxDynamicSmem)
    return p.kernel.emitError("tile-lower-to-nvvm: the kernel needs ")
           << p.smemBytes << " bytes of shared memory (upcast B rings included); an H100 block "
           << "has " << kMaxDynamicSmem;
  return success();
}

void stagecraft::lowering::planLocalRingWaits(KernelPlan &p) {
  int nd = p.numDots;
  for (const LocalRing &r : p.locals) {
    BodyUnit &w = p.body[r.writer];
    const BodyUnit &d = p.body[r.reader];
    // Kernel iterations back of the dot whose group must retire before the
    // upcast writes (see LocalRings.h).
    int64_t back = r.copies - 1 - (d.off - w.off);
    int committed = 0;
    for (int i = 0; i < r.writer; ++i)
      committed += p.body[i].dot ? 1 : 0;
    int64_t pending = committed + back * nd - d.dotPos - 1;
    if (pending < 0)
      pending = 0;
    // The reader dot before the writer in the body (the upcast a unit of its
    // own, a stage ahead): on the H100 the upcast running while that dot's
    // group was in flight gave wrong results (mxfp8_gemm_upcast with MMA
    // wait 1; right with wait 0, and with one K iteration), though neither
    // the slot it writes nor the registers it defines are the dot's. Until
    // the cause is found, the upcast waits for the dot to retire.
    if (d.dotPos < committed)
      pending = 0;
    w.wait = w.wait < 0 ? static_cast<int>(pending) : std::min<int>(w.wait, pending);
    // The same in the predicated kernel iterations (BodyUnit::predicatedWait).
    w.predicatedWait = w.predicatedWait < 0 ? static_cast<int>(pending)
                                            : std::min<int>(w.predicatedWait, pending);
  }
}
