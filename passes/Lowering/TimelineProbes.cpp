//===- TimelineProbes.cpp - the measured-timeline instrumentation ---------===//
#include "passes/Lowering/TimelineProbes.h"
#include "passes/Lowering/WarpGroupFrame.h"

#include "core/Schedule/Legality.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using hopper::Emitter;
using arith::CmpIPredicate;

namespace {
constexpr int64_t kHeaderBytes = kTimelineHeaderBytes, kRecordBytes = kTimelineRecordBytes;

Value i64Of(Emitter &e, Value v32) { return arith::ExtUIOp::create(e.b, e.loc, e.i64(), v32); }

/// A side-effecting inline asm (kept where it is: around the wgmma it times)
/// with one result of `result` type, or none for a null type.
Value inlineAsm(Emitter &e, Type result, ValueRange operands, StringRef text,
                StringRef constraints) {
  auto op = LLVM::InlineAsmOp::create(
      e.b, e.loc, result ? TypeRange{result} : TypeRange{}, operands, e.b.getStringAttr(text),
      e.b.getStringAttr(constraints), e.b.getUnitAttr(), UnitAttr(),
      LLVM::TailCallKindAttr::get(e.b.getContext(), LLVM::TailCallKind::None),
      LLVM::AsmDialectAttr::get(e.b.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
  return result ? op.getResult(0) : Value();
}

Value byteAt(Emitter &e, Value base, Value offset64) {
  return LLVM::GEPOp::create(e.b, e.loc, base.getType(), e.b.getI8Type(), base,
                             ValueRange{offset64});
}
} // namespace

int64_t TimelineProbes::warpGroups() const { return plan.threads / 128; }

void TimelineProbes::install(Emitter &e, WarpGroupFrame &frame) {
  MLIRContext *ctx = e.b.getContext();
  LLVM::LLVMFuncOp fn = frame.fn;
  // The trailing parameter (FunctionOpInterface::insertArgument cannot
  // clone a void LLVM function type): the type, the argument attributes
  // when there are any, the entry block's argument.
  LLVM::LLVMFunctionType type = fn.getFunctionType();
  SmallVector<Type> params(type.getParams());
  params.push_back(e.ptr(1));
  fn.setFunctionType(LLVM::LLVMFunctionType::get(type.getReturnType(), params, type.isVarArg()));
  if (ArrayAttr attrs = fn.getArgAttrsAttr()) {
    SmallVector<Attribute> all(attrs.begin(), attrs.end());
    all.push_back(DictionaryAttr::get(ctx));
    fn.setArgAttrsAttr(ArrayAttr::get(ctx, all));
  }
  buffer = fn.getBody().front().addArgument(e.ptr(1), fn.getLoc());

  // The counter: one i32 per thread, promoted to a register by LLVM.
  counter = LLVM::AllocaOp::create(e.b, e.loc, e.ptr(), e.i32(), e.c64(1));
  LLVM::StoreOp::create(e.b, e.loc, e.c32(0), counter);

  // This CTA's slot: CTA s * stride records in slot s, s < min(ctas, CTAs).
  // The registers are read in asm of their own: LLVM would otherwise merge
  // the kernel's reads (in each warp group's branch) into these at the
  // entry, and the kernel's own code would change with it (a ping-pong GEMM
  // compiled so, without probes, ran 8% slower on the H100).
  auto special = [&](StringRef reg) {
    return inlineAsm(e, e.i32(), ValueRange{}, ("mov.u32 $0, %" + reg + ";").str(), "=r");
  };
  Value bx = special("ctaid.x"), by = special("ctaid.y"), bz = special("ctaid.z");
  Value gx = special("nctaid.x"), gy = special("nctaid.y"), gz = special("nctaid.z");
  Value linear = e.add(bx, e.mul(gx, e.add(by, e.mul(gy, bz))));
  Value total = e.mul(gx, e.mul(gy, gz));
  Value slots = arith::MinUIOp::create(e.b, e.loc, total, e.c32(ctas));
  Value stride = e.divu(total, slots);
  slot = e.divu(linear, stride);
  sampled = e.land(e.cmp(CmpIPredicate::eq, e.remu(linear, stride), e.c32(0)),
                   e.cmp(CmpIPredicate::ult, slot, slots));
  // A null event buffer: no CTA records, every one runs the plain copy. The
  // runner times the kernel so beside the plain one and the recording one,
  // to tell what ptxas's other schedule of the same code costs from what
  // the records cost (manifest `runs_without_buffer`).
  Value address = LLVM::PtrToIntOp::create(e.b, e.loc, e.b.getI64Type(), buffer);
  sampled = e.land(sampled, arith::CmpIOp::create(e.b, e.loc, CmpIPredicate::ne, address, e.c64(0)));

  // What was instrumented, for the manifest (the driver reads it).
  Builder b(ctx);
  SmallVector<Attribute> groups;
  auto group = [&](StringRef role, StringRef name) {
    groups.push_back(b.getDictionaryAttr({b.getNamedAttr("role", b.getStringAttr(role)),
                                          b.getNamedAttr("name", b.getStringAttr(name))}));
  };
  if (hasProducer())
    group("producer", "producer");
  for (int64_t c = 0; c < warpGroups() - (hasProducer() ? 1 : 0); ++c)
    group("consumer", ("consumer " + std::to_string(c)));
  SmallVector<unsigned> units;
  if (hasProducer())
    units.append(plan.loadUnits.begin(), plan.loadUnits.end());
  for (const BodyUnit &u : plan.body)
    if (!llvm::is_contained(units, u.unit))
      units.push_back(u.unit);
  llvm::sort(units);
  SmallVector<Attribute> unitAttrs;
  int64_t consumerGroup = -1;
  for (unsigned u : units) {
    int64_t g = effectiveSchedule(plan.graph, plan.graph.initialSchedule, u).group;
    if (plan.graph.units[u].kind != UnitKind::Load && consumerGroup < 0)
      consumerGroup = g;
    unitAttrs.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("id", b.getI64IntegerAttr(u)),
         b.getNamedAttr("name", b.getStringAttr(plan.graph.units[u].name)),
         b.getNamedAttr("group", b.getI64IntegerAttr(g))}));
  }
  // The consumers' code after each tile's loop: a unit of no schedule, with
  // the id after the loop's units (the runner's ids are below 65536).
  epilogueUnit = static_cast<unsigned>(plan.graph.units.size());
  unitAttrs.push_back(b.getDictionaryAttr(
      {b.getNamedAttr("id", b.getI64IntegerAttr(epilogueUnit)),
       b.getNamedAttr("name", b.getStringAttr(plan.graph.epilogueUnitName())),
       b.getNamedAttr("group", b.getI64IntegerAttr(std::max<int64_t>(consumerGroup, 0))),
       b.getNamedAttr("kind", b.getStringAttr("epilogue"))}));
  fn->setAttr("stagecraft.timeline",
              b.getDictionaryAttr({b.getNamedAttr("ctas", b.getI64IntegerAttr(ctas)),
                                   b.getNamedAttr("capacity", b.getI64IntegerAttr(capacity)),
                                   b.getNamedAttr("tiles", b.getI64IntegerAttr(plan.tileLoop ? tiles : 0)),
                                   b.getNamedAttr("warp_groups", b.getArrayAttr(groups)),
                                   b.getNamedAttr("units", b.getArrayAttr(unitAttrs))}));
}

void TimelineProbes::enter(Emitter &e, Value consumer, Value thread) {
  Value first = e.cmp(CmpIPredicate::eq, e.remu(thread, e.c32(128)), e.c32(0));
  recording = e.land(sampled, first);
  Value wg = consumer ? e.add(consumer, e.c32(hasProducer() ? 1 : 0)) : e.c32(0);
  Value index = e.add(e.mul(slot, e.c32(warpGroups())), wg);
  region = byteAt(e, buffer, e.mul(i64Of(e, index), e.c64(kHeaderBytes + kRecordBytes * capacity)));
}

void TimelineProbes::mark(Emitter &e, unsigned unit, Value iteration, Value when) {
  Value on = e.land(recording, when);
  Value n = LLVM::LoadOp::create(e.b, e.loc, e.i32(), counter);
  Value keep = e.land(on, e.cmp(CmpIPredicate::ult, n, e.c32(capacity)));
  Value at = byteAt(e, region, e.add(e.c64(kHeaderBytes), e.mul(i64Of(e, n), e.c64(kRecordBytes))));
  Value addr = LLVM::PtrToIntOp::create(e.b, e.loc, e.i64(), at);
  Value flag = arith::ExtUIOp::create(e.b, e.loc, e.i32(), keep);
  // The stamp and the tag in one 16-byte store (records are 16-byte aligned:
  // the runner's buffer is, headers and records are 16 bytes).
  inlineAsm(e, Type(), ValueRange{flag, addr, e.c32(static_cast<int32_t>(unit)), iteration},
            "{\n.reg .pred p;\n.reg .u64 t;\n.reg .b32 lo, hi;\nsetp.ne.b32 p, $0, 0;\n"
            "@p mov.u64 t, %globaltimer;\n@p mov.b64 {lo, hi}, t;\n"
            "@p st.global.v4.b32 [$1], {lo, hi, $2, $3};\n}",
            "r,l,r,r");
  // Counted past the capacity too: the runner reports the overflow.
  LLVM::StoreOp::create(e.b, e.loc, e.add(n, arith::ExtUIOp::create(e.b, e.loc, e.i32(), on)),
                        counter);
}

void TimelineProbes::epilogue(Emitter &e, Value iteration) {
  mark(e, epilogueUnit, iteration, arith::ConstantIntOp::create(e.b, e.loc, 1, 1));
}

void TimelineProbes::end(Emitter &e) {
  mark(e, kTimelineEndUnit, e.c32(0), arith::ConstantIntOp::create(e.b, e.loc, 1, 1));
}

void TimelineProbes::finish(Emitter &e) {
  // Every role's last unit has ended already (the producer's with its tile
  // loop, a consumer's epilogue after its stores): no second end marker.
  e.ifThen(recording, [&] {
    Value sm = NVVM::SmIdOp::create(e.b, e.loc, e.i32());
    Value n = LLVM::LoadOp::create(e.b, e.loc, e.i32(), counter);
    LLVM::StoreOp::create(e.b, e.loc, n, region, 8);
    LLVM::StoreOp::create(e.b, e.loc, sm, byteAt(e, region, e.c64(4)), 4);
  });
}
