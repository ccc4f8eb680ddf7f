//===- TileLoop.h - a persistent kernel's tile loop, as plain data -*- C++ -*-===//
//
// A persistent kernel runs its pipelined loop inside a tile loop: program p
// of N walks the output tiles t = p, p + N, p + 2N, ... and maps each t to
// tile coordinates with index arithmetic of its own. The board shows that
// loop as the IR writes it: how many programs over how many tiles, and the
// order the arithmetic produces, recognized from the coordinates it yields
// (TileLoopIR.h evaluates them), not from names:
//
//   row-major      tm = t / tiles_n, tn = t % tiles_n (last coordinate fastest)
//   column-major   tm = t % tiles_m, tn = t / tiles_m (first coordinate fastest)
//   grouped G      Triton's grouped order: down a group of G tile rows, then
//                  right (group = t / (G * tiles_n), ...)
//   custom         anything else, as written
//
// Plain data: no MLIR, so the app keeps it with the loop graph.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_CORE_SCHEDULE_TILELOOP_H
#define STAGECRAFT_CORE_SCHEDULE_TILELOOP_H

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft {

enum class TileOrder { None, RowMajor, ColumnMajor, Grouped, Custom };

struct TileLoop {
  /// The pipelined loop sits in another loop (a tile loop).
  bool persistent = false;
  /// The tile loop starts at the program id and steps by the number of
  /// programs (t = pid, pid + N, ...).
  bool stridedByGrid = false;
  /// At the kernel's default sizes; 0 when they could not be evaluated.
  int64_t programs = 0;
  int64_t tiles = 0;
  /// Tiles along each dimension of the stored output that has more than one
  /// (e.g. {64, 32} for a 8192x8192 C of 128x256 tiles), outermost first.
  std::vector<int64_t> tileGrid;
  TileOrder order = TileOrder::None;
  int64_t groupSize = 0; // grouped: tile rows per group
  /// Where the tile loop is, and the store its coordinates were read from
  /// ("file:line:col").
  std::string location, storeLocation;
  /// Why the order is custom (or could not be read), in words.
  std::string note;
  /// Program 0's first tiles: their index t and tile coordinates.
  std::vector<int64_t> firstT;
  std::vector<std::vector<int64_t>> firstTiles;

  /// "row-major", "grouped (8 tile rows)", "custom (as written)", or "".
  std::string orderName() const;
  /// "row-major", "column-major", "grouped:8" (as --tile-order spells
  /// them), "custom", or "" when not persistent.
  std::string orderSpec() const;
  /// One line for above the board, e.g. "persistent: a grid of 132 programs
  /// over 2048 tiles (64 x 32), each takes t = pid, pid + 132, ...; tile
  /// order row-major (tm = t / 32, tn = t % 32)"; "" when not persistent.
  std::string summary() const;
  /// The order's arithmetic in words, e.g. "tm = t / 32, tn = t % 32".
  std::string orderFormula() const;
  /// "(0, 0)" for a tile's coordinates.
  static std::string formatTile(const std::vector<int64_t> &coords);
};

/// A tile order a persistent kernel can be given (the tile-set-tile-order
/// pass, `stagecraft-compile --tile-order`, the board's tile-order control):
/// row-major, column-major or grouped with G >= 1 tile rows per group
/// (grouped 1 is row-major). Plain data, so the app holds it too.
struct TileOrderChoice {
  TileOrder order = TileOrder::RowMajor;
  int64_t groupSize = 0; // grouped only

  /// "row-major", "column-major", "grouped:8" (also "grouped=8"); on a bad
  /// spelling, `error` says what is wrong and what is accepted.
  static bool parse(const std::string &spec, TileOrderChoice &out, std::string &error);
  /// From the pass's two options (order = "row-major" | "column-major" |
  /// "grouped", group = G for grouped).
  static bool fromOptions(const std::string &order, int64_t group, TileOrderChoice &out,
                          std::string &error);
  /// "row-major", "column-major", "grouped:8": what parse() reads back.
  std::string spec() const;
  bool operator==(const TileOrderChoice &o) const {
    return order == o.order && groupSize == o.groupSize;
  }
};

/// Sets `out.order` (and groupSize, note) from the coordinates the tile
/// loop computes for t = 0, 1, ... (`coords[t]`, one entry per dimension of
/// `dims`, the tiles along each dimension). Dimensions with one tile are
/// ignored.
void classifyTileOrder(const std::vector<int64_t> &dims,
                       const std::vector<std::vector<int64_t>> &coords, TileLoop &out);

} // namespace stagecraft

#endif // STAGECRAFT_CORE_SCHEDULE_TILELOOP_H
