//===- Tcgen05Ops.cpp - emitting Blackwell (sm_100a) primitives -----------===//
//
// Field layouts from the PTX ISA (tcgen05 shared-memory and instruction
// descriptors): instruction descriptor bits 4-5 the accumulator format (1:
// f32), 7-9 and 10-12 A and B formats, 15 and 16 their majorness (0: K), 17-22
// N >> 3, 24-28 M >> 4; in the block-scaled form bits 4-5 and 29-30 select
// B's and A's scale byte, bit 23 the scale format (1: e8m0), bit 31 K (0:
// 32). Shared-memory descriptor: start >> 4 (bits 0-13), leading byte offset
// >> 4 (16-29), stride byte offset >> 4 (32-45), version 1 (46), swizzle
// mode (61-63: 2 = 128-byte).
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/Tcgen05Ops.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace stagecraft;
using stagecraft::hopper::Emitter;

namespace {

Value asmCall(Emitter &e, Type result, ValueRange operands, StringRef text, StringRef constraints,
              bool sideEffects = true) {
  auto op = LLVM::InlineAsmOp::create(
      e.b, e.loc, result, operands, e.b.getStringAttr(text), e.b.getStringAttr(constraints),
      sideEffects ? e.b.getUnitAttr() : UnitAttr(), UnitAttr(),
      LLVM::TailCallKindAttr::get(e.b.getContext(), LLVM::TailCallKind::None),
      LLVM::AsmDialectAttr::get(e.b.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
  return op.getNumResults() ? op.getResult(0) : Value();
}

Type voidType(Emitter &e) { return LLVM::LLVMVoidType::get(e.b.getContext()); }

Value descriptor(Emitter &e, Value addr, uint64_t fixed) {
  Value a = arith::ExtUIOp::create(e.b, e.loc, e.i64(), addr);
  a = arith::AndIOp::create(e.b, e.loc, a, e.c64(0x3FFFF));
  a = arith::ShRUIOp::create(e.b, e.loc, a, e.c64(4));
  return arith::OrIOp::create(e.b, e.loc, a, e.c64(static_cast<int64_t>(fixed)));
}

} // namespace

void blackwell::tmemAlloc(Emitter &e, Value slot, int64_t columns) {
  asmCall(e, voidType(e), ValueRange{slot},
          llvm::formatv("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [$0], {0}; "
                        "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
                        columns)
              .str(),
          "r");
}

void blackwell::tmemDealloc(Emitter &e, Value tmem, int64_t columns) {
  asmCall(e, voidType(e), ValueRange{tmem},
          llvm::formatv("tcgen05.dealloc.cta_group::1.sync.aligned.b32 $0, {0};", columns).str(),
          "r");
}

void blackwell::fenceBeforeThreadSync(Emitter &e) {
  asmCall(e, voidType(e), {}, "tcgen05.fence::before_thread_sync;", "");
}

void blackwell::fenceAfterThreadSync(Emitter &e) {
  asmCall(e, voidType(e), {}, "tcgen05.fence::after_thread_sync;", "");
}

Value blackwell::smemDescriptor(Emitter &e, Value addr) {
  uint64_t fixed = (1ull << 16) | (64ull << 32) | (1ull << 46) | (2ull << 61);
  return descriptor(e, addr, fixed);
}

Value blackwell::smemDescriptorPlain(Emitter &e, Value addr) {
  uint64_t fixed = (8ull << 16) | (8ull << 32) | (1ull << 46);
  return descriptor(e, addr, fixed);
}

uint32_t blackwell::instrDescriptor(int aFormat, int bFormat, int64_t m, int64_t n) {
  return (1u << 4) | (uint32_t(aFormat) << 7) | (uint32_t(bFormat) << 10) |
         (uint32_t(n >> 3) << 17) | (uint32_t(m >> 4) << 24);
}

uint32_t blackwell::instrDescriptorBlockScaled(int aFormat, int bFormat, int64_t m, int64_t n,
                                               int sfId) {
  return (uint32_t(sfId) << 4) | (uint32_t(aFormat) << 7) | (uint32_t(bFormat) << 10) |
         (uint32_t(n >> 3) << 17) | (1u << 23) | (uint32_t(m >> 4) << 24) |
         (uint32_t(sfId) << 29);
}

void blackwell::mma(Emitter &e, StringRef kind, Value d, Value adesc, Value bdesc, uint32_t idesc,
                    Value enableInputD) {
  std::string text = llvm::formatv("{{ .reg .pred p; setp.ne.b32 p, $4, 0; "
                                   "tcgen05.mma.cta_group::1.kind::{0} [$0], $1, $2, $3, p; }",
                                   kind)
                         .str();
  asmCall(e, voidType(e), ValueRange{d, adesc, bdesc, e.c32(static_cast<int32_t>(idesc)), enableInputD},
          text, "r,l,l,r,r");
}

void blackwell::mmaBlockScaled(Emitter &e, Value d, Value adesc, Value bdesc, uint32_t idesc,
                               Value scaleA, Value scaleB, Value enableInputD) {
  std::string text = "{ .reg .pred p; setp.ne.b32 p, $6, 0; "
                     "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X "
                     "[$0], $1, $2, $3, [$4], [$5], p; }";
  asmCall(e, voidType(e),
          ValueRange{d, adesc, bdesc, e.c32(static_cast<int32_t>(idesc)), scaleA, scaleB,
                     enableInputD},
          text, "r,l,l,r,r,r,r");
}

void blackwell::commit(Emitter &e, Value bar) {
  asmCall(e, voidType(e), ValueRange{bar},
          "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [$0];", "r");
}

void blackwell::copyScales(Emitter &e, Value tmem, Value sdesc) {
  asmCall(e, voidType(e), ValueRange{tmem, sdesc},
          "tcgen05.cp.cta_group::1.32x128b.warpx4 [$0], $1;", "r,l");
}

SmallVector<Value> blackwell::load16x256b(Emitter &e, Value tmem, int64_t reps) {
  int64_t n = 4 * reps;
  std::string text = llvm::formatv("tcgen05.ld.sync.aligned.16x256b.x{0}.b32 {{", reps).str();
  std::string constraints;
  for (int64_t i = 0; i < n; ++i) {
    text += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=r,";
  }
  text += llvm::formatv("}, [${0}]; tcgen05.wait::ld.sync.aligned;", n).str();
  constraints += "r";
  SmallVector<Type> types(n, e.i32());
  Type result = LLVM::LLVMStructType::getLiteral(e.b.getContext(), types);
  Value out = asmCall(e, result, ValueRange{tmem}, text, constraints);
  SmallVector<Value> values;
  for (int64_t i = 0; i < n; ++i) {
    Value bits = LLVM::ExtractValueOp::create(e.b, e.loc, out, i);
    values.push_back(arith::BitcastOp::create(e.b, e.loc, e.f32(), bits));
  }
  return values;
}
