//===- TileLoop.cpp - a persistent kernel's tile order, recognized --------===//
#include "core/Schedule/TileLoop.h"

#include <algorithm>

using namespace stagecraft;

namespace {

std::string num(int64_t x) { return std::to_string(x); }

/// Whether f(t) gives coords[t] (the varying dimensions) for every t.
template <typename F>
bool matches(const std::vector<std::vector<int64_t>> &coords, F f) {
  std::vector<int64_t> want;
  for (size_t t = 0; t < coords.size(); ++t) {
    want.assign(coords[t].size(), 0);
    f(static_cast<int64_t>(t), want);
    if (want != coords[t])
      return false;
  }
  return true;
}

} // namespace

void stagecraft::classifyTileOrder(const std::vector<int64_t> &dims,
                                   const std::vector<std::vector<int64_t>> &coords,
                                   TileLoop &out) {
  out.groupSize = 0;
  std::vector<size_t> varying;
  for (size_t d = 0; d < dims.size(); ++d)
    if (dims[d] > 1)
      varying.push_back(d);
  out.tileGrid.clear();
  for (size_t d : varying)
    out.tileGrid.push_back(dims[d]);
  std::vector<std::vector<int64_t>> c;
  for (const std::vector<int64_t> &all : coords) {
    if (all.size() != dims.size()) {
      out.order = TileOrder::Custom;
      out.note = "the tile coordinates have the wrong rank";
      return;
    }
    std::vector<int64_t> v;
    for (size_t d : varying)
      v.push_back(all[d]);
    c.push_back(std::move(v));
  }
  if (c.empty()) {
    out.order = TileOrder::Custom;
    out.note = "the tile loop runs no tiles at the default sizes";
    return;
  }
  const std::vector<int64_t> &D = out.tileGrid;
  size_t n = D.size();
  // Row-major: the last coordinate fastest (one varying dimension: t itself).
  if (matches(c, [&](int64_t t, std::vector<int64_t> &w) {
        for (size_t i = n; i-- > 0;) {
          w[i] = t % D[i];
          t /= D[i];
        }
      })) {
    out.order = TileOrder::RowMajor;
    return;
  }
  if (n >= 2 && matches(c, [&](int64_t t, std::vector<int64_t> &w) {
        for (size_t i = 0; i < n; ++i) {
          w[i] = t % D[i];
          t /= D[i];
        }
      })) {
    out.order = TileOrder::ColumnMajor;
    return;
  }
  // Triton's grouped order over two dimensions: group sizes 2 .. rows - 1
  // (1 is row-major, the whole height column-major).
  if (n == 2)
    for (int64_t G = 2; G < D[0]; ++G)
      if (matches(c, [&](int64_t t, std::vector<int64_t> &w) {
            int64_t inGroup = G * D[1];
            int64_t first = t / inGroup * G;
            int64_t rows = std::min(D[0] - first, G);
            int64_t r = t % inGroup;
            w[0] = first + r % rows;
            w[1] = r / rows;
          })) {
        out.order = TileOrder::Grouped;
        out.groupSize = G;
        return;
      }
  out.order = TileOrder::Custom;
  out.note = "the tile loop's index arithmetic gives neither a row-major, a column-major nor a "
             "grouped order";
}

std::string TileLoop::orderName() const {
  switch (order) {
  case TileOrder::None: return "";
  case TileOrder::RowMajor: return "row-major";
  case TileOrder::ColumnMajor: return "column-major";
  case TileOrder::Grouped: return "grouped (" + num(groupSize) + " tile rows)";
  case TileOrder::Custom: return "custom (as written)";
  }
  return "";
}

std::string TileLoop::orderSpec() const {
  switch (order) {
  case TileOrder::None: return "";
  case TileOrder::RowMajor: return "row-major";
  case TileOrder::ColumnMajor: return "column-major";
  case TileOrder::Grouped: return "grouped:" + num(groupSize);
  case TileOrder::Custom: return "custom";
  }
  return "";
}

std::string TileLoop::orderFormula() const {
  const std::vector<int64_t> &D = tileGrid;
  switch (order) {
  case TileOrder::RowMajor:
    if (D.size() == 1)
      return "tile = t";
    if (D.size() == 2)
      return "tm = t / " + num(D[1]) + ", tn = t % " + num(D[1]);
    return "the last coordinate fastest";
  case TileOrder::ColumnMajor:
    if (D.size() == 2)
      return "tm = t % " + num(D[0]) + ", tn = t / " + num(D[0]);
    return "the first coordinate fastest";
  case TileOrder::Grouped:
    return "group = t / (" + num(groupSize) + " * " + num(D.size() > 1 ? D[1] : 1) +
           "); down the group's " + num(groupSize) + " tile rows, then right";
  default:
    return "";
  }
}

std::string TileLoop::formatTile(const std::vector<int64_t> &coords) {
  std::string s = "(";
  for (size_t i = 0; i < coords.size(); ++i)
    s += (i ? ", " : "") + num(coords[i]);
  return s + ")";
}

std::string TileLoop::summary() const {
  if (!persistent)
    return "";
  std::string s = "persistent: ";
  if (stridedByGrid && programs > 0 && tiles > 0)
    s += "a grid of " + num(programs) + " programs over " + num(tiles) + " tiles";
  else if (tiles > 0)
    s += "a tile loop over " + num(tiles) + " tiles";
  else
    s += "a tile loop";
  if (tileGrid.size() > 1) {
    s += " (";
    for (size_t i = 0; i < tileGrid.size(); ++i)
      s += (i ? " x " : "") + num(tileGrid[i]);
    s += ")";
  }
  if (stridedByGrid)
    s += ", t = pid, pid + " + (programs > 0 ? num(programs) : std::string("N")) + ", ...";
  if (order != TileOrder::None) {
    s += "; tile order " + orderName();
    if (std::string f = orderFormula(); !f.empty())
      s += ": " + f;
  }
  return s;
}

bool TileOrderChoice::fromOptions(const std::string &order, int64_t group, TileOrderChoice &out,
                                  std::string &error) {
  out = TileOrderChoice();
  if (order == "row-major" || order == "column-major") {
    out.order = order == "row-major" ? TileOrder::RowMajor : TileOrder::ColumnMajor;
    return true;
  }
  if (order == "grouped") {
    if (group < 1) {
      error = "a grouped tile order needs a group size G >= 1 (tile rows per group), got " +
              num(group);
      return false;
    }
    out.order = TileOrder::Grouped;
    out.groupSize = group;
    return true;
  }
  if (order.empty()) {
    error = "no tile order given (row-major, column-major or grouped with its group size)";
    return false;
  }
  error = "unknown tile order \"" + order + "\" (known: row-major, column-major, grouped)";
  return false;
}

bool TileOrderChoice::parse(const std::string &spec, TileOrderChoice &out, std::string &error) {
  size_t sep = spec.find_first_of(":=");
  std::string order = spec.substr(0, sep);
  if (order != "grouped") {
    if (sep != std::string::npos) {
      error = "tile order \"" + spec + "\": only grouped takes a group size (grouped:G)";
      return false;
    }
    return fromOptions(order, 0, out, error);
  }
  if (sep == std::string::npos) {
    error = "tile order \"grouped\" needs its group size: grouped:G, e.g. grouped:8";
    return false;
  }
  std::string g = spec.substr(sep + 1);
  int64_t group = 0;
  bool digits = !g.empty() && g.size() <= 9 &&
                g.find_first_not_of("0123456789") == std::string::npos;
  if (digits)
    group = std::stoll(g);
  if (!digits) {
    error = "tile order \"" + spec + "\": the group size must be a whole number >= 1";
    return false;
  }
  return fromOptions(order, group, out, error);
}

std::string TileOrderChoice::spec() const {
  switch (order) {
  case TileOrder::RowMajor: return "row-major";
  case TileOrder::ColumnMajor: return "column-major";
  case TileOrder::Grouped: return "grouped:" + num(groupSize);
  default: return "";
  }
}
