//===- TileOrderText.h - set the tile order in IR text ------------*- C++ -*-===//
//
// The tile-order rewrite (TileOrder.h) on IR text, keeping the file's
// comments and layout: the lines of the old index arithmetic are removed
// and the new ops written where the rewrite puts them (before the tile loop,
// at the start of its body), with the old coordinates' names, so nothing
// else in the text changes. The result is checked: parsed, it must print as
// the rewritten module does; where the text cannot be patched that way (ops
// sharing a line, say) the rewritten module is printed instead, and
// `reprinted` says so. For the app, which holds IR as text; no MLIR in this
// header.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_TILEORDERTEXT_H
#define STAGECRAFT_PASSES_TILEORDERTEXT_H

#include "core/Schedule/TileLoop.h"

#include <string>
#include <vector>

namespace stagecraft {

struct TileOrderTextResult {
  bool ok = false;
  std::string text;
  /// The module was printed anew (its comments and layout are gone).
  bool reprinted = false;
  /// "file:line:col: error: ..." lines when !ok.
  std::vector<std::string> diagnostics;
};

/// `text` (named `sourceName` in diagnostics) with the tile order of its
/// kernel `kernel` (empty: the only kernel) set to `choice`.
TileOrderTextResult setTileOrderInText(const std::string &text, const std::string &sourceName,
                                       const TileOrderChoice &choice,
                                       const std::string &kernel = "");

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_TILEORDERTEXT_H
