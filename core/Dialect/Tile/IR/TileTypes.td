//===- TileTypes.td - tile dialect types --------------------*- tablegen -*-===//
#ifndef STAGECRAFT_TILE_TYPES
#define STAGECRAFT_TILE_TYPES

include "core/Dialect/Tile/IR/TileBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

// A global tensor seen through a TMA tensor map. The type carries the box (the
// tile one load moves); the global shape is an argument attribute
// (`tile.shape`), bound to sizes at compile time. Lowered to a CUtensorMap
// passed by value as a __grid_constant__ kernel parameter.
def Tile_DescType : TypeDef<Tile_Dialect, "Desc"> {
  let mnemonic = "desc";
  let summary = "tensor descriptor (TMA tensor map) of a global tensor";
  let parameters = (ins
    ArrayRefParameter<"int64_t", "box shape, outermost first">:$boxShape,
    "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getBoxShape().size(); }
    /// The box without its leading unit dimensions: the shape of the tensor a
    /// load produces.
    ::llvm::ArrayRef<int64_t> getTileShape() const;
    int64_t getElementBytes() const;
    int64_t getBoxBytes() const;
    /// The box of one TMA load. A 2-d (or higher) tile, which wgmma may
    /// read, is loaded in panels: the innermost dimension capped at 128
    /// bytes, the span of the 128-byte swizzle that wgmma reads conflict-free;
    /// a wider tile is loaded as several such panels, one after the other.
    /// A 1-d tile (a bias vector) is loaded whole, unswizzled.
    ::llvm::SmallVector<int64_t> getLoadBoxShape() const;
    /// The swizzle of the loaded panels in bytes (128, 64 or 32), 0 for none.
    int64_t getLoadSwizzleBytes() const;
  }];
}

#endif // STAGECRAFT_TILE_TYPES
