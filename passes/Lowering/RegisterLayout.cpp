//===- RegisterLayout.cpp - tensors in the consumer warp groups' registers -===//
#include "passes/Lowering/RegisterLayout.h"

#include "llvm/Support/FormatVariadic.h"

using namespace stagecraft::lowering;

std::string Layout::str() const {
  switch (kind) {
  case Kind::Splat: return "splat";
  case Kind::Rows: return "row vector";
  case Kind::Cols: return llvm::formatv("column vector of {0}", cols).str();
  case Kind::RowView: return "tile constant along its columns";
  case Kind::ColView: return "tile constant along its rows";
  case Kind::Tile: return llvm::formatv("tile of {0} columns", cols).str();
  case Kind::Smem: return "shared-memory tile";
  }
  return "?";
}

TileElement stagecraft::lowering::tileElement(int64_t cols, int64_t e) {
  int64_t perBlock = cols / 2;
  int64_t i = e % perBlock;
  return {e / perBlock, (i >> 1) & 1, i / 4, i & 1};
}

int64_t stagecraft::lowering::sourceElement(const Layout &from, const Layout &to,
                                            int64_t e, const TileGeometry &) {
  switch (from.kind) {
  case Kind::Splat: return 0;
  case Kind::Rows:
  case Kind::RowView: {
    if (to.kind != Kind::Tile)
      return e;
    TileElement t = tileElement(to.cols, e);
    return 2 * t.block + t.half;
  }
  case Kind::Cols:
  case Kind::ColView: {
    if (to.kind != Kind::Tile)
      return e;
    TileElement t = tileElement(to.cols, e);
    return 2 * t.colBlock + t.colPair;
  }
  default: return e;
  }
}

Layout stagecraft::lowering::join(const Layout &a, const Layout &b, bool &ok) {
  ok = true;
  if (a == b)
    return a;
  if (a.kind == Kind::Splat)
    return b;
  if (b.kind == Kind::Splat)
    return a;
  if (a.is2d() && b.is2d() && a.cols == b.cols)
    return Layout::tile(a.cols); // a row view and a column view, or a view and a tile
  ok = false;
  return Layout::smem();
}
