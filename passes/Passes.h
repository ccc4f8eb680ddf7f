//===- Passes.h - Stagecraft passes -------------------------------*- C++ -*-===//
#ifndef STAGECRAFT_PASSES_PASSES_H
#define STAGECRAFT_PASSES_PASSES_H

#include "core/Dialect/Tile/IR/TileDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace stagecraft {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// The kernel named `name`, or the only kernel of the module when `name` is
/// empty; emits an error otherwise.
mlir::FailureOr<mlir::func::FuncOp> selectKernel(mlir::ModuleOp module,
                                                 llvm::StringRef name);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_PASSES_H
