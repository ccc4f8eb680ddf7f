//===- LowerAttention.h - attention loops to NVVM for sm_90a ----*- C++ -*-===//
//
// The attention form of tile-lower-to-nvvm: a pipelined loop with two dots
// (S = Q K^T, then O += P V with P in registers) and register math between
// them (mask, online softmax, rescale). See LowerAttention.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_LOWERATTENTION_H
#define STAGECRAFT_PASSES_LOWERING_LOWERATTENTION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace stagecraft {

/// True when the kernel's pipelined loop holds more than one dot: the
/// attention form, lowered by lowerAttentionKernel.
bool isAttentionKernel(mlir::func::FuncOp kernel);

/// Emits the llvm.func of an attention kernel next to `kernel`, or an error
/// naming the op it cannot lower.
mlir::LogicalResult lowerAttentionKernel(mlir::func::FuncOp kernel);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_LOWERING_LOWERATTENTION_H
