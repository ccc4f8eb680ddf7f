//===- RegisterLayout.h - tensors in the consumer warp groups' registers -*- C++ -*-===//
//
// Every tensor the consumer warp groups compute lives in registers in the
// layout of a wgmma accumulator. The consumer tile has M rows: `wgs` warp
// groups, each holding `rowBlocks` blocks of 64 rows (one m64 wgmma each).
// In row block b of warp group g, warp w, lane l holds rows
//   64 (g * rowBlocks + b) + 16 w + l / 4   and that row + 8,
// and, for each 8-column block j, columns 8 j + 2 (l % 4) and + 1.
//
// Layouts, by what an element of this thread stands for:
//   Tile     a 2-d tile of `cols` columns: rowBlocks * cols / 2 elements,
//            element e = b * cols/2 + i with i = 4 j + 2 h + c (row + 8 h,
//            column 8 j + 2 (l % 4) + c): exactly wgmma's accumulator order.
//   Rows     a 1-d vector along the rows (one value per row): 2 rowBlocks
//            elements, e = 2 b + h. The four lanes of a row hold copies.
//   Cols     a 1-d vector along the columns: cols / 4 elements, e = 2 j + c.
//   RowView  a 2-d tile constant along its columns (a broadcast row vector):
//            stored as Rows.
//   ColView  a 2-d tile constant along its rows: stored as Cols.
//   Splat    one value for every element (constants, tensor.splat).
//   Smem     a tile TMA loaded into shared memory, read by dots through
//            descriptors (and into registers by readers that need it).
//
// Floating-point elements are f32 values; a 16-bit tensor's element is the
// f32 value it rounds to (see Frag::unrounded). Integer tensors hold i32,
// comparisons i1.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_REGISTERLAYOUT_H
#define STAGECRAFT_PASSES_LOWERING_REGISTERLAYOUT_H

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace stagecraft::lowering {

struct TileGeometry {
  int64_t rows = 64;     // M of the consumer tile
  int64_t wgs = 1;       // consumer warp groups
  int64_t rowBlocks = 1; // 64-row blocks per warp group
};

enum class Kind { Splat, Rows, Cols, RowView, ColView, Tile, Smem };

struct Layout {
  Kind kind = Kind::Splat;
  int64_t cols = 0; // Cols, ColView, Tile

  static Layout splat() { return {Kind::Splat, 0}; }
  static Layout rows() { return {Kind::Rows, 0}; }
  static Layout colsOf(int64_t n) { return {Kind::Cols, n}; }
  static Layout tile(int64_t n) { return {Kind::Tile, n}; }
  static Layout smem() { return {Kind::Smem, 0}; }

  bool operator==(const Layout &o) const { return kind == o.kind && cols == o.cols; }
  bool operator!=(const Layout &o) const { return !(*this == o); }
  bool is2d() const {
    return kind == Kind::Tile || kind == Kind::RowView || kind == Kind::ColView;
  }
  /// Elements this thread holds.
  int64_t count(const TileGeometry &g) const {
    switch (kind) {
    case Kind::Splat: return 1;
    case Kind::Rows:
    case Kind::RowView: return 2 * g.rowBlocks;
    case Kind::Cols:
    case Kind::ColView: return cols / 4;
    case Kind::Tile: return g.rowBlocks * cols / 2;
    case Kind::Smem: return 0;
    }
    return 0;
  }
  std::string str() const;
};

/// Which of `from`'s elements element `e` of a `to` layout reads (`from` is
/// the same or a lower layout: Splat, a row or column view, the same tile).
int64_t sourceElement(const Layout &from, const Layout &to, int64_t e,
                      const TileGeometry &g);

/// Tile element e: its row block, its row half (+8) and its column within
/// the thread's column pattern.
struct TileElement {
  int64_t block, half, colBlock, colPair;
};
TileElement tileElement(int64_t cols, int64_t e);

/// The least layout both `a` and `b` convert to (Splat < views < Tile);
/// fails (kind Smem) when they do not meet (a row vector and a column
/// vector, tiles of different widths).
Layout join(const Layout &a, const Layout &b, bool &ok);

/// This thread's elements of one tensor value.
struct Frag {
  Layout layout;
  mlir::Type type; // the tensor's element type
  llvm::SmallVector<mlir::Value> elems;
  /// A 16-bit float tensor whose elements are held as the f32 values before
  /// rounding: readers round them (RegisterContext::element); packers
  /// convert pairs with one cvt.rn.{bf16,f16}x2.f32.
  bool unrounded = false;
  /// A 16-bit float tile held as pairs of neighbouring elements in one i32
  /// each (element e is half e % 2 of elems[e / 2]): how such tiles cross
  /// from one unit to another, half the registers of f32 elements and
  /// exactly the A fragments of a register-sourced wgmma.
  bool packed = false;
};

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_REGISTERLAYOUT_H
