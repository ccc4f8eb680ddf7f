//===- TileBase.td - the tile dialect definition ------------*- tablegen -*-===//
//
// The `tile` dialect holds tile-level ops on tensors (close in spirit to
// Triton's TTGIR): TMA loads from tensor descriptors, wgmma-sized dots,
// row reductions and broadcasts, attention masks, and the per-op schedule
// attribute that drives software pipelining and warp specialization.
// Elementwise math uses upstream arith/math on tensors (and tensor.splat to
// make a tile of a scalar); loops use scf.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_TILE_BASE
#define STAGECRAFT_TILE_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::stagecraft::tile";
  let summary = "Tile-level loop IR with per-op pipeline schedules";
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::func::FuncDialect"
  ];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // Discardable attributes the dialect owns: `tile.sched` on any op,
  // `tile.kernel` & co. on kernels, `tile.shape` / `tile.size` /
  // `tile.init` on arguments.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kSchedAttrName = "tile.sched";
    static constexpr ::llvm::StringLiteral kKernelAttrName = "tile.kernel";
    static constexpr ::llvm::StringLiteral kGridAttrName = "tile.grid";
    static constexpr ::llvm::StringLiteral kDefaultsAttrName = "tile.defaults";
    static constexpr ::llvm::StringLiteral kWarpGroupsAttrName = "tile.warpgroups";
    static constexpr ::llvm::StringLiteral kConsumersAttrName = "tile.consumers";
    static constexpr ::llvm::StringLiteral kRegistersAttrName = "tile.registers";
    static constexpr ::llvm::StringLiteral kClusterAttrName = "tile.cluster";
    static constexpr ::llvm::StringLiteral kShapeAttrName = "tile.shape";
    static constexpr ::llvm::StringLiteral kSizeAttrName = "tile.size";
    static constexpr ::llvm::StringLiteral kInitAttrName = "tile.init";
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // STAGECRAFT_TILE_BASE
