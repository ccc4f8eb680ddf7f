//===- Memory.h - patterns that touch shared and global memory -----*- C++ -*-===//
//
// Dots (Dot.cpp): wgmma from shared-memory descriptors or register A
// fragments. Loads and stores (LoadStore.cpp): shared-memory tiles read
// into registers, register tiles staged for a TMA store, and the reference
// lowering's plain global loads and stores.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_PATTERNS_MEMORY_H
#define STAGECRAFT_PASSES_LOWERING_PATTERNS_MEMORY_H

#include "passes/Lowering/Placement.h"
#include "passes/Lowering/patterns/Patterns.h"

namespace stagecraft::lowering {

/// A tile in shared memory: byte offset (i32) into the dynamic shared memory.
struct SmemRef {
  mlir::Value offset;
  const SmemTile *tile = nullptr;
  explicit operator bool() const { return tile != nullptr; }
};

struct DotOperands {
  SmemRef a;         // A from shared memory, or
  Frag aRegs;        // A from registers (a 16-bit tile, K-major)
  SmemRef b;
  llvm::SmallVector<mlir::Value> acc; // rowBlocks * N/2 f32, unless zeroAcc
  bool zeroAcc = false;
  /// When set (i32): scale-d of the first k step, 0 to start from zero.
  mlir::Value firstScaleD;
  /// When set: receives the registers of A passed to the wgmma (i32 pairs),
  /// which must stay unchanged until its group retires.
  llvm::SmallVector<mlir::Value> *aPassed = nullptr;
};

/// The wgmma instructions of one dot for this thread's warp group (`cwg`,
/// i32): rowBlocks x K/16 wgmma.mma_async after a wgmma.fence (the caller
/// commits). Returns the new accumulators.
llvm::SmallVector<mlir::Value> emitDot(hopper::Emitter &e, tile::DotOp dot,
                                       const TileGeometry &geom, mlir::Value cwg,
                                       const DotOperands &ops);
void emitReferenceDot(tile::DotOp dot, ReferenceContext &ctx);

/// Element (row, col) (i32) of a shared-memory tile as its f32 carrier (the
/// swizzle undone).
mlir::Value readSmemElement(hopper::Emitter &e, const SmemRef &tile, mlir::Value row,
                            mlir::Value col);

/// Elements of the tiles loaded before the loop (residents) read as scalars
/// (ScalarSources::extract): tensor.extract of a per-tensor scale.
std::function<mlir::Value(hopper::Emitter &, mlir::Value, mlir::ValueRange)>
residentExtractor(const KernelPlan &plan);

/// Byte offset (i32) of element (row, col) within a shared-memory tile, the
/// swizzle applied.
mlir::Value smemByteOffset(hopper::Emitter &e, const SmemTile &tile, mlir::Value row,
                           mlir::Value col);

/// tile.upcast (Upcast.cpp) of the FP8 tile `input` with its e8m0 scales
/// `scale` (both in shared memory): into registers in `layout`, or
/// (`out` set) into the shared-memory tile `out`, K-major and 128-byte
/// swizzled as wgmma reads B, by all consumer threads, then a fence and a
/// named barrier over the consumers.
Frag emitUpcast(RegisterContext &ctx, tile::UpcastOp op, const SmemRef &input,
                const SmemRef &scale, const SmemRef &out, const Layout &layout);
void emitReferenceUpcast(tile::UpcastOp op, ReferenceContext &ctx);
/// tile.dot_scaled in the reference: upcast(a) upcast(b) + acc, per element.
void emitReferenceDotScaled(tile::DotScaledOp op, ReferenceContext &ctx);

/// This thread's elements of a shared-memory tile in register `layout`.
Frag readSmemTile(RegisterContext &ctx, const SmemRef &tile, const Layout &layout);

/// Writes panel `panel` of `value` (the columns TMA stores as one box, laid
/// out and swizzled as a loaded panel: SmemTile::of(store desc)) to the
/// staging buffer at byte offset `slot` (i32), from this thread's elements.
/// A 1-d value is one unswizzled panel. Of a 2-d value only the elements
/// the context needs (RegisterContext::needed: a chunk of the panel's
/// columns). The caller fences, synchronizes and issues the TMA store.
void writeStagingPanel(RegisterContext &ctx, const Frag &value, tile::StoreOp store,
                       int64_t panel, mlir::Value slot);

/// The reference lowering's view of global memory.
class GlobalMemory {
public:
  virtual ~GlobalMemory() = default;
  /// Global pointer (address space 1) of the tensor behind a descriptor.
  virtual mlir::Value pointer(mlir::Value desc) = 0;
  /// Its global shape (i32), outermost first.
  virtual llvm::SmallVector<mlir::Value> shape(mlir::Value desc) = 0;
  /// Runs `body` for every index of `shape` (i32 per dimension), spread
  /// over the block's threads.
  virtual void forEachIndex(llvm::ArrayRef<int64_t> shape,
                            const std::function<void(mlir::ValueRange)> &body) = 0;
};
void emitReferenceLoad(tile::LoadOp load, ReferenceContext &ctx, GlobalMemory &mem);
void emitReferenceStore(tile::StoreOp store, ReferenceContext &ctx, GlobalMemory &mem);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_PATTERNS_MEMORY_H
