//===- Peers.h - is a kernel's math exactly a GEMM or attention? --*- C++ -*-===//
#ifndef STAGECRAFT_PASSES_DRIVER_PEERS_H
#define STAGECRAFT_PASSES_DRIVER_PEERS_H

#include "core/Dialect/Tile/IR/TileDialect.h"

#include <optional>

namespace stagecraft {

/// C = A B (B with transpose_b: A B^T), bf16 operands, f32 accumulation
/// from zero, the result stored as it is or converted. Or, with FP8
/// operands (e4m3/e5m2, not both e5m2; K-major), C = sa sb A B^T: the
/// accumulator multiplied by splats of per-tensor scales (element 0 of
/// one or two f32 tensors loaded before the loop), as cuBLASLt's FP8 matmul
/// with scale pointers computes it. The loop either accumulates in place
/// (the dot onto the running sum) or promotes: the dot sums each
/// iteration's products from zero and an addf adds them to the running sum
/// (for FP8, cuBLASLt without fast accumulation does the same). C's tile may
/// be computed in column blocks, one running sum, dot and store each, B's
/// block and C's picked by the same coordinate.
struct GemmPeer {
  int a = -1, b = -1, c = -1; // kernel argument numbers
  bool transposeB = true;
  bool fp8 = false;
  bool promoted = false;
  int scaleA = -1, scaleB = -1; // FP8: the scales' arguments (-1: none)
};
std::optional<GemmPeer> matchGemmPeer(mlir::func::FuncOp kernel);

/// The attention forward pass of the bundled assets: softmax(Q K^T scale,
/// masked) V, O stored in bf16.
struct AttentionPeer {
  int q = -1, k = -1, v = -1, o = -1;
  bool causal = false;
  double log2Scale = 0; // the scale of the scores, log2(e) folded in
};
std::optional<AttentionPeer> matchAttentionPeer(mlir::func::FuncOp kernel);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_PEERS_H
