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

// Thread-block clusters (`tile.cluster = C` on the kernel: C consecutive
// CTAs along grid dimension 0 form a cluster; without it C = 1). A load whose
// box is the same in every CTA of a cluster is loaded once for all of them
// (TMA multicast): docs/ir-reference.md, "Clusters".
def Tile_ClusterRankOp : Tile_Op<"cluster_rank", [Pure]> {
  let summary = "this CTA's place in its cluster";
  let description = [{
    `%r = tile.cluster_rank : index` is 0 .. C-1, `program_id 0 mod C` (0
    without `tile.cluster`). Index math that differs between the CTAs of a
    cluster goes through it (or `tile.program_id 0`); loads whose
    coordinates do not are shared by the cluster.
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tile_ClusterIdOp : Tile_Op<"cluster_id", [Pure]> {
  let summary = "index of this CTA's cluster along grid dimension 0";
  let description = [{
    `%c = tile.cluster_id : index` is `program_id 0 / C`: the same in every
    CTA of a cluster.
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tile_NumClustersOp : Tile_Op<"num_clusters", [Pure]> {
  let summary = "number of clusters along grid dimension 0";
  let description = [{
    `%n = tile.num_clusters : index` is `num_programs 0 / C`; a persistent
    kernel of clusters steps its tile loop by it.
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tile_ClusterSizeOp : Tile_Op<"cluster_size", [Pure]> {
  let summary = "CTAs per cluster";
  let description = [{
    `%c = tile.cluster_size : index` is the kernel's `tile.cluster` (1
    without it): index math written with it serves every cluster size, so
    the cluster can be changed on the kernel alone.
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
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
    attention). Operands are both bf16, both f16, or both FP8 (f8E4M3FN or
    f8E5M2, in any pairing); `acc` is f32. The sizes must fit Hopper's
    wgmma: M a multiple of 64 (one warp group per 64 rows), N a multiple of
    8 up to 256, K a multiple of 16 (32 for FP8). `a` comes from shared
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

def Tile_UpcastOp : Tile_Op<"upcast", [Pure]> {
  let summary = "microscaled (mx) FP8 tile to a wider float: x * 2^scale";
  let description = [{
    `%ab = tile.upcast %a, %sa : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU> -> tensor<128x128xbf16>`

    `result[r][c] = x[r][c] * 2^(scale(r, c / 32) - 127)`: one e8m0 scale per
    32 consecutive elements of the last (contiguous) dimension, as the OCP
    microscaling formats (mxfp8) define. `x` is f8E4M3FN or f8E5M2; the
    result bf16, f16 or f32 of the same shape (exact for bf16 and f32). The
    scale tile is `R x C/32` (one row of scales per row of `x`, as Triton's
    `tl.dot_scaled` takes them) or `C/32 x R` (stored transposed: a K tile of
    128 then spans 4 x R bytes, a TMA box; one of 4 x 128 is 128 bytes wide).
    The shape says which; when both fit (R = C/32) the op is ambiguous and
    rejected. As its own op the upcast is a unit of the schedule: the board
    shows it and you place it.
  }];
  let arguments = (ins AnyRankedTensor:$input, AnyRankedTensor:$scale);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale attr-dict `:` type($input) `,` type($scale) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the scale tile is stored transposed (C/32 x R).
    bool scalesTransposed();
  }];
}

def Tile_DotScaledOp : Tile_Op<"dot_scaled", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "block-scaled (mxfp8) matrix multiply-accumulate";
  let description = [{
    `%d = tile.dot_scaled %a, %sa, %b, %sb, %acc {transpose_b} : tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU>, tensor<128x128xf8E4M3FN>, tensor<4x128xf8E8M0FNU> -> tensor<128x128xf32>`

    `result = acc + upcast(a, a_scale) * upcast(b, b_scale)` (`tile.upcast`):
    Triton's `tl.dot_scaled` with e4m3/e5m2 operands and one e8m0 scale per
    32 elements of K for each row of `a` and each column of the product.
    `a` is `MxK`, `b` is `NxK` with `transpose_b` (both K-major: the scale
    blocks run along K, the contiguous dimension). `a_scale` is `M x K/32`
    or `K/32 x M`, `b_scale` `N x K/32` or `K/32 x N`. The lowering for sm_90a
    splits it into two `tile.upcast`s in the dot's own unit and a bf16 dot;
    write the upcasts yourself to place them in a unit of their own.
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$a_scale,
                       AnyRankedTensor:$b, AnyRankedTensor:$b_scale,
                       AnyRankedTensor:$acc, UnitAttr:$transpose_b);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $a `,` $a_scale `,` $b `,` $b_scale `,` $acc attr-dict `:` type($a) `,` type($a_scale) `,`
    type($b) `,` type($b_scale) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getM() { return getResult().getType().getDimSize(0); }
    int64_t getN() { return getResult().getType().getDimSize(1); }
    int64_t getK() {
      return ::llvm::cast<::mlir::RankedTensorType>(getA().getType()).getDimSize(1);
    }
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
