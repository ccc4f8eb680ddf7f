//===- HopperOps.cpp - emitting Hopper primitives in the LLVM dialect -----===//
#include "passes/Lowering/HopperOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace stagecraft::hopper;

static constexpr const char *kSmemSymbol = "stagecraft_dynamic_smem";

Type Emitter::ptr(unsigned space) {
  return LLVM::LLVMPointerType::get(b.getContext(), space);
}

Value Emitter::c32(int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}
Value Emitter::c64(int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 64);
}
Value Emitter::add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
Value Emitter::sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
Value Emitter::mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
Value Emitter::divu(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
Value Emitter::remu(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
Value Emitter::andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
Value Emitter::cmp(arith::CmpIPredicate p, Value x, Value y) {
  return arith::CmpIOp::create(b, loc, p, x, y);
}
Value Emitter::land(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }

/// An scf.if made without results has its regions' yields already: the
/// callers below make their own (a unit that only stores yields nothing).
static void dropImplicitYields(scf::IfOp op) {
  for (Region *r : {&op.getThenRegion(), &op.getElseRegion()})
    if (!r->empty() && !r->front().empty())
      r->front().getTerminator()->erase();
}

void Emitter::ifThen(Value cond, const std::function<void()> &then) {
  auto op = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&op.getThenRegion().front());
  then();
}

ValueRange Emitter::ifYield(Value cond, ValueRange values,
                            const std::function<SmallVector<Value>()> &then) {
  auto op = scf::IfOp::create(b, loc, values.getTypes(), cond,
                              /*withElseRegion=*/true);
  dropImplicitYields(op);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&op.getThenRegion().front());
    SmallVector<Value> results = then();
    scf::YieldOp::create(b, loc, results);
    b.setInsertionPointToStart(&op.getElseRegion().front());
    scf::YieldOp::create(b, loc, values);
  }
  return op.getResults();
}

ValueRange Emitter::ifElse(Value cond, TypeRange types,
                           const std::function<SmallVector<Value>()> &then,
                           const std::function<SmallVector<Value>()> &otherwise) {
  auto op = scf::IfOp::create(b, loc, types, cond, /*withElseRegion=*/true);
  dropImplicitYields(op);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&op.getThenRegion().front());
    scf::YieldOp::create(b, loc, then());
    b.setInsertionPointToStart(&op.getElseRegion().front());
    scf::YieldOp::create(b, loc, otherwise());
  }
  return op.getResults();
}

Value Emitter::threadIdx() { return NVVM::ThreadIdXOp::create(b, loc, i32()); }
Value Emitter::blockIdx(int dim) {
  if (dim == 0) return NVVM::BlockIdXOp::create(b, loc, i32());
  if (dim == 1) return NVVM::BlockIdYOp::create(b, loc, i32());
  return NVVM::BlockIdZOp::create(b, loc, i32());
}
Value Emitter::gridDim(int dim) {
  if (dim == 0) return NVVM::GridDimXOp::create(b, loc, i32());
  if (dim == 1) return NVVM::GridDimYOp::create(b, loc, i32());
  return NVVM::GridDimZOp::create(b, loc, i32());
}

Value Emitter::smemBase() {
  return LLVM::AddressOfOp::create(b, loc, ptr(3), kSmemSymbol);
}
Value Emitter::smemPtr(int64_t offset) { return smemPtr(c32(offset)); }
Value Emitter::smemPtr(Value offset) {
  return LLVM::GEPOp::create(b, loc, ptr(3), b.getI8Type(), smemBase(),
                             ArrayRef<LLVM::GEPArg>{offset});
}
Value Emitter::smemAddr32(Value p) {
  return LLVM::PtrToIntOp::create(b, loc, i32(), p);
}

void Emitter::syncThreads() { NVVM::Barrier0Op::create(b, loc); }

void Emitter::namedBarrier(int id, int threads) {
  NVVM::BarrierOp::create(b, loc, Type(), c32(id), c32(threads),
                          NVVM::BarrierReductionAttr(), Value());
}

void Emitter::namedBarrier(Value id, int threads) {
  NVVM::BarrierOp::create(b, loc, Type(), id, c32(threads), NVVM::BarrierReductionAttr(),
                          Value());
}

void Emitter::namedBarrierArrive(Value id, int threads) {
  NVVM::BarrierArriveOp::create(b, loc, id, c32(threads));
}

void Emitter::mbarrierInit(Value bar, int count) {
  NVVM::MBarrierInitOp::create(b, loc, bar, c32(count), Value());
}

void Emitter::mbarrierArriveExpectTx(Value bar, int64_t bytes) {
  NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), bar, c32(bytes),
                                         NVVM::MemScopeKind::CTA, false,
                                         Value());
}

void Emitter::mbarrierArrive(Value bar) {
  NVVM::MBarrierArriveOp::create(b, loc, i64(), bar);
}

void Emitter::mbarrierWait(Value bar, Value parity) {
  NVVM::MBarrierTryWaitParityOp::create(b, loc, bar, parity, c32(0x989680));
}

void Emitter::mbarrierArriveCluster(Value bar, Value rank) {
  Value remote = NVVM::MapaOp::create(b, loc, ptr(7), bar, rank);
  NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(), NVVM::MemScopeKind::CTA);
}

void Emitter::fenceMbarrierInit() { NVVM::FenceMbarrierInitOp::create(b, loc); }

void Emitter::clusterSync() {
  NVVM::ClusterArriveOp::create(b, loc, UnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, UnitAttr());
}

void Emitter::tmaLoad(Value dst, Value tensorMap, ValueRange coords, Value bar,
                      Value multicastMask) {
  // The .shared::cluster form wants a cluster-shared (7) pointer; a CTA's
  // own shared memory is part of its cluster's.
  dst = LLVM::AddrSpaceCastOp::create(b, loc, ptr(7), dst);
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, dst, tensorMap, coords, bar, ValueRange(), multicastMask, Value(),
      NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
      NVVM::CTAGroupKindAttr(), Value());
}

void Emitter::tmaLoadPanels(Value dst, Value tensorMap, ValueRange coords,
                            Value bar, int64_t panels, int64_t panelCols,
                            int64_t panelBytes, Value multicastMask) {
  for (int64_t p = 0; p < panels; ++p) {
    SmallVector<Value> c(coords);
    if (p)
      c[0] = add(c[0], c32(p * panelCols));
    Value d = p ? LLVM::GEPOp::create(b, loc, ptr(3), b.getI8Type(), dst,
                                      ArrayRef<LLVM::GEPArg>{c32(p * panelBytes)})
                      .getResult()
                : dst;
    tmaLoad(d, tensorMap, c, bar, multicastMask);
  }
}

void Emitter::tmaStore(Value tensorMap, Value src, ValueRange coords) {
  NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
      b, loc, tensorMap, src, coords, Value(), NVVM::TMAStoreMode::TILE,
      Value());
}

/// A side-effecting inline asm with one result of `result` type, or none
/// for a null type.
static Value inlineAsm(OpBuilder &b, Location loc, Type result,
                       ValueRange operands, StringRef text, StringRef constraints) {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange{result} : TypeRange{}, operands, b.getStringAttr(text),
      b.getStringAttr(constraints), b.getUnitAttr(), UnitAttr(),
      LLVM::TailCallKindAttr::get(b.getContext(), LLVM::TailCallKind::None),
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return result ? op.getResult(0) : Value();
}

void Emitter::prefetchTensorMap(Value tensorMap) {
  // Inline asm on the generic address the copies use: nvvm.prefetch
  // tensormap on a grid-constant parameter comes out of the NVPTX backend
  // twice (a .param and a generic prefetch of the same map).
  inlineAsm(b, loc, Type(), ValueRange{tensorMap}, "prefetch.tensormap [$0];", "l");
}

void Emitter::tmaStoreCommitAndWait() {
  NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
  NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                       b.getUnitAttr());
}

void Emitter::fenceProxyAsyncShared() {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
}

void Emitter::setMaxRegisters(int count, bool increase) {
  NVVM::SetMaxRegisterOp::create(
      b, loc, count,
      increase ? NVVM::SetMaxRegisterAction::increase
               : NVVM::SetMaxRegisterAction::decrease);
}

Value Emitter::wgmmaDescriptor(Value addr, int64_t leadingBytes, int64_t strideBytes,
                               int64_t swizzle) {
  // Start address >> 4 in bits 0-13, leading byte offset >> 4 in bits
  // 16-29, stride byte offset >> 4 in bits 32-45, the swizzle mode in bits
  // 62-63 (sm_90 layout types: 1 = 128B, 2 = 64B, 3 = 32B).
  uint64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
  assert((swizzle == 128 || swizzle == 64 || swizzle == 32) && "placement checks the swizzle");
  Value a = arith::ExtUIOp::create(b, loc, i64(), addr);
  a = arith::AndIOp::create(b, loc, a, c64(0x3FFFF));
  a = arith::ShRUIOp::create(b, loc, a, c64(4));
  uint64_t fixed = (uint64_t((leadingBytes >> 4) & 0x3FFF) << 16) |
                   (uint64_t((strideBytes >> 4) & 0x3FFF) << 32) | (mode << 62);
  return arith::OrIOp::create(b, loc, a, c64(static_cast<int64_t>(fixed)));
}

void Emitter::wgmmaFence() { NVVM::WgmmaFenceAlignedOp::create(b, loc); }
void Emitter::wgmmaCommit() { NVVM::WgmmaGroupSyncAlignedOp::create(b, loc); }
void Emitter::wgmmaWait(int pending) {
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pending);
}

Value Emitter::neverSetFlag() {
  Value hi = inlineAsm(b, loc, i32(), ValueRange{}, "mov.u32 $0, %globaltimer_hi;", "=r");
  Value set = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, hi, c32(-1));
  return arith::ExtUIOp::create(b, loc, i32(), set);
}

void Emitter::orderingStore(Value flag) {
  inlineAsm(b, loc, Type(), ValueRange{flag},
            "{ .reg .pred p; .reg .b64 a; setp.ne.b32 p, $0, 0; cvt.u64.u32 a, $0; "
            "@p st.global.u32 [a], $0; }",
            "r");
}

Type Emitter::accType(int n) {
  SmallVector<Type> fields(n / 2, f32());
  return LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
}

Value Emitter::zeroAcc(int n) {
  Type type = accType(n);
  Value acc = LLVM::UndefOp::create(b, loc, type);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  for (int i = 0; i < n / 2; ++i)
    acc = LLVM::InsertValueOp::create(b, loc, acc, zero, i);
  return acc;
}

Value Emitter::wgmma(int n, Value descA, Value descB, Value acc, bool transB) {
  // Operands: $0..$(regs-1) the accumulators (outputs, tied to the inputs
  // after the descriptors), $regs / $regs+1 the descriptors, $regs+2 the
  // scale-d flag (a predicate in PTX). In LLVM inline asm bare braces are
  // literal; `$(`..`$)` would delimit a dialect variant.
  int regs = n / 2;
  std::string asmText = llvm::formatv("{{ .reg .pred p; setp.ne.b32 p, ${0}, 0; "
                                      "wgmma.mma_async.sync.aligned.m64n{1}k16.f32.bf16.bf16 {{",
                                      regs + 2, n)
                            .str();
  for (int i = 0; i < regs; ++i)
    asmText += (i ? ", $" : "$") + std::to_string(i);
  asmText += llvm::formatv("}, ${0}, ${1}, p, 1, 1, 0, {2}; }", regs, regs + 1,
                           transB ? 1 : 0)
                 .str();
  std::string constraints;
  for (int i = 0; i < regs; ++i)
    constraints += "=f,";
  constraints += "l,l,r";
  for (int i = 0; i < regs; ++i)
    constraints += "," + std::to_string(i);
  SmallVector<Value> operands = {descA, descB, c32(1)};
  for (int i = 0; i < regs; ++i)
    operands.push_back(LLVM::ExtractValueOp::create(b, loc, acc, i));
  auto op = LLVM::InlineAsmOp::create(
      b, loc, accType(n), operands, b.getStringAttr(asmText),
      b.getStringAttr(constraints), b.getUnitAttr(), UnitAttr(),
      LLVM::TailCallKindAttr::get(b.getContext(), LLVM::TailCallKind::None),
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return op.getResult(0);
}


SmallVector<Value> Emitter::wgmmaRegs(int n, StringRef abType, ValueRange aRegs, Value descA,
                                      Value descB, ValueRange acc, Value scaleD, bool transA,
                                      bool transB) {
  return wgmmaTyped(n, abType, abType, aRegs, descA, descB, acc, scaleD, transA, transB);
}

SmallVector<Value> Emitter::wgmmaTyped(int n, StringRef aType, StringRef bType,
                                       ValueRange aRegs, Value descA, Value descB,
                                       ValueRange acc, Value scaleD, bool transA, bool transB) {
  // Operand numbering: $0..$(regs-1) the accumulators (outputs), then the A
  // registers (or descriptor), the B descriptor, scale-d, and last the
  // accumulator inputs tied to the outputs. 8-bit types take k32 steps and
  // no transpose immediates (K-major only).
  bool eightBit = aType.starts_with("e");
  int regs = n / 2;
  int next = regs;
  std::string text = llvm::formatv("{{ .reg .pred p; setp.ne.b32 p, ${0}, 0; "
                                   "wgmma.mma_async.sync.aligned.m64n{1}k{4}.f32.{2}.{3} {{",
                                   regs + (aRegs.empty() ? 1 : 4) + 1, n, aType, bType,
                                   eightBit ? 32 : 16)
                         .str();
  for (int i = 0; i < regs; ++i)
    text += (i ? ", $" : "$") + std::to_string(i);
  text += "}, ";
  std::string constraints;
  for (int i = 0; i < regs; ++i)
    constraints += "=f,";
  SmallVector<Value> operands;
  if (aRegs.empty()) {
    text += "$" + std::to_string(next++);
    constraints += "l,";
    operands.push_back(descA);
  } else {
    text += "{";
    for (int i = 0; i < 4; ++i) {
      text += (i ? ", $" : "$") + std::to_string(next++);
      constraints += "r,";
      operands.push_back(aRegs[i]);
    }
    text += "}";
  }
  text += ", $" + std::to_string(next++);
  constraints += "l,r";
  operands.push_back(descB);
  operands.push_back(scaleD);
  // Immediate operands: scale-a, scale-b, then trans-a (descriptor A only;
  // a register A is K-major by construction) and trans-b.
  if (eightBit)
    text += ", p, 1, 1; }";
  else
    text += aRegs.empty()
                ? llvm::formatv(", p, 1, 1, {0}, {1}; }", transA ? 1 : 0, transB ? 1 : 0).str()
                : llvm::formatv(", p, 1, 1, {0}; }", transB ? 1 : 0).str();
  for (int i = 0; i < regs; ++i) {
    constraints += "," + std::to_string(i);
    operands.push_back(acc[i]);
  }
  Value out = inlineAsm(b, loc, accType(n), operands, text, constraints);
  SmallVector<Value> result;
  for (int i = 0; i < regs; ++i)
    result.push_back(LLVM::ExtractValueOp::create(b, loc, out, i));
  return result;
}

SmallVector<Value> Emitter::wgmmaWaitTie(int pending, ValueRange values) {
  if (values.empty()) {
    wgmmaWait(pending);
    return {};
  }
  std::string text = llvm::formatv("wgmma.wait_group.sync.aligned {0};", pending).str();
  std::string constraints;
  SmallVector<Type> types;
  for (unsigned i = 0; i < values.size(); ++i) {
    Type t = values[i].getType();
    types.push_back(t);
    constraints += std::string(i ? "," : "") + (t.isF32() ? "=f" : "=r");
  }
  for (unsigned i = 0; i < values.size(); ++i)
    constraints += "," + std::to_string(i);
  Type result = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  Value out = inlineAsm(b, loc, result, values, text, constraints);
  SmallVector<Value> tied;
  for (unsigned i = 0; i < values.size(); ++i)
    tied.push_back(LLVM::ExtractValueOp::create(b, loc, out, i));
  return tied;
}

Value Emitter::shflXor(Value v, int offset) {
  return NVVM::ShflOp::create(b, loc, v.getType(), c32(-1), v, c32(offset),
                              c32(0x1f), NVVM::ShflKind::bfly, UnitAttr());
}

Value Emitter::ex2(Value v) {
  return LLVM::CallIntrinsicOp::create(b, loc, f32(),
                                       b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"),
                                       ValueRange{v})
      .getResult(0);
}

Value Emitter::packBF16(Value lo, Value hi) {
  auto vec2f = VectorType::get({2}, f32());
  auto vec2bf = VectorType::get({2}, b.getBF16Type());
  Value pair = LLVM::UndefOp::create(b, loc, vec2f);
  pair = LLVM::InsertElementOp::create(b, loc, pair, lo, c32(0));
  pair = LLVM::InsertElementOp::create(b, loc, pair, hi, c32(1));
  Value bf = LLVM::FPTruncOp::create(b, loc, vec2bf, pair);
  return LLVM::BitcastOp::create(b, loc, i32(), bf);
}

Value Emitter::pack16(Type type, Value lo, Value hi) {
  auto vec2f = VectorType::get({2}, f32());
  auto vec2h = VectorType::get({2}, type);
  Value pair = LLVM::UndefOp::create(b, loc, vec2f);
  pair = LLVM::InsertElementOp::create(b, loc, pair, lo, c32(0));
  pair = LLVM::InsertElementOp::create(b, loc, pair, hi, c32(1));
  Value h = LLVM::FPTruncOp::create(b, loc, vec2h, pair);
  return LLVM::BitcastOp::create(b, loc, i32(), h);
}

Value Emitter::opaque(Value v) {
  Type t = v.getType();
  if (t.isF32())
    return LLVM::BitcastOp::create(b, loc, t,
                                   pinned(LLVM::BitcastOp::create(b, loc, i32(), v).getResult()));
  if (t.isInteger(1))
    return LLVM::TruncOp::create(
        b, loc, t, pinned(LLVM::ZExtOp::create(b, loc, i32(), v).getResult()));
  return pinned(v);
}

Value Emitter::pinned(Value v) {
  if (v.getType().isInteger(32))
    return inlineAsm(b, loc, i32(), v, "mov.b32 $0, $1;", "=r,r");
  return inlineAsm(b, loc, i64(), v, "mov.b64 $0, $1;", "=l,l");
}
