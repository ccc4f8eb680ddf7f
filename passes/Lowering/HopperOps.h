//===- HopperOps.h - emitting Hopper primitives in the LLVM dialect -*- C++ -*-===//
//
// Small helpers that emit the PTX-level pieces of a Hopper kernel as NVVM
// ops (thread ids, barriers, mbarriers, TMA, fences, setmaxnreg) and inline
// asm (wgmma.mma_async, whose accumulator count and operand forms the NVVM
// op does not cover the way the pipeliner needs). Control flow and integer
// arithmetic use scf and arith on i32; upstream conversions lower them.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_HOPPEROPS_H
#define STAGECRAFT_PASSES_LOWERING_HOPPEROPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <functional>

namespace stagecraft::hopper {

class Emitter {
public:
  Emitter(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  mlir::OpBuilder &b;
  mlir::Location loc;

  // Types.
  mlir::Type i1() { return b.getI1Type(); }
  mlir::Type i32() { return b.getI32Type(); }
  mlir::Type i64() { return b.getI64Type(); }
  mlir::Type f32() { return b.getF32Type(); }
  mlir::Type ptr(unsigned space = 0);

  // i32 arithmetic.
  mlir::Value c32(int64_t v);
  mlir::Value c64(int64_t v);
  mlir::Value add(mlir::Value a, mlir::Value b);
  mlir::Value sub(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, mlir::Value b);
  mlir::Value divu(mlir::Value a, mlir::Value b);
  mlir::Value remu(mlir::Value a, mlir::Value b);
  mlir::Value andi(mlir::Value a, mlir::Value b);
  mlir::Value cmp(mlir::arith::CmpIPredicate p, mlir::Value a, mlir::Value b);
  mlir::Value land(mlir::Value a, mlir::Value b);

  // Structured control flow.
  void ifThen(mlir::Value cond, const std::function<void()> &then);
  /// if (cond) then() else pass `values` through; returns the results.
  mlir::ValueRange ifYield(mlir::Value cond, mlir::ValueRange values,
                           const std::function<mlir::SmallVector<mlir::Value>()> &then);
  /// if (cond) then() else otherwise(); both yield values of `types`.
  mlir::ValueRange ifElse(mlir::Value cond, mlir::TypeRange types,
                          const std::function<mlir::SmallVector<mlir::Value>()> &then,
                          const std::function<mlir::SmallVector<mlir::Value>()> &otherwise);

  // Special registers.
  mlir::Value threadIdx();
  mlir::Value blockIdx(int dim);
  mlir::Value gridDim(int dim);

  // Shared memory: the dynamic shared-memory base and byte offsets into it.
  mlir::Value smemPtr(int64_t offset);
  mlir::Value smemPtr(mlir::Value offset);
  mlir::Value smemAddr32(mlir::Value ptr3);

  // Barriers.
  void syncThreads();
  void namedBarrier(int id, int threads);
  /// bar.sync / bar.arrive on a barrier whose id is computed (a team's).
  void namedBarrier(mlir::Value id, int threads);
  void namedBarrierArrive(mlir::Value id, int threads);
  void mbarrierInit(mlir::Value bar, int count);
  void mbarrierArriveExpectTx(mlir::Value bar, int64_t bytes);
  void mbarrierArrive(mlir::Value bar);
  void mbarrierWait(mlir::Value bar, mlir::Value parity);
  /// An arrival on the mbarrier at the same shared-memory address in the
  /// cluster's CTA `rank` (i32), with the default .release.cta semantics, as
  /// CUTLASS's cluster pipelines arrive: the reads it orders (a retired
  /// wgmma's) are done, and .release.cluster cost the consumers their
  /// pipeline (measured: a clustered GEMM at 0.43x of its unclustered self).
  void mbarrierArriveCluster(mlir::Value bar, mlir::Value rank);

  // Thread-block clusters.
  /// Makes the mbarrier inits visible to the cluster (one thread, before
  /// clusterSync).
  void fenceMbarrierInit();
  /// barrier.cluster.arrive (release) and wait (acquire) by every thread.
  void clusterSync();

  // TMA (coordinates innermost first, i32).
  /// With `multicastMask` (i16): the box lands at `dst` in every CTA of the
  /// cluster whose bit is set, each completing its own mbarrier at `bar`.
  void tmaLoad(mlir::Value dst, mlir::Value tensorMap,
               mlir::ValueRange coords, mlir::Value bar, mlir::Value multicastMask = {});
  /// A tile loaded as `panels` boxes side by side along the innermost
  /// dimension (each `panelCols` wide), the p-th landing `panelBytes` * p
  /// after `dst`; all complete on `bar`.
  void tmaLoadPanels(mlir::Value dst, mlir::Value tensorMap,
                     mlir::ValueRange coords, mlir::Value bar, int64_t panels,
                     int64_t panelCols, int64_t panelBytes, mlir::Value multicastMask = {});
  void tmaStore(mlir::Value tensorMap, mlir::Value src,
                mlir::ValueRange coords);
  void tmaStoreCommitAndWait();
  /// Brings a tensor map (a generic pointer to a grid-constant parameter)
  /// into the TMA unit's descriptor cache ahead of its first copy.
  void prefetchTensorMap(mlir::Value tensorMap);
  void fenceProxyAsyncShared();
  void setMaxRegisters(int count, bool increase);

  // wgmma.
  /// Shared-memory matrix descriptor of an operand at 32-bit shared address
  /// `addr` in rows of `swizzle` bytes (128, 64 or 32), swizzled as TMA
  /// wrote them. For a K-major operand the leading offset is unused and the
  /// stride offset is the distance between 8-row groups (8 x swizzle); for
  /// an MN-major one the leading offset is the distance between panels along
  /// M or N and the stride offset between 8-row groups along K.
  mlir::Value wgmmaDescriptor(mlir::Value addr, int64_t leadingBytes,
                              int64_t strideBytes, int64_t swizzle = 128);
  void wgmmaFence();
  void wgmmaCommit();
  void wgmmaWait(int pending);
  /// An i32 that is 0 whenever a kernel runs, though ptxas cannot prove it:
  /// the global timer's high word being all ones (a nanosecond clock gets
  /// there after 584 years). The predicate of orderingStore.
  mlir::Value neverSetFlag();
  /// A global store predicated on `flag` (from neverSetFlag: never
  /// performed), which ptxas keeps in order with a wgmma.wait_group after
  /// it; so the wait stays where it is (ConsumerLoop.cpp: holding a
  /// register-A dot under the math after it).
  void orderingStore(mlir::Value flag);
  /// D = A*B + D for one m64nNk16 bf16 wgmma; `acc` is the N/2 f32
  /// accumulator registers of this thread, as an LLVM struct.
  mlir::Value wgmma(int n, mlir::Value descA, mlir::Value descB,
                    mlir::Value acc, bool transB);

  /// One m64nNk16 wgmma on flat registers: `acc` holds the N/2 f32
  /// accumulators of this thread; A comes from shared memory (`descA`) or,
  /// when `aRegs` is non-empty, from 4 registers of 16-bit pairs in the
  /// accumulator layout. `abType` is "bf16" or "f16". `scaleD` (i32) 0
  /// ignores the incoming accumulator. `transA` / `transB`: the operand in
  /// shared memory is M- / N-major.
  llvm::SmallVector<mlir::Value> wgmmaRegs(int n, llvm::StringRef abType,
                                           mlir::ValueRange aRegs, mlir::Value descA,
                                           mlir::Value descB, mlir::ValueRange acc,
                                           mlir::Value scaleD, bool transA, bool transB);
  /// The same with each operand's type: "bf16", "f16", or for FP8 "e4m3" /
  /// "e5m2" (m64nNk32, K-major operands only: `transA`/`transB` unused).
  llvm::SmallVector<mlir::Value> wgmmaTyped(int n, llvm::StringRef aType, llvm::StringRef bType,
                                            mlir::ValueRange aRegs, mlir::Value descA,
                                            mlir::Value descB, mlir::ValueRange acc,
                                            mlir::Value scaleD, bool transA, bool transB);
  /// wgmma.wait_group `pending`, passing `values` through the same asm so
  /// that no use of a wgmma result can be scheduled above the wait.
  llvm::SmallVector<mlir::Value> wgmmaWaitTie(int pending, mlir::ValueRange values);

  /// `v` (i32 or i64) through an asm with side effects: computed here, never
  /// hoisted out of the loop it is in.
  mlir::Value pinned(mlir::Value v);
  /// `v` (f32, i32 or i1) through an asm with side effects: the same value,
  /// which LLVM cannot fold as the constant it may be.
  mlir::Value opaque(mlir::Value v);

  // Warp shuffles and fast math.
  mlir::Value shflXor(mlir::Value v, int offset);
  mlir::Value ex2(mlir::Value v);
  /// Two f32 rounded to a bf16 pair in one i32 (low half first).
  mlir::Value packBF16(mlir::Value lo, mlir::Value hi);
  /// Two f32 rounded to a pair of `type` (bf16 or f16) in one i32.
  mlir::Value pack16(mlir::Type type, mlir::Value lo, mlir::Value hi);

  /// An LLVM struct of `n` f32.
  mlir::Type accType(int n);
  mlir::Value zeroAcc(int n);

private:
  mlir::Value smemBase();
  mlir::Value base;
};

} // namespace stagecraft::hopper

#endif // STAGECRAFT_PASSES_LOWERING_HOPPEROPS_H
