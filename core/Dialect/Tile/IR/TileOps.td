//===- TileOps.td - tile dialect operations -----------------*- tablegen -*-===//
#ifndef STAGECRAFT_TILE_OPS
#define STAGECRAFT_TILE_OPS

include "core/Dialect/Tile/IR/TileBase.td"
include "core/Dialect/Tile/IR/TileAttrs.td"
include "core/Dialect/Tile/IR/TileTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "index of this program (CTA) along a grid dimension";
  let description = [{
    `%pid = tile.program_id 0 : index` is the CTA index along grid dimension
    0, 1 or 2 (`blockIdx.x/y/z`).
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative, IntMaxValue<2>]>:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "number of programs (CTAs) along a grid dimension";
  let description = [{
    `%n = tile.num_programs 0 : index` is `gridDim.x` (dimension 0, 1 or 2);
    persistent kernels step their tile loop by it.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative, IntMaxValue<2>]>:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
}

def Tile_LoadOp : Tile_Op<"load", [MemoryEffects<[MemRead]>]> {
  let summary = "TMA load of one box of a global tensor into a tile";
  let description = [{
    `%k = tile.load %K[%bh, %j, %c0] : !tile.desc<1x128x128xbf16> -> tensor<128x128xbf16>`

    Loads the box at the given element coordinates (outermost first). Out of
    bounds elements read as zero. The result is the box with its leading unit
    dimensions dropped. Lowered to `cp.async.bulk.tensor` into a swizzled
    shared-memory buffer completing on an mbarrier; the number of buffers
    follows the schedule.
  }];
  let arguments = (ins Tile_DescType:$desc, Variadic<Index>:$coords);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $desc `[` $coords `]` attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store of a tile to one box of a global tensor";
  let description = [{
    `tile.store %C[%m, %n], %c : !tile.desc<128x128xbf16>, tensor<128x128xbf16>`

    Writes the tile at the given element coordinates; elements out of bounds
    are clipped (a partial tile at the edge of the tensor is written
    partially).
  }];
  let arguments = (ins Tile_DescType:$desc, Variadic<Index>:$coords,
                       AnyRankedTensor:$value);
  let assemblyFormat = [{
    $desc `[` $coords `]` `,` $value attr-dict `:` qualified(type($desc)) `,` type($value)
  }];
  let hasVerifier = 1;
}

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix multiply-accumulate of tiles (wgmma)";
  let description = [{
    `%d = tile.dot %a, %b, %acc {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>`

    `result = acc + a * b`. `a` is `MxK` (K-major, as a row-major activation
    is), or `KxM` with `transpose_a` (M-major); `b` is `KxN` (N-major, a
    row-major `[K, N]` matrix as in torch's `a @ b`), or `NxK` with
    `transpose_b` (K-major, the usual layout of a weight or of K in
    attention). Operands are both bf16 or both f16, `acc` is f32. The sizes
    must fit Hopper's wgmma: M a multiple of 64 (one warp group per 64 rows),
    N a multiple of 8 up to 256, K a multiple of 16. `a` comes from shared
    memory (a `tile.load`) or from registers (a 16-bit tile computed in the
    loop, which must be K-major).
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b,
                       AnyRankedTensor:$acc, UnitAttr:$transpose_a,
                       UnitAttr:$transpose_b);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getM() { return getResult().getType().getDimSize(0); }
    int64_t getN() { return getResult().getType().getDimSize(1); }
    int64_t getK() {
      auto a = ::llvm::cast<::mlir::RankedTensorType>(getA().getType());
      return a.getDimSize(getTransposeA() ? 0 : 1);
    }
    /// Floating-point operations of one execution (a multiply-add is 2).
    int64_t getFlops() { return 2 * getM() * getN() * getK(); }
  }];
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "reduction of a 2-d tile along one dimension";
  let description = [{
    `%mx = tile.reduce max %s, dim = 1 : tensor<128x128xf32> -> tensor<128xf32>`

    `max` or `sum` over dimension `dim`; the result drops that dimension.
    Along rows of an accumulator this is a reduction within a thread and
    across the four threads of a quad that share a row.
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind, AnyRankedTensor:$input,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $kind $input `,` `dim` `=` $dim attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "broadcast of a tile along a new dimension";
  let description = [{
    `%b = tile.broadcast %m, dim = 1 : tensor<128xf32> -> tensor<128x128xf32>`

    Inserts dimension `dim` into the input's shape and repeats the input
    along it (a row vector applied to every column).
  }];
  let arguments = (ins AnyRankedTensor:$input,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `,` `dim` `=` $dim attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "a tile of row or column indices";
  let description = [{
    `%rows = tile.iota %q0, dim = 0 : tensor<128x128xi32>`

    Element `(r, c)` is `offset + r` with `dim = 0` (the row index) or
    `offset + c` with `dim = 1` (the column index); a 1-d result holds
    `offset + i`. With `arith` ops on the result a kernel writes its own
    masks and biases in IR: a sliding window (`rows - cols < w`), ALiBi
    (`slope * (cols - rows)`), a causal mask (`cols <= rows`).
  }];
  let arguments = (ins Index:$offset, ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $offset `,` `dim` `=` $dim attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_MaskOp : Tile_Op<"mask", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "attention score mask: key bounds and optional causality";
  let description = [{
    `%sm = tile.mask %s, %q0, %k0, %kv_len {causal} : tensor<128x128xf32>`

    For the score tile whose rows are queries `q0 + r` and columns keys
    `k0 + c`: element (r, c) becomes -inf when `k0 + c >= kv_len` (keys past
    the end of the sequence, read as zeros by TMA) or, with `causal`, when
    `k0 + c > q0 + r`. Other elements pass unchanged.
  }];
  let arguments = (ins AnyRankedTensor:$input, Index:$rowOffset,
                       Index:$colOffset, Index:$colLimit, UnitAttr:$causal);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `,` $rowOffset `,` $colOffset `,` $colLimit attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

#endif // STAGECRAFT_TILE_OPS
