//===- Signature.cpp - the kernel's interface, symbolically ---------------===//
#include "passes/Driver/Signature.h"
#include "passes/Driver/export/Emit.h"

#include "core/Dialect/Tile/IR/IndexEval.h"
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;
namespace json = llvm::json;

namespace {

/// An affine expression of the sizes as a JSON tree: {"size": "S"},
/// {"const": 128} or {"op": "add"|"mul"|"floordiv"|"ceildiv"|"mod",
/// "lhs": ..., "rhs": ...}. Symbols are the sizes in signature order.
json::Value exprJson(AffineExpr e, const std::vector<std::string> &sizes) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return json::Object{{"const", c.getValue()}};
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return json::Object{{"size", sizes[s.getPosition()]}};
  auto bin = cast<AffineBinaryOpExpr>(e);
  const char *op = "add";
  switch (e.getKind()) {
  case AffineExprKind::Add: op = "add"; break;
  case AffineExprKind::Mul: op = "mul"; break;
  case AffineExprKind::FloorDiv: op = "floordiv"; break;
  case AffineExprKind::CeilDiv: op = "ceildiv"; break;
  case AffineExprKind::Mod: op = "mod"; break;
  default: break;
  }
  return json::Object{{"op", op},
                      {"lhs", exprJson(bin.getLHS(), sizes)},
                      {"rhs", exprJson(bin.getRHS(), sizes)}};
}

/// The expression as the IR prints it, with size names for the symbols.
std::string exprText(AffineExpr e, const std::vector<std::string> &sizes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  e.print(os);
  // AffineExpr prints symbols as s0, s1, ...: replace them by name (longest
  // index first, so s1 does not eat the front of s10).
  for (int i = int(sizes.size()) - 1; i >= 0; --i) {
    std::string sym = "s" + std::to_string(i);
    for (size_t pos = 0; (pos = text.find(sym, pos)) != std::string::npos;) {
      bool wordStart = pos == 0 || !isalnum(static_cast<unsigned char>(text[pos - 1]));
      size_t end = pos + sym.size();
      bool wordEnd = end >= text.size() || !isdigit(static_cast<unsigned char>(text[end]));
      if (wordStart && wordEnd) {
        text.replace(pos, sym.size(), sizes[i]);
        pos += sizes[i].size();
      } else {
        pos = end;
      }
    }
  }
  return text;
}

/// The SSA name at an argument's location in the source (`%Q` -> "Q"), or "".
std::string nameAt(Location loc, StringRef source) {
  auto flc = dyn_cast<FileLineColLoc>(loc);
  if (!flc || flc.getLine() == 0 || flc.getColumn() == 0)
    return "";
  size_t pos = 0;
  for (unsigned line = 1; line < flc.getLine(); ++line) {
    pos = source.find('\n', pos);
    if (pos == StringRef::npos)
      return "";
    ++pos;
  }
  pos += flc.getColumn() - 1;
  if (pos >= source.size() || source[pos] != '%')
    return "";
  size_t end = pos + 1;
  while (end < source.size() &&
         (isalnum(static_cast<unsigned char>(source[end])) || source[end] == '_' ||
          source[end] == '$' || source[end] == '.' || source[end] == '-'))
    ++end;
  return source.slice(pos + 1, end).str();
}

const char *dtypeName(Type t) { return tile::elementTypeName(t); }

} // namespace

std::string stagecraft::describeSignature(func::FuncOp kernel, StringRef source,
                                          StringRef sourceName, const ScheduleReport &report) {
  // The manifest reports an invalid signature; here it only means "none".
  ScopedDiagnosticHandler quiet(kernel.getContext(), [](Diagnostic &) { return success(); });
  FailureOr<KernelSignature> sig = KernelSignature::get(kernel);
  if (failed(sig))
    return "";

  json::Array sizes;
  for (size_t i = 0; i < sig->sizeNames.size(); ++i) {
    json::Object size{{"name", sig->sizeNames[i]}, {"default", sig->sizeDefaults[i]}};
    // What the compiler checked only at the compiled sizes (a load's
    // innermost coordinate from a loop that starts at K0): other sizes must
    // keep it 16-byte aligned (docs/bundle-format.md).
    int64_t multiple = tile::requiredSizeMultiple(kernel, kernel.getArgument(sig->sizeArgs[i]));
    if (multiple > 1)
      size["multiple_of"] = multiple;
    sizes.push_back(std::move(size));
  }

  json::Array args;
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    BlockArgument arg = kernel.getArgument(i);
    json::Object a{{"index", int64_t(i)}};
    if (auto desc = dyn_cast<DescType>(arg.getType())) {
      bool read = false, written = false;
      for (Operation *user : arg.getUsers()) {
        auto effects = dyn_cast<MemoryEffectOpInterface>(user);
        read |= !effects || effects.hasEffect<MemoryEffects::Read>();
        written |= !effects || effects.hasEffect<MemoryEffects::Write>();
      }
      AffineMap shape;
      Attribute init;
      for (size_t k = 0; k < sig->descArgs.size(); ++k)
        if (sig->descArgs[k] == i) {
          shape = sig->descShapes[k];
          init = sig->descInits[k];
        }
      json::Array exprs, texts, tile;
      for (AffineExpr e : shape.getResults()) {
        exprs.push_back(exprJson(e, sig->sizeNames));
        texts.push_back(exprText(e, sig->sizeNames));
      }
      for (int64_t d : desc.getBoxShape())
        tile.push_back(d);
      a["kind"] = "tensor";
      a["name"] = nameAt(arg.getLoc(), source);
      a["dtype"] = dtypeName(desc.getElementType());
      a["role"] = written && read ? "inout" : written ? "output" : read ? "input" : "unused";
      // Read by index (tensor.extract of a tile loaded from it: a page table,
      // a per-chunk decay): the compiler checked the indices stay inside the
      // tiles at the compiled sizes only (the fifteenth sweep's B1).
      for (Operation *user : arg.getUsers())
        if (auto load = dyn_cast<tile::LoadOp>(user))
          if (llvm::any_of(load->getUsers(), [](Operation *u) { return isa<tensor::ExtractOp>(u); }))
            a["indexed"] = true;
      a["shape"] = std::move(exprs);
      a["shape_text"] = std::move(texts);
      a["tile"] = std::move(tile);
      // The range its elements must lie in (tile.init: a page table's
      // [0, pages)), as text of the sizes: the exported README says it (an
      // export of a table-indexed kernel named no range: the ninth sweep's M6).
      if (auto map = dyn_cast_or_null<AffineMapAttr>(init); map && map.getValue().getNumResults() == 2) {
        a["init_text"] = json::Array{exprText(map.getValue().getResult(0), sig->sizeNames),
                                     exprText(map.getValue().getResult(1), sig->sizeNames)};
        // As expressions too: the exported example draws its inputs there at
        // any sizes (it drew [-1, 1) and zeros: the fifteenth sweep's B2).
        a["init_bounds"] = json::Array{exprJson(map.getValue().getResult(0), sig->sizeNames),
                                       exprJson(map.getValue().getResult(1), sig->sizeNames)};
      }
      else if (auto range = dyn_cast_or_null<DenseF64ArrayAttr>(init); range && range.size() == 2)
        // Shortest text that reads back the same number ([0.001, 0.02),
        // not [0.00, 0.02): the fifteenth sweep's B3).
        a["init_text"] = json::Array{exporter::exactNumber(range[0]), exporter::exactNumber(range[1])};
      if (auto range = dyn_cast_or_null<DenseF64ArrayAttr>(init); range && range.size() == 2)
        a["init_range"] = json::Array{range[0], range[1]};
    } else {
      int s = -1;
      for (size_t k = 0; k < sig->sizeArgs.size(); ++k)
        if (sig->sizeArgs[k] == i)
          s = int(k);
      a["kind"] = "size";
      a["name"] = s >= 0 ? sig->sizeNames[s] : nameAt(arg.getLoc(), source);
    }
    args.push_back(std::move(a));
  }

  json::Array grid, gridText;
  for (AffineExpr e : sig->grid.getResults()) {
    grid.push_back(exprJson(e, sig->sizeNames));
    gridText.push_back(exprText(e, sig->sizeNames));
  }

  json::Object doc{{"format", "stagecraft-signature"},
                   {"version", 1},
                   {"kernel", kernel.getSymName().str()},
                   {"source", sourceName.str()},
                   {"sizes", std::move(sizes)},
                   {"args", std::move(args)},
                   {"grid", std::move(grid)},
                   {"grid_text", std::move(gridText)},
                   {"steady_state", report.steadyState},
                   {"schedule_summary", report.summary()},
                   {"stages", report.numStages},
                   {"smem_bytes_estimate", report.smemBytes}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", json::Value(std::move(doc))) << "\n";
  return text;
}
