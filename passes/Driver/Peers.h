//===- Peers.h - is a kernel's math exactly a GEMM or attention? --*- C++ -*-===//
#ifndef STAGECRAFT_PASSES_DRIVER_PEERS_H
#define STAGECRAFT_PASSES_DRIVER_PEERS_H

#include "core/Dialect/Tile/IR/TileDialect.h"

#include <optional>

namespace stagecraft {

/// C = A B (B with transpose_b: A B^T), bf16 operands, f32 accumulation
/// from zero, the result stored as it is or converted.
struct GemmPeer {
  int a = -1, b = -1, c = -1; // kernel argument numbers
  bool transposeB = true;
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
