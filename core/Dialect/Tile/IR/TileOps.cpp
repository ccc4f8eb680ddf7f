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

/// The sizes of a dot as wgmma (and tcgen05.mma) take them: M in blocks of
/// 64 rows, N a multiple of 8 up to 256, K a multiple of `kStep`.
static LogicalResult verifyDotShapes(Operation *op, RankedTensorType a, RankedTensorType b,
                                     RankedTensorType acc, bool transA, bool transB,
                                     int64_t kStep, StringRef kWhy) {
  int64_t m = transA ? a.getDimSize(1) : a.getDimSize(0);
  int64_t k = transA ? a.getDimSize(0) : a.getDimSize(1);
  int64_t bk = transB ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = transB ? b.getDimSize(0) : b.getDimSize(1);
  if (bk != k)
    return op->emitOpError("contraction sizes differ: a gives M = ")
           << m << ", K = " << k
           << (transA ? " (a is KxM with transpose_a)" : " (a is MxK)")
           << ", b gives K = " << bk
           << (transB ? " (b is NxK with transpose_b)"
                      : " (b is KxN; add transpose_b if it is NxK)");
  if (acc.getDimSize(0) != m || acc.getDimSize(1) != n)
    return op->emitOpError("accumulator must be ")
           << m << "x" << n << ", got " << acc.getDimSize(0) << "x"
           << acc.getDimSize(1);
  if (m % 64 != 0 || m > 256)
    return op->emitOpError("M = ")
           << m << " cannot map to wgmma: M must be 64, 128, 192 or 256 "
              "(64 rows per warp group)";
  if (n % 8 != 0 || n < 8 || n > 256)
    return op->emitOpError("N = ") << n
                                   << " cannot map to wgmma: N must be a multiple "
                                      "of 8 from 8 to 256";
  if (k % kStep != 0)
    return op->emitOpError("K = ")
           << k << " cannot map to wgmma: K must be a multiple of " << kStep << kWhy;
  return success();
}

static LogicalResult verifyStatic2d(Operation *op, ArrayRef<RankedTensorType> types) {
  for (RankedTensorType t : types)
    if (t.getRank() != 2)
      return op->emitOpError("operands must be 2-d tiles");
  for (RankedTensorType t : types)
    if (!t.hasStaticShape() || t.getNumElements() == 0)
      return op->emitOpError("tile shapes must be static and non-empty, got ") << t;
  return success();
}

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (failed(verifyStatic2d(*this, {a, b, acc})))
    return failure();
  Type ea = a.getElementType(), eb = b.getElementType();
  bool fp8 = isFp8(ea) && isFp8(eb);
  if (!fp8 && (!(ea.isBF16() || ea.isF16()) || ea != eb))
    return emitOpError("operands must both be bf16, both f16, or both FP8 "
                       "(f8E4M3FN or f8E5M2), got ")
           << ea << " and " << eb;
  if (!acc.getElementType().isF32())
    return emitOpError("accumulator must be f32, got ") << acc.getElementType();
  return verifyDotShapes(*this, a, b, acc, getTransposeA(), getTransposeB(), fp8 ? 32 : 16,
                         fp8 ? " for FP8 operands (32 bytes per wgmma k step)" : "");
}

/// Whether `scale` holds the scales of an `rows x cols` tile blocked by 32
/// along its columns transposed (cols/32 x rows) rather than as rows x cols/32.
/// Fails with the op's error when it is neither, or when both fit.
static FailureOr<bool> scaleLayout(Operation *op, StringRef what, int64_t rows, int64_t cols,
                                   RankedTensorType scale) {
  if (!isScaleType(scale.getElementType()))
    return op->emitOpError() << what << " must hold f8E8M0FNU (e8m0) scales, got "
                             << scale.getElementType();
  if (scale.getRank() != 2 || !scale.hasStaticShape())
    return op->emitOpError() << what << " must be a static 2-d tile, got " << scale;
  if (cols % 32 != 0)
    return op->emitOpError() << "the scaled dimension (" << cols
                             << ") must be a multiple of 32: one e8m0 scale per 32 elements";
  int64_t groups = cols / 32;
  bool plain = scale.getDimSize(0) == rows && scale.getDimSize(1) == groups;
  bool transposed = scale.getDimSize(0) == groups && scale.getDimSize(1) == rows;
  if (plain && transposed)
    return op->emitOpError() << what << " " << rows << "x" << groups
                             << " is ambiguous: a " << rows << "x" << cols
                             << " tile's scales read the same either way round; use a tile "
                                "with more rows";
  if (!plain && !transposed)
    return op->emitOpError() << what << " must be " << rows << "x" << groups << " (or "
                             << groups << "x" << rows << " stored transposed) for a "
                             << rows << "x" << cols << " tile, got " << scale.getDimSize(0)
                             << "x" << scale.getDimSize(1);
  return transposed;
}

bool UpcastOp::scalesTransposed() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto sc = cast<RankedTensorType>(getScale().getType());
  return sc.getDimSize(0) == in.getDimSize(1) / 32 && sc.getDimSize(1) == in.getDimSize(0) &&
         in.getDimSize(0) != in.getDimSize(1) / 32;
}

LogicalResult UpcastOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto sc = cast<RankedTensorType>(getScale().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  if (in.getRank() != 2 || !in.hasStaticShape())
    return emitOpError("upcasts static 2-d tiles, got ") << in;
  if (!isFp8(in.getElementType()))
    return emitOpError("input must be FP8 (f8E4M3FN or f8E5M2), got ") << in.getElementType();
  Type e = out.getElementType();
  if (out.getShape() != in.getShape() || !(e.isBF16() || e.isF16() || e.isF32()))
    return emitOpError("result must be a bf16, f16 or f32 tile of the input's shape, got ") << out;
  return failure(failed(scaleLayout(*this, "the scale tile", in.getDimSize(0),
                                    in.getDimSize(1), sc)));
}

LogicalResult DotScaledOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (failed(verifyStatic2d(*this, {a, b, acc})))
    return failure();
  Type ea = a.getElementType(), eb = b.getElementType();
  if (!isFp8(ea) || !isFp8(eb))
    return emitOpError("operands must be FP8 (f8E4M3FN or f8E5M2), got ") << ea << " and " << eb;
  if (!acc.getElementType().isF32())
    return emitOpError("accumulator must be f32, got ") << acc.getElementType();
  if (!getTransposeB())
    return emitOpError("b must be NxK with transpose_b: the scale blocks run along K, which "
                       "must be the contiguous dimension of both operands");
  if (failed(verifyDotShapes(*this, a, b, acc, false, true, 32,
                             " (one e8m0 scale per 32 elements of K)")))
    return failure();
  if (failed(scaleLayout(*this, "a_scale", getM(), getK(),
                         cast<RankedTensorType>(getAScale().getType()))) ||
      failed(scaleLayout(*this, "b_scale", getN(), getK(),
                         cast<RankedTensorType>(getBScale().getType()))))
    return failure();
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
