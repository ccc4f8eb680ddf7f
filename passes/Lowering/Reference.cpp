//===- Reference.cpp - the reference lowering: the same IR, plainly -------===//
//
// tile-lower-reference turns each tile kernel into `<kernel>_reference`, a
// kernel the runner uses only to check the pipelined one on the same inputs:
// no pipelining, no warp specialization, no shared memory, no tensor cores,
// fp32 arithmetic. Each block of 256 threads runs whole programs one after
// the other (program ids from a linear index, grid from the kernel's
// `tile.grid`); every tensor value of a program lives in the block's own
// scratch slot in global memory, one f32 (or i32) per element; each op is a
// loop over its result's elements spread over the threads, then a block
// barrier. Loads read global memory element by element (zero out of bounds),
// stores write the elements in bounds. Each op's per-element semantics come
// from its pattern (patterns/), the same definition the pipelined lowering
// uses for elementwise ops, with the plain forms of approximate functions.
//
// Parameters: the kernel's (tensor descriptors become global pointers to the
// tensors' data, row-major; sizes stay i32), a scratch pointer of
// `stagecraft.scratch_per_block` bytes per block, and an i32 `reorder`: when
// non-zero every sum (a dot's K, a reduction) runs its terms in reverse, so
// that the runner can see how far the outputs move with the sums' rounding
// alone (math that shrinks a sum far below its terms' scale turns that
// rounding into a large relative error no tolerance derived from the IR
// foresees: docs/compiler.md, the reference lowering).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/Lowering/Normalize.h"
#include "passes/Lowering/ScalarLowering.h"
#include "passes/Lowering/patterns/Fp8.h"
#include "passes/Lowering/patterns/Memory.h"

#include "core/Dialect/Tile/IR/KernelSignature.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace stagecraft {
#define GEN_PASS_DEF_TILELOWERREFERENCE
#include "passes/Passes.h.inc"
} // namespace stagecraft

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::lowering;
using namespace stagecraft::tile;
using hopper::Emitter;
using arith::CmpIPredicate;

namespace {

constexpr int64_t kThreads = 256;

class ReferenceLowering final : public ReferenceContext, public GlobalMemory {
public:
  ReferenceLowering(OpBuilder &b, func::FuncOp kernel, const KernelSignature &sig)
      : ReferenceContext(b, kernel.getLoc()), kernel(kernel), sig(sig) {}

  LogicalResult run();

  // ReferenceContext.
  Value element(Value tensor, ValueRange index) override;
  void forEach(Value result, const std::function<Value(ValueRange)> &body) override;
  /// Lowered afresh at each use (no memo across uses): a use may sit in a
  /// region the next one does not see.
  Value scalar(Value v) override {
    IRMapping local = map;
    Emitter e = emitter();
    return lowerScalar(e, v, local, sources);
  }

  // GlobalMemory.
  Value pointer(Value desc) override { return map.lookup(desc); }
  SmallVector<Value> shape(Value desc) override { return shapes.lookup(desc); }
  void forEachIndex(ArrayRef<int64_t> shape,
                    const std::function<void(ValueRange)> &body) override;

private:
  LogicalResult assignSlots();
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation &op);
  LogicalResult lowerLoop(scf::ForOp loop);
  /// Copies `tensor`'s elements between its slot and the slot at `at`.
  void copySlot(Value tensor, int64_t from, int64_t to);
  Value slotAddress(Value tensor, Value linear);
  Value slotAddressAt(int64_t slot, Value linear);
  SmallVector<Value> delinearize(Value linear, ArrayRef<int64_t> shape);
  Value linearize(ValueRange index, ArrayRef<int64_t> shape);

  func::FuncOp kernel;
  const KernelSignature &sig;
  LLVM::LLVMFuncOp fn;
  IRMapping map;
  ScalarSources sources;
  SmallVector<Value> pid, grid;
  Value tid, blockScratch;
  DenseMap<Value, int64_t> slots; // element offset of each tensor's slot
  DenseMap<Value, int64_t> yieldTemps; // per iter_arg: where its next value waits
  DenseMap<Value, SmallVector<Value>> shapes;
  int64_t scratchElems = 0;
};

Value ReferenceLowering::linearize(ValueRange index, ArrayRef<int64_t> shape) {
  Emitter e = emitter();
  Value l = e.c32(0);
  for (auto [i, n] : llvm::zip(index, shape))
    l = e.add(e.mul(l, e.c32(n)), i);
  return l;
}

SmallVector<Value> ReferenceLowering::delinearize(Value linear, ArrayRef<int64_t> shape) {
  Emitter e = emitter();
  SmallVector<Value> index(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    index[d] = d == 0 ? linear : e.remu(linear, e.c32(shape[d]));
    if (d)
      linear = e.divu(linear, e.c32(shape[d]));
  }
  return index;
}

Value ReferenceLowering::slotAddressAt(int64_t slot, Value linear) {
  Emitter e = emitter();
  Value off = e.add(e.c32(slot), linear);
  return LLVM::GEPOp::create(b, loc, e.ptr(1), b.getI32Type(), blockScratch,
                             ArrayRef<LLVM::GEPArg>{off});
}

Value ReferenceLowering::slotAddress(Value tensor, Value linear) {
  return slotAddressAt(slots.lookup(tensor), linear);
}

Value ReferenceLowering::element(Value tensor, ValueRange index) {
  auto t = cast<RankedTensorType>(tensor.getType());
  Type carrier = carrierType(t.getElementType());
  Value addr = slotAddress(tensor, linearize(index, t.getShape()));
  if (carrier.isF32())
    return LLVM::LoadOp::create(b, loc, b.getF32Type(), addr);
  Value bits = LLVM::LoadOp::create(b, loc, b.getI32Type(), addr);
  return carrier.isInteger(1) ? arith::TruncIOp::create(b, loc, carrier, bits).getResult() : bits;
}

void ReferenceLowering::forEachIndex(ArrayRef<int64_t> shape,
                                     const std::function<void(ValueRange)> &body) {
  Emitter e = emitter();
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  auto loop = scf::ForOp::create(b, loc, tid, e.c32(n), e.c32(kThreads));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    body(delinearize(loop.getInductionVar(), shape));
  }
  e.syncThreads();
}

void ReferenceLowering::forEach(Value result, const std::function<Value(ValueRange)> &body) {
  auto t = cast<RankedTensorType>(result.getType());
  forEachIndex(t.getShape(), [&](ValueRange index) {
    Value v = body(index);
    Type elem = t.getElementType();
    if (isa<FloatType>(elem))
      v = roundTo(b, loc, v, elem, /*reference=*/true);
    else if (v.getType().isInteger(1))
      v = arith::ExtUIOp::create(b, loc, b.getI32Type(), v);
    LLVM::StoreOp::create(b, loc, v, slotAddress(result, linearize(index, t.getShape())));
  });
}

void ReferenceLowering::copySlot(Value tensor, int64_t from, int64_t to) {
  auto t = cast<RankedTensorType>(tensor.getType());
  forEachIndex(t.getShape(), [&](ValueRange index) {
    Value linear = linearize(index, t.getShape());
    Value v = LLVM::LoadOp::create(b, loc, b.getI32Type(), slotAddressAt(from, linear));
    LLVM::StoreOp::create(b, loc, v, slotAddressAt(to, linear));
  });
}

LogicalResult ReferenceLowering::assignSlots() {
  auto add = [&](Value v) -> LogicalResult {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      return success();
    if (!t.hasStaticShape())
      return kernel.emitError("tile-lower-reference: tensors must have static shapes");
    slots[v] = scratchElems;
    scratchElems += t.getNumElements();
    return success();
  };
  WalkResult r = kernel.walk([&](Operation *op) -> WalkResult {
    for (Value v : op->getResults())
      if (failed(add(v)))
        return WalkResult::interrupt();
    if (auto loop = dyn_cast<scf::ForOp>(op))
      for (Value arg : loop.getRegionIterArgs()) {
        // Loop results live in their iter_args' slots (below): a scalar
        // carried value has none.
        if (!isa<RankedTensorType>(arg.getType())) {
          loop.emitError("tile-lower-reference: loop-carried values must be tensors");
          return WalkResult::interrupt();
        }
        if (failed(add(arg)))
          return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  // Loop results are their iter_args' slots; yields go through a slot of
  // their own first (a yield may read another iter_arg).
  kernel.walk([&](scf::ForOp loop) {
    for (auto [arg, res] : llvm::zip(loop.getRegionIterArgs(), loop.getResults())) {
      slots[res] = slots[arg];
      yieldTemps[arg] = scratchElems;
      scratchElems += cast<RankedTensorType>(arg.getType()).getNumElements();
    }
  });
  return success();
}

LogicalResult ReferenceLowering::lowerLoop(scf::ForOp loop) {
  for (auto [init, arg] : llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs()))
    copySlot(arg, slots.lookup(init), slots.lookup(arg));
  Value lb = scalar(loop.getLowerBound()), ub = scalar(loop.getUpperBound()),
        step = scalar(loop.getStep());
  auto l = scf::ForOp::create(b, loc, lb, ub, step);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(l.getBody()->getTerminator());
  IRMapping saved = map;
  map.map(loop.getInductionVar(), l.getInductionVar());
  if (failed(lowerBlock(*loop.getBody())))
    return failure();
  // Two steps, so that a yield reading another iter_arg sees its old value.
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [y, arg] : llvm::zip(yield.getOperands(), loop.getRegionIterArgs()))
    copySlot(arg, slots.lookup(y), yieldTemps.lookup(arg));
  for (Value arg : loop.getRegionIterArgs())
    copySlot(arg, yieldTemps.lookup(arg), slots.lookup(arg));
  map = saved;
  return success();
}

LogicalResult ReferenceLowering::lowerOp(Operation &op) {
  if (isa<func::ReturnOp, scf::YieldOp>(op))
    return success();
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return lowerLoop(loop);
  if (op.getNumResults() == 1 && !isa<RankedTensorType>(op.getResult(0).getType()))
    return success(); // scalars are lowered where they are used
  if (op.getNumResults() == 0 && !isa<StoreOp>(op))
    return op.emitError("tile-lower-reference: '") << op.getName() << "' is not lowered";
  for (Value r : op.getResults())
    if (auto t = dyn_cast<RankedTensorType>(r.getType());
        t && isScaleType(t.getElementType()) && !isa<LoadOp>(op))
      return op.emitError("tile-lower-reference: '")
             << op.getName() << "' computes a " << t.getElementType()
             << " tile; e8m0 tiles are only loaded";
  if (auto load = dyn_cast<LoadOp>(op)) {
    emitReferenceLoad(load, *this, *this);
    return success();
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    if (Type elem = store.getDesc().getType().getElementType(); !isStoredElementType(elem))
      return op.emitError("tile-lower-reference: stored tiles must be ")
             << kStoredElementTypes << ", got " << elem;
    emitReferenceStore(store, *this, *this);
    return success();
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    emitReferenceDot(dot, *this);
    return success();
  }
  if (auto up = dyn_cast<UpcastOp>(op)) {
    emitReferenceUpcast(up, *this);
    return success();
  }
  if (auto dot = dyn_cast<DotScaledOp>(op)) {
    emitReferenceDotScaled(dot, *this);
    return success();
  }
  const TilePattern *pattern = findPattern(&op);
  if (!pattern)
    return op.emitError("tile-lower-reference: '") << op.getName() << "' is not lowered";
  pattern->emitReference(&op, *this);
  return success();
}

LogicalResult ReferenceLowering::lowerBlock(Block &block) {
  for (Operation &op : block)
    if (failed(lowerOp(op)))
      return failure();
  return success();
}

LogicalResult ReferenceLowering::run() {
  if (failed(assignSlots()))
    return failure();
  MLIRContext *ctx = kernel.getContext();
  b.setInsertionPoint(kernel);
  Emitter e(b, loc);
  SmallVector<Type> argTypes;
  for (Type t : kernel.getArgumentTypes())
    argTypes.push_back(isa<DescType>(t) ? e.ptr(1) : t.isIndex() ? e.i32() : t);
  argTypes.push_back(e.ptr(1));
  argTypes.push_back(e.i32());
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes);
  fn = LLVM::LLVMFuncOp::create(b, loc, (kernel.getSymName() + "_reference").str(), fnType);
  fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  fn->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
              b.getDenseI32ArrayAttr({static_cast<int32_t>(kThreads), 1, 1}));
  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
    map.map(kernel.getArgument(i), entry->getArgument(i));

  // Sizes, shapes and the grid from the signature's affine maps.
  SmallVector<Value> sizes;
  for (unsigned a : sig.sizeArgs)
    sizes.push_back(entry->getArgument(a));
  for (auto [arg, m] : llvm::zip(sig.descArgs, sig.descShapes)) {
    SmallVector<Value> s;
    for (AffineExpr r : m.getResults())
      s.push_back(lowerAffine(e, r, sizes));
    shapes[kernel.getArgument(arg)] = s;
  }
  for (AffineExpr r : sig.grid.getResults())
    grid.push_back(lowerAffine(e, r, sizes));
  while (grid.size() < 3)
    grid.push_back(e.c32(1));
  Value programs = e.mul(e.mul(grid[0], grid[1]), grid[2]);

  tid = e.threadIdx();
  Value scratch = entry->getArgument(argTypes.size() - 2);
  reorder = e.cmp(CmpIPredicate::ne, entry->getArgument(argTypes.size() - 1), e.c32(0));
  sources.programId = [this](Emitter &, int dim) { return pid[dim]; };
  sources.numPrograms = [this](Emitter &, int dim) { return grid[dim]; };
  sources.extract = [this](Emitter &, Value tensor, ValueRange index) {
    return element(tensor, index);
  };
  sources.fast = false;

  // Programs one after the other: p = blockIdx.x, + gridDim.x, ...
  auto loop = scf::ForOp::create(b, loc, e.blockIdx(0), programs, e.gridDim(0));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value p = loop.getInductionVar();
    pid = {e.remu(p, grid[0]), e.remu(e.divu(p, grid[0]), grid[1]),
           e.divu(p, e.mul(grid[0], grid[1]))};
    Value blockIndex = arith::ExtUIOp::create(b, loc, e.i64(), e.blockIdx(0));
    Value offset = arith::MulIOp::create(b, loc, blockIndex, e.c64(scratchElems));
    blockScratch = LLVM::GEPOp::create(b, loc, e.ptr(1), b.getI32Type(), scratch,
                                       ArrayRef<LLVM::GEPArg>{offset});
    IRMapping top = map;
    if (failed(lowerBlock(kernel.getBody().front())))
      return failure();
    map = top;
  }
  LLVM::ReturnOp::create(b, loc, ValueRange());
  fn->setAttr("stagecraft.scratch_per_block", b.getI64IntegerAttr(scratchElems * 4));
  fn->setAttr("stagecraft.block", b.getI64IntegerAttr(kThreads));
  return success();
}

struct TileLowerReferencePass
    : stagecraft::impl::TileLowerReferenceBase<TileLowerReferencePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels = getKernels(module);
    if (kernels.empty()) {
      module.emitError("tile-lower-reference: no tile kernel in the module");
      return signalPassFailure();
    }
    OpBuilder b(module.getContext());
    for (func::FuncOp kernel : kernels) {
      normalizeKernel(kernel);
      FailureOr<KernelSignature> sig = KernelSignature::get(kernel);
      if (failed(sig))
        return signalPassFailure();
      ReferenceLowering lowering(b, kernel, *sig);
      if (failed(lowering.run()))
        return signalPassFailure();
    }
    for (func::FuncOp kernel : kernels)
      kernel.erase();
    // Everything the kernels used is gone with them.
    SmallVector<Operation *> dead;
    for (Operation &op : module.getBody()->getOperations())
      if (!isa<LLVM::LLVMFuncOp, LLVM::GlobalOp>(op))
        dead.push_back(&op);
    for (Operation *op : dead)
      op->erase();
  }
};

} // namespace
