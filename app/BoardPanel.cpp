//===- BoardPanel.cpp - the schedule board: stages x warp groups ----------===//
#include "app/BoardPanel.h"
#include "app/Theme.h"

#include <algorithm>
#include <cstdio>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

constexpr float kLabelW = 128, kHeaderH = 28, kNewColW = 76;
constexpr float kCardH = 44, kCardGap = 5, kCellPad = 6, kMinStageW = 116;
// The line across a consumer's sub-row saying what differs for it.
constexpr float kDiffersH = 20;
constexpr double kRefusalSeconds = 8;

ImVec2 add(ImVec2 a, ImVec2 b) { return ImVec2(a.x + b.x, a.y + b.y); }
ImVec2 sub(ImVec2 a, ImVec2 b) { return ImVec2(a.x - b.x, a.y - b.y); }
bool inside(ImVec2 p, ImVec2 mn, ImVec2 mx) {
  return p.x >= mn.x && p.x < mx.x && p.y >= mn.y && p.y < mx.y;
}

bool unitHasViolation(const ScheduleReport &r, const std::string &name) {
  for (const Violation &v : r.violations)
    if (v.def == name || v.use == name)
      return true;
  return false;
}

/// Dashed rectangle outline: the extra drop targets look provisional.
void dashedRect(ImDrawList *dl, ImVec2 mn, ImVec2 mx, ImU32 col) {
  const float dash = 6, gap = 5;
  auto line = [&](ImVec2 a, ImVec2 b) {
    float len = std::max(std::abs(b.x - a.x), std::abs(b.y - a.y));
    for (float t = 0; t < len; t += dash + gap) {
      float e = std::min(t + dash, len);
      ImVec2 p0(a.x + (b.x - a.x) * t / len, a.y + (b.y - a.y) * t / len);
      ImVec2 p1(a.x + (b.x - a.x) * e / len, a.y + (b.y - a.y) * e / len);
      dl->AddLine(p0, p1, col, 1.5f);
    }
  };
  line(mn, ImVec2(mx.x, mn.y));
  line(ImVec2(mx.x, mn.y), mx);
  line(mx, ImVec2(mn.x, mx.y));
  line(ImVec2(mn.x, mx.y), mn);
}

void centeredText(ImDrawList *dl, ImFont *font, ImVec2 mn, ImVec2 mx, ImU32 col,
                  const char *text) {
  ImFont *f = font ? font : ImGui::GetFont();
  float size = f->FontSize;
  ImVec2 ts = f->CalcTextSizeA(size, FLT_MAX, 0, text);
  dl->AddText(f, size,
              ImVec2(mn.x + (mx.x - mn.x - ts.x) * 0.5f,
                     mn.y + (mx.y - mn.y - ts.y) * 0.5f),
              col, text);
}

std::string cardDetail(const LoopGraph &g, const Unit &u, const OpSchedule &s,
                       int64_t sharedBy) {
  char buf[96];
  std::string kind = unitKindName(u.kind);
  if (u.kind == UnitKind::Load && sharedBy > 1)
    std::snprintf(buf, sizeof buf, "%s  %lld KiB tile, 1/%lld each", kind.c_str(),
                  static_cast<long long>(u.bufferBytes / 1024), static_cast<long long>(sharedBy));
  else if (u.kind == UnitKind::Load)
    std::snprintf(buf, sizeof buf, "%s  %lld KiB tile", kind.c_str(),
                  static_cast<long long>(u.bufferBytes / 1024));
  else if (u.kind == UnitKind::Dot)
    std::snprintf(buf, sizeof buf, "%s  %.1f MFLOP%s", kind.c_str(),
                  u.flops / 1e6,
                  s.wait ? ("  wait " + std::to_string(s.wait)).c_str() : "");
  else
    std::snprintf(buf, sizeof buf, "%s  %zu ops", kind.c_str(), u.ops.size());
  (void)g;
  return buf;
}

/// `text` cut to `width` with "..." (at a UTF-8 character's start): a long
/// unit name ran over the order badge and the next cell (the ninth sweep's
/// M10). The full name is in the card's tooltip.
std::string elided(ImFont *font, float size, const std::string &text, float width) {
  auto w = [&](const std::string &t) { return font->CalcTextSizeA(size, FLT_MAX, 0, t.c_str()).x; };
  if (w(text) <= width)
    return text;
  std::string t = text;
  while (!t.empty() && w(t + "...") > width) {
    while (!t.empty() && (static_cast<unsigned char>(t.back()) & 0xC0) == 0x80)
      t.pop_back();
    if (!t.empty())
      t.pop_back();
  }
  return t + "...";
}

/// `sharedBy`: the CTAs of a cluster that share the load (1: its own).
void drawCard(ImDrawList *dl, ImVec2 mn, ImVec2 mx, const LoopGraph &g,
              const Unit &u, const OpSchedule &s, bool selected, bool bad,
              float alpha, int64_t sharedBy = 1) {
  dl->AddRectFilled(mn, mx, unitFill(u.kind, alpha), 6);
  dl->AddRectFilled(mn, ImVec2(mn.x + 5, mx.y), unitAccent(u.kind), 6,
                    ImDrawFlags_RoundCornersLeft);
  if (bad)
    dl->AddRect(mn, mx, colors::bad, 6, 0, 2.5f);
  else if (selected)
    dl->AddRect(mn, mx, colors::selection, 6, 0, 2.0f);
  const Fonts &f = fonts();
  ImFont *bold = f.bold ? f.bold : ImGui::GetFont();
  ImFont *ui = f.ui ? f.ui : ImGui::GetFont();
  ImU32 text = IM_COL32(255, 255, 255, static_cast<int>(255 * alpha));
  ImU32 dim = IM_COL32(230, 232, 240, static_cast<int>(190 * alpha));
  std::string order = "#" + std::to_string(s.order);
  ImVec2 os = ui->CalcTextSizeA(ui->FontSize, FLT_MAX, 0, order.c_str());
  float nameW = (mx.x - os.x - (bad ? 28 : 12)) - (mn.x + 12);
  dl->AddText(bold, bold->FontSize, ImVec2(mn.x + 12, mn.y + 4), text,
              elided(bold, bold->FontSize, u.name, std::max(0.0f, nameW)).c_str());
  dl->AddText(ui, ui->FontSize, ImVec2(mx.x - os.x - 8, mn.y + 5), dim,
              order.c_str());
  std::string detail = cardDetail(g, u, s, sharedBy);
  dl->PushClipRect(mn, mx, true);
  dl->AddText(ui, ui->FontSize * 0.92f, ImVec2(mn.x + 12, mn.y + 24), dim,
              detail.c_str());
  dl->PopClipRect();
  if (bad)
    dl->AddText(bold, bold->FontSize, ImVec2(mx.x - os.x - 24, mn.y + 5),
                colors::bad, "!");
}

} // namespace

const BoardCell *BoardUi::cellAt(ImVec2 p) const {
  for (const BoardCell &c : cells)
    if (inside(p, c.min, c.max))
      return &c;
  return nullptr;
}

const BoardCell *BoardUi::findCell(int64_t stage, int64_t group, int consumer) const {
  for (const BoardCell &c : cells)
    if (c.target.stage == stage && c.target.group == group &&
        (consumer < 0 || c.consumer == consumer))
      return &c;
  return nullptr;
}

ImVec2 BoardUi::cardCenter(const std::string &unit) const {
  auto it = cards.find(unit);
  if (it == cards.end())
    return ImVec2(-1, -1);
  return ImVec2((it->second.first.x + it->second.second.x) * 0.5f,
                (it->second.first.y + it->second.second.y) * 0.5f);
}

ImVec2 BoardUi::cardCenter(const std::string &unit, int consumer) const {
  auto it = subCards.find({unit, consumer});
  if (it == subCards.end())
    return ImVec2(-1, -1);
  return ImVec2((it->second.first.x + it->second.second.x) * 0.5f,
                (it->second.first.y + it->second.second.y) * 0.5f);
}

void stagecraft::app::drawConsumersControl(AppState &app) {
  static const char *const kLabels[] = {"cooperative", "ping-pong", "staggered"};
  static const Consumers kValues[] = {Consumers::Cooperative, Consumers::PingPong,
                                      Consumers::Staggered};
  int current = static_cast<int>(app.editor().consumers());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::Combo("consumers", &current, kLabels, 3))
    app.setConsumers(kValues[current]);
  if (ImGui::IsItemHovered()) {
    // Why an arrangement is refused here, before the user tries it.
    std::string why;
    for (int k = 0; k < 3; ++k)
      if (kValues[k] != app.editor().consumers())
        if (std::string no = app.editor().explainConsumers(kValues[k]); !no.empty())
          why += std::string(why.empty() ? "" : "\n") + kLabels[k] + " is refused here: " + no;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
    ImGui::TextUnformatted("Cooperative: the consumer warp groups split every tile by rows.\n"
                           "Ping-pong: each consumer warp group owns every other tile of the "
                           "tile loop (a persistent kernel) and they take turns at the tensor "
                           "cores, so one group's epilogue overlaps the other's main loop.\n"
                           "Staggered: they split every tile, and take turns issuing the loop's "
                           "dots each iteration, so one group's softmax overlaps the other's "
                           "MMAs (FlashAttention-3).");
    if (!why.empty())
      ImGui::TextColored(toVec4(colors::bad), "%s", why.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  const ScheduleReport &r = app.editor().report();
  if (r.consumers == Consumers::PingPong) {
    ImGui::SameLine();
    ImGui::TextDisabled("each consumer warp group: a whole tile, every other one");
  } else if (r.consumers == Consumers::Staggered) {
    ImGui::SameLine();
    ImGui::TextDisabled("consumer warp groups take turns at the dots each iteration");
  }
}

void stagecraft::app::drawClusterControl(AppState &app, BoardUi &ui) {
  static const char *const kLabels[] = {"1", "2", "4"};
  static const int64_t kValues[] = {1, 2, 4};
  const ScheduleReport &r = app.editor().report();
  ui.clusterItems.clear();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 3.5f);
  std::string preview = std::to_string(r.cluster);
  bool open = ImGui::BeginCombo("cluster", preview.c_str());
  ui.clusterCombo = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
  if (open) {
    for (int k = 0; k < 3; ++k) {
      if (ImGui::Selectable(kLabels[k], kValues[k] == r.cluster))
        app.setCluster(kValues[k]); // refused with the reason in the status line
      ui.clusterItems[kLabels[k]] = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
    }
    ImGui::EndCombo();
  } else if (ImGui::IsItemHovered()) {
    std::string why;
    for (int k = 0; k < 3; ++k)
      if (kValues[k] != r.cluster)
        if (std::string no = app.editor().explainCluster(kValues[k]); !no.empty())
          why += std::string(why.empty() ? "" : "\n") + "a cluster of " + kLabels[k] +
                 " is refused here: " + no;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
    ImGui::TextUnformatted(
        "CTAs per thread-block cluster (tile.cluster). A load whose tile is the same in every "
        "CTA of a cluster (its coordinates do not depend on tile.cluster_rank) is loaded once "
        "for the cluster: each CTA loads its part and multicasts it to all, and a buffer is "
        "free once every CTA's consumers are done with it.");
    if (!why.empty())
      ImGui::TextColored(toVec4(colors::bad), "%s", why.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  if (r.cluster > 1) {
    std::string loads;
    for (const std::string &l : r.sharedLoads)
      loads += (loads.empty() ? "" : ", ") + l;
    ImGui::SameLine();
    ImGui::TextDisabled("%s", loads.empty() ? "no load is the same in every CTA: nothing shared"
                                            : (loads + " loaded once per cluster").c_str());
  }
}

void stagecraft::app::drawTileOrderControl(AppState &app, BoardUi &ui) {
  ui.tileOrderItems.clear();
  ui.tileOrderCombo = ui.tileOrderGroupField = {};
  const TileLoop &tiles = app.tileLoop();
  if (!app.hasIr() || !tiles.persistent)
    return;
  struct Entry {
    const char *label;
    TileOrder order;
    const char *what;
  };
  static const Entry kEntries[] = {
      {"row-major", TileOrder::RowMajor, "the last tile coordinate fastest: along a row of tiles"},
      {"column-major", TileOrder::ColumnMajor,
       "the first tile coordinate fastest: down a column of tiles"},
      {"grouped", TileOrder::Grouped,
       "Triton's grouped order: down a group of G tile rows, then right, so the programs "
       "running at one time share rows of A and columns of B in L2"}};
  if (tiles.order == TileOrder::Grouped)
    ui.groupSize = static_cast<int>(tiles.groupSize);
  std::string preview = tiles.orderName().empty() ? "?" : tiles.orderName();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 11);
  bool open = ImGui::BeginCombo("tile order", preview.c_str());
  ui.tileOrderCombo = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
  if (!open && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
    ImGui::TextUnformatted("The order in which the tile loop hands the programs their output "
                           "tiles (t = pid, pid + programs, ...). Choosing one rewrites the "
                           "IR's tile loop (tile-set-tile-order): an undo step that recompiles.");
    for (const Entry &e : kEntries)
      if (std::string no = app.tileOrderRefusal(e.order); !no.empty())
        ImGui::TextColored(toVec4(colors::bad), "%s is refused here: %s", e.label, no.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  if (open) {
    for (const Entry &e : kEntries) {
      std::string no = app.tileOrderRefusal(e.order);
      bool current = tiles.order == e.order;
      if (ImGui::Selectable(e.label, current,
                            no.empty() ? 0 : ImGuiSelectableFlags_Disabled)) {
        TileOrderChoice c;
        c.order = e.order;
        c.groupSize = e.order == TileOrder::Grouped ? std::max(1, ui.groupSize) : 0;
        app.setTileOrder(c);
      }
      ui.tileOrderItems[e.label] = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        ImGui::TextUnformatted(e.what);
        if (!no.empty())
          ImGui::TextColored(toVec4(colors::bad), "refused here: %s", no.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
    ImGui::EndCombo();
  }
  if (tiles.order == TileOrder::Grouped) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    int g = ui.groupSize;
    if (ImGui::InputInt("G (tile rows per group)", &g, 1, 4,
                        ImGuiInputTextFlags_EnterReturnsTrue)) {
      TileOrderChoice c;
      c.order = TileOrder::Grouped;
      c.groupSize = std::max(1, g);
      ui.groupSize = static_cast<int>(c.groupSize);
      app.setTileOrder(c);
    }
    ui.tileOrderGroupField = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
  }
}

void stagecraft::app::drawBoardPanel(AppState &app, BoardUi &ui) {
  if (!app.hasIr()) {
    ImGui::TextDisabled("Open a loop IR file (File > Open, Ctrl+O).");
    return;
  }
  const ScheduleEditor &ed = app.editor();
  const LoopGraph &g = ed.graph();
  const ScheduleReport &report = ed.report();
  ImGuiIO &io = ImGui::GetIO();
  ImDrawList *dl = ImGui::GetWindowDrawList();
  const Fonts &f = fonts();

  drawConsumersControl(app);
  drawClusterControl(app, ui);
  drawTileOrderControl(app, ui);
  ui.model = buildBoardModel(ed, app.tileLoop());
  const BoardModel &model = ui.model;
  if (!model.tileLoopLine.empty()) {
    ImGui::TextDisabled("%s", model.tileLoopLine.c_str());
    if (ImGui::IsItemHovered() && ui.dragging.empty()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
      ImGui::TextUnformatted(model.tileLoopTooltip.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  int64_t nStages = ed.numStages(), nGroups = ed.numGroups();
  (void)nGroups;
  const size_t nRows = model.rows.size();
  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  float stageW = std::max(
      kMinStageW, (avail.x - kLabelW - 2 * kNewColW) / static_cast<float>(nStages));

  // Row heights: enough for the fullest cell of the row's group (and two
  // cards), plus the line saying what differs in a consumer's sub-row.
  std::vector<float> rowH(nRows), bandH(nRows, 0);
  for (size_t r = 0; r < nRows; ++r) {
    size_t most = 2;
    for (int64_t st = 0; st < nStages; ++st)
      most = std::max(most, ed.cell(st, model.rows[r].group).size());
    if (model.rows[r].consumer >= 0)
      bandH[r] = kDiffersH;
    rowH[r] = bandH[r] + most * (kCardH + kCardGap) - kCardGap + 2 * kCellPad;
  }
  float newRowH = kCardH + 2 * kCellPad;

  // Column x positions: [label][new-before][stage 0..n-1][new-after].
  float xNewBefore = origin.x + kLabelW;
  float xStage0 = xNewBefore + kNewColW;
  float xNewAfter = xStage0 + stageW * nStages;
  float totalW = xNewAfter + kNewColW - origin.x;

  ui.cells.clear();
  ui.cards.clear();
  ui.subCards.clear();
  ui.rowLabels.clear();
  ui.budget.shown = false;

  // Header.
  float y = origin.y;
  ImFont *bold = f.bold ? f.bold : ImGui::GetFont();
  centeredText(dl, f.ui, ImVec2(xNewBefore, y), ImVec2(xStage0, y + kHeaderH),
               colors::textDim, "+ stage 0");
  for (int64_t st = 0; st < nStages; ++st) {
    char label[32];
    std::snprintf(label, sizeof label, "Stage %lld", static_cast<long long>(st));
    centeredText(dl, bold, ImVec2(xStage0 + st * stageW, y),
                 ImVec2(xStage0 + (st + 1) * stageW, y + kHeaderH), colors::text,
                 label);
  }
  centeredText(dl, f.ui, ImVec2(xNewAfter, y), ImVec2(xNewAfter + kNewColW, y + kHeaderH),
               colors::textDim, "+ stage");
  y += kHeaderH;

  // Rows, then the "+ warp group" row (a new group after the last).
  float small = f.ui ? f.ui->FontSize * 0.9f : ImGui::GetFontSize();
  std::string rowTooltip;
  for (size_t r = 0; r <= nRows; ++r) {
    bool newRow = r == nRows;
    const BoardRow *row = newRow ? nullptr : &model.rows[r];
    int64_t gr = newRow ? ed.numGroups() : row->group;
    float h = newRow ? newRowH : rowH[r];
    ImVec2 lmn(origin.x, y), lmx(origin.x + kLabelW - 6, y + h);
    if (newRow) {
      dl->AddText(f.ui, f.ui ? f.ui->FontSize : ImGui::GetFontSize(),
                  ImVec2(lmn.x + 6, lmn.y + 8), colors::textDim, "+ warp group");
    } else {
      dl->AddRectFilled(lmn, lmx, colors::cellBgAlt, 4);
      if (row->bad)
        dl->AddRect(lmn, lmx, colors::bad, 4, 0, 1.5f);
      dl->AddText(bold, bold->FontSize, ImVec2(lmn.x + 8, lmn.y + 6), colors::text,
                  row->title.c_str());
      dl->AddText(f.ui, small, ImVec2(lmn.x + 8, lmn.y + 28), colors::textDim,
                  row->role.c_str());
      for (const GroupRegisters &rg : report.registers)
        if (rg.group == gr) {
          // "*": a chosen budget, not the default share.
          char regs[64];
          std::snprintf(regs, sizeof regs, "%lld / %lld regs%s",
                        static_cast<long long>(rg.regsPerThread),
                        static_cast<long long>(rg.budget), rg.chosen ? "*" : "");
          bool budgetBad = std::any_of(
              report.violations.begin(), report.violations.end(), [&](const Violation &v) {
                return v.rule == Rule::Registers &&
                       std::find(v.groups.begin(), v.groups.end(), gr) != v.groups.end();
              });
          dl->AddText(f.ui, small, ImVec2(lmn.x + 8, lmn.y + 46),
                      budgetBad ? colors::bad : colors::textDim, regs);
        }
      // A right-click on the label: the group's register budget.
      ui.rowLabels.push_back({gr, row->consumer, lmn, lmx});
      ImGui::SetCursorScreenPos(lmn);
      ImGui::PushID("rowlabel");
      ImGui::PushID(static_cast<int>(r));
      ImGui::InvisibleButton("##label", sub(lmx, lmn));
      if (ImGui::BeginPopupContextItem("##registers")) {
        drawRegisterBudgetPopup(app, gr, ui.budget);
        ImGui::EndPopup();
      }
      ImGui::PopID();
      ImGui::PopID();
      if (ui.dragging.empty() && ImGui::IsMouseHoveringRect(lmn, lmx) &&
          ImGui::IsWindowHovered())
        rowTooltip = row->tooltip;
      // What differs for this consumer warp group, across its cells.
      if (!row->differs.empty()) {
        ImVec2 bmn(xNewBefore + 3, y + 2), bmx(xNewAfter + kNewColW - 3, y + bandH[r]);
        dl->PushClipRect(bmn, bmx, true);
        dl->AddText(f.ui, small, ImVec2(bmn.x + 4, bmn.y + 1), colors::textDim,
                    row->differs.c_str());
        dl->PopClipRect();
      }
    }
    float cy = y + (newRow ? 0 : bandH[r]);
    float ch = h - (newRow ? 0 : bandH[r]);
    // Cells: new-before, stages, new-after.
    auto addCell = [&](int64_t stage, float x0, float x1, bool isNew) {
      BoardCell c;
      c.target.stage = stage;
      c.target.group = gr;
      c.min = ImVec2(x0 + 3, cy + 3);
      c.max = ImVec2(x1 - 3, cy + ch - 3);
      c.isNew = isNew || newRow;
      c.consumer = newRow ? -1 : row->consumer;
      ui.cells.push_back(c);
    };
    addCell(-1, xNewBefore, xStage0, true);
    for (int64_t st = 0; st < nStages; ++st)
      addCell(st, xStage0 + st * stageW, xStage0 + (st + 1) * stageW, false);
    addCell(nStages, xNewAfter, xNewAfter + kNewColW, true);
    y += h;
  }
  if (!rowTooltip.empty()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
    ImGui::TextUnformatted(rowTooltip.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  float totalH = y - origin.y;

  // Hover target while dragging.
  ui.hasHover = false;
  if (!ui.dragging.empty()) {
    if (const BoardCell *c = ui.cellAt(io.MousePos)) {
      MoveTarget t = c->target;
      if (!c->isNew) {
        for (unsigned u : ed.cell(t.stage, t.group)) {
          if (g.units[u].name == ui.dragging)
            continue;
          size_t idx = 0;
          for (unsigned v : ed.cell(t.stage, t.group)) {
            if (v == u)
              break;
            ++idx;
          }
          float cy = c->min.y + kCellPad - 3 + idx * (kCardH + kCardGap) + kCardH / 2;
          if (io.MousePos.y < cy) {
            t.beforeUnit = g.units[u].name;
            break;
          }
        }
      }
      bool same = ui.hasHover && ui.hover.stage == t.stage &&
                  ui.hover.group == t.group && ui.hover.beforeUnit == t.beforeUnit;
      ui.hover = t;
      ui.hasHover = true;
      if (!same)
        ui.hoverExplanation = ed.explain(ui.dragging, t);
    }
  }

  // Cell backgrounds.
  for (const BoardCell &c : ui.cells) {
    bool hovered = ui.hasHover && c.target.stage == ui.hover.stage &&
                   c.target.group == ui.hover.group;
    if (c.isNew) {
      if (hovered)
        dl->AddRectFilled(c.min, c.max,
                          ui.hoverExplanation.empty() ? IM_COL32(60, 140, 80, 90)
                                                      : IM_COL32(160, 50, 50, 90),
                          5);
      dashedRect(dl, c.min, c.max,
                 ui.dragging.empty() ? IM_COL32(70, 76, 92, 160) : IM_COL32(130, 140, 165, 220));
      continue;
    }
    ImU32 bg = (c.target.stage % 2) ? colors::cellBgAlt : colors::cellBg;
    dl->AddRectFilled(c.min, c.max, bg, 5);
    if (hovered)
      dl->AddRectFilled(c.min, c.max,
                        ui.hoverExplanation.empty() ? IM_COL32(60, 140, 80, 90)
                                                    : IM_COL32(160, 50, 50, 90),
                        5);
    dl->AddRect(c.min, c.max, colors::grid, 5);
  }

  // Cards.
  ImGui::PushID("board");
  for (const BoardCell &c : ui.cells) {
    if (c.isNew)
      continue;
    std::vector<unsigned> units = ed.cell(c.target.stage, c.target.group);
    // A unit's card is in every consumer sub-row of its group: ids per row.
    ImGui::PushID(c.consumer);
    for (size_t i = 0; i < units.size(); ++i) {
      const Unit &u = g.units[units[i]];
      OpSchedule s = ed.unitSchedule(units[i]);
      ImVec2 mn(c.min.x + kCellPad - 3, c.min.y + kCellPad - 3 + i * (kCardH + kCardGap));
      ImVec2 mx(c.max.x - kCellPad + 3, mn.y + kCardH);
      ui.cards.emplace(u.name, std::make_pair(mn, mx)); // the first row's
      ui.subCards[{u.name, c.consumer}] = {mn, mx};
      bool isDragged = ui.dragging == u.name;
      if (isDragged)
        dashedRect(dl, mn, mx, unitAccent(u.kind)); // where it came from
      else
        drawCard(dl, mn, mx, g, u, s, app.selectedUnit() == u.name,
                 unitHasViolation(report, u.name) || !app.compileErrorOf(u.name).empty(),
                 1.0f,
                 llvm::is_contained(report.sharedLoads, u.name) ? report.cluster : 1);
      ImGui::SetCursorScreenPos(mn);
      ImGui::InvisibleButton(u.name.c_str(), sub(mx, mn));
      if (ImGui::IsItemActivated()) {
        ui.pressed = u.name;
        ui.grabOffset = sub(io.MousePos, mn);
      }
      if (ImGui::IsItemHovered() && ui.dragging.empty() && ui.pressed.empty()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
        ImGui::Text("%s  (%s)", u.name.c_str(), unitKindName(u.kind));
        ImGui::TextDisabled("stage %lld, order %lld, warp group %lld",
                            static_cast<long long>(s.stage),
                            static_cast<long long>(s.order),
                            static_cast<long long>(s.group));
        if (!u.summary.empty())
          ImGui::TextWrapped("%s", u.summary.c_str());
        if (!u.location.empty())
          ImGui::TextDisabled("%s", u.location.c_str());
        if (std::string err = app.compileErrorOf(u.name); !err.empty())
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::bad), "cannot compile: %s",
                             err.c_str());
        ImGui::TextDisabled("drag to another cell; drop between cards to order");
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
      if (u.kind == UnitKind::Dot && ImGui::BeginPopupContextItem()) {
        if (u.registerA)
          // Its A in registers: retired within its kernel iteration whatever
          // the wait; 1 or more holds it under the register math after it.
          ImGui::TextDisabled("%s: A in registers, retired in its iteration; wait 1 or more "
                              "keeps it in flight under the math after it",
                              u.name.c_str());
        else
          ImGui::TextDisabled("%s: wgmma groups left in flight", u.name.c_str());
        for (int w = 0; w <= 2; ++w) {
          char label[32];
          std::snprintf(label, sizeof label, "wait %d", w);
          if (ImGui::MenuItem(label, nullptr, s.wait == w))
            app.setWait(u.name, w);
        }
        ImGui::EndPopup();
      }
    }
    ImGui::PopID();
  }
  ImGui::PopID();

  // Start, follow and end a drag.
  if (!ui.pressed.empty() && ui.dragging.empty() &&
      ImGui::IsMouseDragging(ImGuiMouseButton_Left, 4.0f))
    ui.dragging = ui.pressed;
  if (!ui.dragging.empty()) {
    int u = g.findUnit(ui.dragging);
    if (u >= 0) {
      auto it = ui.cards.find(ui.dragging);
      ImVec2 size = it != ui.cards.end() ? sub(it->second.second, it->second.first)
                                         : ImVec2(stageW - 2 * kCellPad, kCardH);
      ImVec2 mn = sub(io.MousePos, ui.grabOffset);
      ImDrawList *fg = ImGui::GetForegroundDrawList();
      drawCard(fg, mn, add(mn, size), g, g.units[u], ed.unitSchedule(u), true,
               false, 0.85f);
      // The insertion point.
      if (ui.hasHover) {
        const BoardCell *c = ui.cellAt(io.MousePos);
        if (c && !c->isNew) {
          // The card rectangles of the row under the pointer.
          auto rect = [&](const std::string &name) {
            return ui.subCards[{name, c->consumer}];
          };
          float ly = c->max.y - kCellPad;
          if (!ui.hover.beforeUnit.empty())
            ly = rect(ui.hover.beforeUnit).first.y - kCardGap / 2;
          else {
            for (unsigned v : ed.cell(ui.hover.stage, ui.hover.group))
              if (g.units[v].name != ui.dragging)
                ly = rect(g.units[v].name).second.y + kCardGap / 2;
            if (ed.cell(ui.hover.stage, ui.hover.group).empty())
              ly = c->min.y + kCellPad;
          }
          fg->AddLine(ImVec2(c->min.x + 4, ly), ImVec2(c->max.x - 4, ly),
                      ui.hoverExplanation.empty() ? colors::good : colors::bad, 3);
        }
      }
      if (ui.hasHover && !ui.hoverExplanation.empty()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
        ImGui::TextColored(toVec4(colors::bad), "Not allowed here");
        ImGui::TextWrapped("%s", ui.hoverExplanation.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
  }
  if (ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
    if (!ui.dragging.empty()) {
      if (ui.hasHover) {
        MoveOutcome out = app.moveUnit(ui.dragging, ui.hover);
        if (!out.applied) {
          ui.refusal = out.explanation;
          ui.refusalAt = io.MousePos;
          ui.refusalUntil = ImGui::GetTime() + kRefusalSeconds;
        } else {
          ui.refusal.clear();
        }
      }
    } else if (!ui.pressed.empty()) {
      app.select(ui.pressed);
    }
    ui.pressed.clear();
    ui.dragging.clear();
    ui.hasHover = false;
  }

  // The last refusal, where the user dropped the card.
  if (!ui.refusal.empty() && ImGui::GetTime() < ui.refusalUntil) {
    ImGui::SetNextWindowPos(add(ui.refusalAt, ImVec2(14, 14)));
    ImGui::SetNextWindowBgAlpha(0.96f);
    ImGui::PushStyleColor(ImGuiCol_WindowBg, toVec4(IM_COL32(70, 28, 30, 245)));
    ImGui::PushStyleColor(ImGuiCol_Border, toVec4(colors::bad));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 1.5f);
    ImGui::Begin("##refusal", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                     ImGuiWindowFlags_NoNav);
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
    ImGui::TextColored(toVec4(colors::bad), "Move refused");
    ImGui::TextWrapped("%s", ui.refusal.c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::IsWindowHovered() && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
      ui.refusalUntil = 0;
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(2);
  }

  // Reserve the board's area so the panel scrolls when it is larger.
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(totalW, totalH));
}
