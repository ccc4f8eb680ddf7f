//===- TileOrderText.cpp - set the tile order in IR text ------------------===//
#include "passes/TileOrderText.h"
#include "passes/Passes.h"
#include "passes/TileOrderPlan.h"

#include "core/Schedule/ScheduleIR.h"
#include "core/Support/InputCheck.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tileorder;

namespace {

/// Parses `text` as a module (an implicit one when the ops are bare).
OwningOpRef<ModuleOp> parseModule(llvm::SourceMgr &sm, MLIRContext &ctx,
                                  AsmParserState *state) {
  Block block;
  ParserConfig config(&ctx);
  if (failed(parseAsmSourceFile(sm, &block, config, state)))
    return nullptr;
  if (llvm::hasSingleElement(block))
    if (auto m = dyn_cast<ModuleOp>(block.front())) {
      m->remove();
      return m;
    }
  auto fileLoc = FileLineColLoc::get(
      &ctx, sm.getMemoryBuffer(sm.getMainFileID())->getBufferIdentifier(), 1, 1);
  OwningOpRef<ModuleOp> m = ModuleOp::create(fileLoc);
  m->getBody()->getOperations().splice(m->getBody()->begin(), block.getOperations());
  return m;
}

std::string print(ModuleOp m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  m->print(os);
  return s;
}

/// Text edits of the source: whole lines removed, lines inserted.
class TextPatch {
public:
  TextPatch(const std::string &text, const AsmParserState &state, const char *base)
      : text(text), state(state), base(base) {}

  /// The offset of the op's first character (its results' names).
  std::optional<size_t> opStart(Operation *op) const {
    const AsmParserState::OperationDefinition *def = state.getOpDef(op);
    if (!def)
      return std::nullopt;
    const char *p = def->resultGroups.empty() ? def->scopeLoc.Start.getPointer()
                                              : def->resultGroups.front().definition.loc.Start.getPointer();
    return p - base;
  }
  std::optional<size_t> opEnd(Operation *op) const {
    const AsmParserState::OperationDefinition *def = state.getOpDef(op);
    if (!def)
      return std::nullopt;
    return def->scopeLoc.End.getPointer() - base;
  }
  /// The start of the line `at` is on, when only blanks precede it there.
  std::optional<size_t> lineStartBefore(size_t at) const {
    size_t start = text.rfind('\n', at == 0 ? 0 : at - 1);
    start = start == std::string::npos || at == 0 ? 0 : start + 1;
    if (text.find_first_not_of(" \t", start) < at)
      return std::nullopt;
    return start;
  }
  /// The op's text as whole lines (a trailing comment goes with it).
  bool removeLinesOf(Operation *op) {
    std::optional<size_t> s = opStart(op), e = opEnd(op);
    if (!s || !e)
      return false;
    std::optional<size_t> from = lineStartBefore(*s);
    size_t to = text.find_first_not_of(" \t", *e);
    if (to != std::string::npos && text.compare(to, 2, "//") == 0)
      to = text.find('\n', to);
    if (!from || (to != std::string::npos && text[to] != '\n'))
      return false;
    removals.push_back({*from, to == std::string::npos ? text.size() : to + 1});
    return true;
  }
  /// Lines inserted before the line `anchor` starts on, indented as it.
  bool insertBefore(Operation *anchor, const std::vector<std::string> &lines) {
    std::optional<size_t> s = opStart(anchor);
    std::optional<size_t> line = s ? lineStartBefore(*s) : std::nullopt;
    if (!line)
      return false;
    std::string indent = text.substr(*line, *s - *line), block;
    for (const std::string &l : lines)
      block += indent + l + "\n";
    insertions.push_back({*line, block});
    return true;
  }
  std::optional<std::string> result() const {
    std::vector<std::pair<size_t, size_t>> r = removals;
    std::sort(r.begin(), r.end());
    for (size_t i = 1; i < r.size(); ++i)
      if (r[i].first < r[i - 1].second)
        return std::nullopt; // two ops on one line
    std::vector<std::pair<size_t, std::string>> ins = insertions;
    std::stable_sort(ins.begin(), ins.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    std::string out;
    size_t at = 0, ri = 0, ii = 0;
    while (at <= text.size()) {
      while (ii < ins.size() && ins[ii].first == at)
        out += ins[ii++].second;
      if (ri < r.size() && r[ri].first == at) {
        // An insertion inside a removed range would be lost.
        if (ii < ins.size() && ins[ii].first < r[ri].second)
          return std::nullopt;
        at = r[ri++].second;
        continue;
      }
      if (at == text.size())
        break;
      size_t next = text.size();
      if (ri < r.size())
        next = std::min(next, r[ri].first);
      if (ii < ins.size())
        next = std::min(next, ins[ii].first);
      out.append(text, at, next - at);
      at = next;
    }
    return out;
  }

private:
  const std::string &text;
  const AsmParserState &state;
  const char *base;
  std::vector<std::pair<size_t, size_t>> removals;
  std::vector<std::pair<size_t, std::string>> insertions;
};

/// The names of values as the source spells them.
class SourceNames {
public:
  SourceNames(const std::string &text, const AsmParserState &state) : text(text), state(state) {
    // Every SSA-like token of the file, so a new name clashes with none.
    static const std::regex id("%[A-Za-z0-9_$.\\-]+");
    for (std::sregex_iterator it(text.begin(), text.end(), id), end; it != end; ++it)
      taken.insert(it->str());
  }
  std::optional<std::string> of(Value v) const {
    llvm::SMRange loc;
    if (auto r = dyn_cast<OpResult>(v)) {
      const AsmParserState::OperationDefinition *def = state.getOpDef(r.getOwner());
      if (!def || def->resultGroups.empty())
        return std::nullopt;
      unsigned k = 0;
      while (k + 1 < def->resultGroups.size() &&
             def->resultGroups[k + 1].startIndex <= r.getResultNumber())
        ++k;
      const auto &group = def->resultGroups[k];
      unsigned groupEnd = k + 1 < def->resultGroups.size() ? def->resultGroups[k + 1].startIndex
                                                          : r.getOwner()->getNumResults();
      std::string name = spelled(group.definition.loc);
      if (groupEnd - group.startIndex > 1)
        name += "#" + std::to_string(r.getResultNumber() - group.startIndex);
      return name;
    }
    auto a = cast<BlockArgument>(v);
    const AsmParserState::BlockDefinition *def = state.getBlockDef(a.getOwner());
    if (!def || a.getArgNumber() >= def->arguments.size())
      return std::nullopt;
    return spelled(def->arguments[a.getArgNumber()].loc);
  }
  std::string fresh(const std::string &hint) {
    std::string name = "%" + hint;
    for (int k = 2; taken.count(name); ++k)
      name = "%" + hint + "_" + std::to_string(k);
    taken.insert(name);
    return name;
  }

private:
  std::string spelled(llvm::SMRange r) const {
    std::string s(r.Start.getPointer(), r.End.getPointer());
    // A result group is spelled "%x:2"; its first value is "%x#0".
    return s.substr(0, s.find(':'));
  }
  const std::string &text;
  const AsmParserState &state;
  std::set<std::string> taken;
};

} // namespace

TileOrderTextResult stagecraft::setTileOrderInText(const std::string &text,
                                                   const std::string &sourceName,
                                                   const TileOrderChoice &choice,
                                                   const std::string &kernelName) {
  TileOrderTextResult res;
  std::string problem = checkInputText(text, sourceName);
  if (!problem.empty()) {
    res.diagnostics.push_back(problem);
    return res;
  }
  DialectRegistry registry;
  tile::registerStagecraftDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    res.diagnostics.push_back(formatDiagnostic(d));
    for (Diagnostic &note : d.getNotes())
      res.diagnostics.push_back(formatDiagnostic(note));
    return success();
  });
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, sourceName), llvm::SMLoc());
  AsmParserState state;
  OwningOpRef<ModuleOp> module = parseModule(sm, ctx, &state);
  if (!module)
    return res;
  FailureOr<func::FuncOp> kernel = selectKernel(*module, kernelName);
  if (failed(kernel))
    return res;
  FailureOr<Plan> plan = tileorder::plan(*kernel, choice);
  if (failed(plan))
    return res;

  // The new ops' text, with the old coordinates' names for the new ones.
  const char *base = sm.getMemoryBuffer(sm.getMainFileID())->getBufferStart();
  TextPatch patch(text, state, base);
  SourceNames names(text, state);
  bool patchable = true;
  std::vector<std::string> opNames(plan->ops.size()), beforeLines, bodyLines;
  for (size_t i = 0; i < plan->ops.size() && patchable; ++i) {
    const PlanOp &p = plan->ops[i];
    if (p.coordinate >= 0) {
      std::optional<std::string> old = names.of(plan->oldCoords[p.coordinate]);
      patchable = old && old->find('#') == std::string::npos;
      opNames[i] = old.value_or("");
    } else {
      opNames[i] = names.fresh(p.name);
    }
    std::string line = opNames[i] + " = " + mnemonic(p.kind) + " ";
    if (p.kind == PlanOp::Constant)
      line += std::to_string(p.value);
    for (size_t k = 0; k < p.operands.size(); ++k) {
      const PlanOperand &o = p.operands[k];
      std::optional<std::string> n =
          o.existing ? names.of(o.existing) : std::optional<std::string>(opNames[o.newOp]);
      patchable &= n.has_value();
      line += (k ? ", " : "") + n.value_or("");
    }
    (p.beforeLoop ? beforeLines : bodyLines).push_back(line + " : index");
  }
  scf::ForOp tl = plan->tileLoop;
  Operation *firstInBody = &tl.getBody()->front();
  std::optional<size_t> loopStart = patch.opStart(tl), bodyStart = patch.opStart(firstInBody);
  // The body's ops must start on a line after the loop's own.
  patchable &= loopStart && bodyStart &&
               text.find('\n', *loopStart) < *bodyStart;
  if (patchable && !beforeLines.empty())
    patchable = patch.insertBefore(tl, beforeLines);
  if (patchable && !bodyLines.empty())
    patchable = patch.insertBefore(firstInBody, bodyLines);
  tileorder::apply(*plan, [&](Operation *op) {
    if (patchable)
      patchable = patch.removeLinesOf(op);
  });
  std::string rewritten = print(*module);

  if (patchable)
    if (std::optional<std::string> patched = patch.result()) {
      // The patch must be the rewrite: parsed, it prints the same.
      llvm::SourceMgr sm2;
      sm2.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(*patched, sourceName),
                             llvm::SMLoc());
      size_t before = res.diagnostics.size();
      OwningOpRef<ModuleOp> check = parseModule(sm2, ctx, nullptr);
      res.diagnostics.resize(before);
      if (check && print(*check) == rewritten) {
        res.ok = true;
        res.text = std::move(*patched);
        return res;
      }
    }
  res.ok = true;
  res.reprinted = true;
  res.text = std::move(rewritten);
  return res;
}
