//===- TileOps.cpp - tile dialect op verifiers ----------------------------===//
//
// The verifiers reject what Hopper cannot do, in words that name the limit:
// a wgmma needs M in multiples of 64, N a multiple of 8 up to 256, K a
// multiple of 16; a TMA box is at most 256 per dimension.
//
//===----------------------------------------------------------------------===//
#include "core/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace stagecraft::tile;

#define GET_OP_CLASSES
#include "core/Dialect/Tile/IR/TileOps.cpp.inc"

static LogicalResult verifyTileMatchesDesc(Operation *op, DescType desc,
                                           size_t numCoords,
                                           RankedTensorType tile,
                                           StringRef what) {
  if (numCoords != static_cast<size_t>(desc.getRank()))
    return op->emitOpError("takes ")
           << desc.getRank() << " coordinates for a rank-" << desc.getRank()
           << " descriptor, got " << numCoords;
  if (tile.getElementType() != desc.getElementType())
    return op->emitOpError() << what << " element type " << tile.getElementType()
                             << " differs from the descriptor's "
                             << desc.getElementType();
  if (tile.getShape() != desc.getTileShape()) {
    auto diag = op->emitOpError() << what << " shape (";
    llvm::interleave(tile.getShape(), diag, "x");
    diag << ") must equal the descriptor box without leading unit dims (";
    llvm::interleave(desc.getTileShape(), diag, "x");
    return diag << ")";
  }
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyTileMatchesDesc(*this, getDesc().getType(), getCoords().size(),
                               cast<RankedTensorType>(getResult().getType()),
                               "result");
}

LogicalResult StoreOp::verify() {
  return verifyTileMatchesDesc(*this, getDesc().getType(), getCoords().size(),
                               cast<RankedTensorType>(getValue().getType()),
                               "stored value");
}

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (a.getRank() != 2 || b.getRank() != 2 || acc.getRank() != 2)
    return emitOpError("operands must be 2-d tiles");
  for (RankedTensorType t : {a, b, acc})
    if (!t.hasStaticShape() || t.getNumElements() == 0)
      return emitOpError("tile shapes must be static and non-empty, got ") << t;
  Type ea = a.getElementType(), eb = b.getElementType();
  if (!(ea.isBF16() || ea.isF16()) || ea != eb)
    return emitOpError("operands must both be bf16 or both f16, got ")
           << ea << " and " << eb;
  if (!acc.getElementType().isF32())
    return emitOpError("accumulator must be f32, got ") << acc.getElementType();
  int64_t m = getTransposeA() ? a.getDimSize(1) : a.getDimSize(0);
  int64_t k = getTransposeA() ? a.getDimSize(0) : a.getDimSize(1);
  int64_t bk = getTransposeB() ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = getTransposeB() ? b.getDimSize(0) : b.getDimSize(1);
  if (bk != k)
    return emitOpError("contraction sizes differ: a gives M = ")
           << m << ", K = " << k
           << (getTransposeA() ? " (a is KxM with transpose_a)" : " (a is MxK)")
           << ", b gives K = " << bk
           << (getTransposeB() ? " (b is NxK with transpose_b)"
                               : " (b is KxN; add transpose_b if it is NxK)");
  if (acc.getDimSize(0) != m || acc.getDimSize(1) != n)
    return emitOpError("accumulator must be ")
           << m << "x" << n << ", got " << acc.getDimSize(0) << "x"
           << acc.getDimSize(1);
  if (m % 64 != 0 || m > 256)
    return emitOpError("M = ")
           << m << " cannot map to wgmma: M must be 64, 128, 192 or 256 "
              "(64 rows per warp group)";
  if (n % 8 != 0 || n < 8 || n > 256)
    return emitOpError("N = ") << n
                               << " cannot map to wgmma: N must be a multiple "
                                  "of 8 from 8 to 256";
  if (k % 16 != 0)
    return emitOpError("K = ")
           << k << " cannot map to wgmma: K must be a multiple of 16";
  return success();
}

LogicalResult ReduceOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  if (in.getRank() != 2)
    return emitOpError("reduces 2-d tiles, got rank ") << in.getRank();
  if (getDim() >= 2)
    return emitOpError("dim must be 0 or 1, got ") << getDim();
  if (!in.getElementType().isF32() || out.getElementType() != in.getElementType())
    return emitOpError("reduces f32 tiles to f32");
  int64_t kept = in.getDimSize(1 - getDim());
  if (out.getRank() != 1 || out.getDimSize(0) != kept)
    return emitOpError("result must be ")
           << RankedTensorType::get({kept}, in.getElementType());
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  if (out.getRank() != in.getRank() + 1)
    return emitOpError("result rank must be input rank + 1");
  if (getDim() > static_cast<uint64_t>(in.getRank()))
    return emitOpError("dim ") << getDim() << " is out of range";
  if (in.getElementType() != out.getElementType())
    return emitOpError("element types differ");
  SmallVector<int64_t> dropped(out.getShape());
  dropped.erase(dropped.begin() + getDim());
  if (ArrayRef<int64_t>(dropped) != in.getShape())
    return emitOpError("result shape without dim ")
           << getDim() << " must equal the input shape";
  return success();
}

LogicalResult MaskOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  if (in.getRank() != 2 || !in.getElementType().isF32())
    return emitOpError("masks 2-d f32 score tiles");
  return success();
}

LogicalResult IotaOp::verify() {
  auto t = cast<RankedTensorType>(getResult().getType());
  if (t.getRank() < 1 || t.getRank() > 2 || !t.hasStaticShape())
    return emitOpError("result must be a static 1-d or 2-d tile, got ") << t;
  if (!t.getElementType().isSignlessInteger(32))
    return emitOpError("result elements must be i32, got ") << t.getElementType();
  if (getDim() >= static_cast<uint64_t>(t.getRank()))
    return emitOpError("dim ") << getDim() << " is out of range for a rank-"
                               << t.getRank() << " result";
  return success();
}
