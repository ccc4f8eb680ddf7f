//===- TimelinePanelTest.cpp - the timeline panel, driven without a window -===//
//
// Headless ImGui frames (HeadlessImGui.h): the panel draws the predicted
// zones of a compiled kernel, follows schedule edits, shows a measured CTA
// after a (fake) runner returned a trace, and answers the mouse: hover,
// click, wheel, drag. The frame-time test prints the cost of a frame with
// more than 10,000 zones (no assertion on it: speed goals live in the
// benchmark's report, docs/timeline.md).
//
//===----------------------------------------------------------------------===//
#include "app/MainWindow.h"
#include "app/TimelinePanel.h"

#include "HeadlessImGui.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sys/stat.h>

using namespace stagecraft;
using namespace stagecraft::app;

namespace {

struct PanelHarness {
  test::HeadlessImGui imgui;
  AppState app;
  TimelineUi ui;
  explicit PanelHarness(AppConfig config = test::testConfig()) : app(std::move(config)) {}

  void frame(ImVec2 mouse = ImVec2(-1, -1), bool down = false, float wheel = 0) {
    ImGuiIO &io = ImGui::GetIO();
    io.MousePos = mouse;
    io.MouseDown[0] = down;
    io.MouseWheel = wheel;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("timeline", nullptr, ImGuiWindowFlags_NoDecoration);
    drawTimelinePanel(app, ui);
    ImGui::End();
    ImGui::Render();
    app.poll();
  }
  /// The middle of the first zone of `unit` on a warp-group lane that is at
  /// least `minPx` wide in the view.
  ImVec2 zoneCenter(const std::string &unit, float minPx = 6) {
    const TimelineModel &m = ui.model;
    for (size_t l = 0; l < m.lanes().size(); ++l) {
      if (m.lanes()[l].pipe)
        continue;
      const timeline::Timeline &t = m.source(m.lanes()[l].source);
      for (size_t i = m.lanes()[l].begin; i < m.lanes()[l].end; ++i) {
        const timeline::Zone &z = t.zones[i];
        if (t.units[z.unit].name == unit && z.start >= m.viewStart() && z.end <= m.viewEnd() &&
            ui.xOf(z.end) - ui.xOf(z.start) >= minPx)
          return ImVec2((ui.xOf(z.start) + ui.xOf(z.end)) / 2, ui.yOfLane(l));
      }
    }
    return ImVec2(-1, -1);
  }
};

TEST(TimelinePanel, DrawsThePredictedZonesOfACompiledKernel) {
  PanelHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  ASSERT_TRUE(test::pollUntil(h.app, [&] { return h.app.compileView().state == CompileView::State::Ok; }));
  h.frame();
  const timeline::Prediction &p = h.app.prediction();
  ASSERT_TRUE(p.ok) << p.error;
  // Rows: the producer, two consumers, then the TMA and wgmma pipes.
  ASSERT_GE(h.ui.model.lanes().size(), 4u);
  EXPECT_EQ(h.ui.model.lanes()[0].label, "producer");
  EXPECT_EQ(h.ui.model.lanes()[1].label, "consumer 0");
  EXPECT_EQ(h.ui.model.lanes()[2].label, "consumer 1");
  EXPECT_FALSE(h.ui.model.lanes()[0].measured);
  // It opens on a few steady-state iterations, and draws their zones.
  EXPECT_GT(h.ui.model.viewStart(), 0);
  EXPECT_GT(h.ui.rectsDrawn, 20u);
  EXPECT_GE(h.ui.zonesDrawn, h.ui.rectsDrawn);
  EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 500);
  // Every unit of the loop has zones on the consumers or the producer.
  for (const char *unit : {"loadK", "loadV", "MMA0", "Softmax", "MUL", "MMA1"})
    EXPECT_GT(h.zoneCenter(unit, 1).x, 0) << unit;
}

TEST(TimelinePanel, DrawsTheEpilogueAfterTheLoop) {
  // Opened on the loop's last iteration and the one after it (the epilogue's,
  // --timeline-iterations): each consumer's epilogue is drawn, and its
  // tooltip places it after the last iteration.
  PanelHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  ASSERT_TRUE(test::pollUntil(h.app, [&] { return h.app.compileView().state == CompileView::State::Ok; }));
  const timeline::Prediction &p = h.app.prediction();
  ASSERT_TRUE(p.ok) << p.error;
  int trip = static_cast<int>(p.shownTrip);
  h.ui.focusFirst = trip - 1;
  h.ui.focusLast = trip;
  h.frame();
  ImVec2 epilogue = h.zoneCenter("epilogue");
  ASSERT_GT(epilogue.x, 0);
  h.frame(epilogue);
  h.frame(epilogue);
  EXPECT_NE(h.ui.hovered.find("epilogue, after iteration " + std::to_string(trip - 1)),
            std::string::npos)
      << h.ui.hovered;
  EXPECT_NE(h.ui.hovered.find("predicted: consumer"), std::string::npos) << h.ui.hovered;
}

TEST(TimelinePanel, HoverTellsAndClickSelectsAndTheSelectionStandsOut) {
  PanelHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  h.frame();
  ImVec2 softmax = h.zoneCenter("Softmax");
  ASSERT_GT(softmax.x, 0);
  h.frame(softmax);
  h.frame(softmax);
  EXPECT_NE(h.ui.hovered.find("Softmax, iteration "), std::string::npos) << h.ui.hovered;
  EXPECT_NE(h.ui.hovered.find("predicted: consumer"), std::string::npos) << h.ui.hovered;
  EXPECT_NE(h.ui.hovered.find("duration"), std::string::npos);
  h.frame(softmax, true);
  h.frame(softmax, false);
  EXPECT_EQ(h.app.selectedUnit(), "Softmax");
  std::vector<ZoneRect> rects;
  h.ui.model.layout(1, h.ui.lanesX1 - h.ui.lanesX0, h.app.selectedUnit(), rects);
  int highlighted = 0;
  for (const ZoneRect &r : rects)
    highlighted += r.highlighted;
  EXPECT_GT(highlighted, 0);
}

TEST(TimelinePanel, WheelZoomsAndDragPansAndDoubleClickFits) {
  PanelHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("gemm.mlir")));
  h.frame();
  double width = h.ui.model.viewEnd() - h.ui.model.viewStart();
  ImVec2 mid((h.ui.lanesX0 + h.ui.lanesX1) / 2, h.ui.yOfLane(1));
  double at = h.ui.model.xToNs(mid.x - h.ui.lanesX0, h.ui.lanesX1 - h.ui.lanesX0);
  h.frame(mid, false, 2.0f); // two notches in
  double zoomed = h.ui.model.viewEnd() - h.ui.model.viewStart();
  EXPECT_NEAR(zoomed, width / (1.25 * 1.25), width * 1e-6);
  EXPECT_NEAR(h.ui.model.xToNs(mid.x - h.ui.lanesX0, h.ui.lanesX1 - h.ui.lanesX0), at, width * 1e-6);
  // Drag 100 pixels to the left: later times come into view.
  double before = h.ui.model.viewStart();
  h.frame(mid, false);
  h.frame(mid, true);
  for (int i = 1; i <= 5; ++i)
    h.frame(ImVec2(mid.x - 20 * i, mid.y), true);
  h.frame(ImVec2(mid.x - 100, mid.y), false);
  double px = (h.ui.model.viewEnd() - h.ui.model.viewStart()) / (h.ui.lanesX1 - h.ui.lanesX0);
  EXPECT_NEAR(h.ui.model.viewStart() - before, 100 * px, 5 * px);
  EXPECT_EQ(h.app.selectedUnit(), "") << "a drag is not a click";
  // Double click: the whole CTA.
  ImGui::GetIO().MouseDoubleClickTime = 1.0f;
  h.frame(mid, true);
  h.frame(mid, false);
  h.frame(mid, true);
  h.frame(mid, false);
  EXPECT_DOUBLE_EQ(h.ui.model.viewStart(), 0);
}

TEST(TimelinePanel, FollowsScheduleEdits) {
  PanelHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("gemm.mlir")));
  h.frame();
  double before = h.app.prediction().iterationNs;
  uint64_t version = h.app.predictionVersion();
  // Unpipelined: both loads in the MMA's cell, before it: the MMA waits for
  // every load.
  for (const char *load : {"loadA", "loadB"}) {
    int64_t stage = h.app.editor().unitSchedule(h.app.editor().graph().findUnit("MMA")).stage;
    MoveOutcome moved = h.app.moveUnit(load, {stage, 1, "MMA"});
    ASSERT_TRUE(moved.applied) << moved.explanation;
  }
  EXPECT_EQ(h.app.editor().report().numStages, 1);
  EXPECT_GT(h.app.predictionVersion(), version);
  h.frame();
  EXPECT_EQ(h.ui.predictionVersion, h.app.predictionVersion());
  EXPECT_GT(h.app.prediction().iterationNs, before * 1.5);
  EXPECT_EQ(h.app.prediction().bound, "latency");
  EXPECT_TRUE(h.app.undo());
  EXPECT_TRUE(h.app.undo());
  EXPECT_NEAR(h.app.prediction().iterationNs, before, before * 1e-9);
}

TEST(TimelinePanel, ShowsTheMeasuredTimelineOfARun) {
  // A runner that answers a trace request with two CTAs' events in the
  // protocol's form (docs/runner-protocol.md).
  std::string dir = test::tempDir("timeline-runner");
  std::string runner = dir + "/runner.sh";
  std::ofstream(runner) << R"(#!/bin/sh
while read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
  *'"trace":true'*)
    echo "{\"id\":$id,\"status\":\"ok\",\"verified\":true,\"tflops\":550.0,\"device\":{\"name\":\"Fake H100\"},\"trace\":{\"overhead\":0.021,\"plain_median_us\":100,\"instrumented_median_us\":102.1,\"idle_median_us\":101.5,\"code_overhead\":0.015,\"recording_overhead\":0.0059,\"reps\":10,\"clock\":\"globaltimer\",\"warp_groups\":[{\"id\":0,\"role\":\"producer\",\"name\":\"producer\"},{\"id\":1,\"role\":\"consumer\",\"name\":\"consumer 0\"},{\"id\":2,\"role\":\"consumer\",\"name\":\"consumer 1\"}],\"units\":[{\"id\":0,\"name\":\"loadK\",\"group\":0},{\"id\":1,\"name\":\"MMA0\",\"group\":1},{\"id\":2,\"name\":\"Softmax\",\"group\":1}],\"ctas\":[{\"cta\":0,\"sm\":4,\"events\":[[0,0,0,1000,200],[1,1,0,1500,600],[1,2,0,2100,900],[2,1,0,1500,650],[2,2,0,2150,880]]},{\"cta\":7,\"sm\":11,\"events\":[[0,0,0,0,300],[1,1,0,800,500]]}],\"warnings\":[]}}"
    ;;
  *) echo "{\"id\":$id,\"status\":\"ok\",\"verified\":false,\"device\":{\"name\":\"Fake H100\"}}" ;;
  esac
done
)";
  chmod(runner.c_str(), 0755);
  PanelHarness h(test::testConfig(runner));
  ASSERT_TRUE(h.app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  ASSERT_TRUE(test::pollUntil(h.app, [&] { return h.app.tracedRun() != nullptr; }));
  const RunRecord *run = h.app.tracedRun();
  const MeasuredTrace *trace = h.app.measuredTrace(run->id);
  ASSERT_NE(trace, nullptr);
  EXPECT_NEAR(trace->overhead, 0.021, 1e-12);
  EXPECT_DOUBLE_EQ(trace->idleMedianUs, 101.5); // the instrumented kernel recording nothing
  ASSERT_EQ(trace->ctas.size(), 2u);
  EXPECT_EQ(trace->ctas[0].timeline.title, "CTA 0 (SM 4)");
  // Times start at the CTA's first event; units take the board's kinds.
  EXPECT_DOUBLE_EQ(trace->ctas[0].timeline.zones.front().start, 0);
  EXPECT_EQ(trace->ctas[0].timeline.units[1].kind, timeline::ZoneKind::Dot);
  h.frame();
  // Predicted lanes first, then the measured CTA's warp groups.
  size_t measured = 0;
  for (const TimelineLane &l : h.ui.model.lanes())
    measured += l.measured;
  EXPECT_EQ(measured, 3u);
  EXPECT_FALSE(h.ui.model.lanes().front().measured);
  EXPECT_TRUE(h.ui.model.lanes().back().measured);
  // The other sampled CTA can be shown instead.
  h.ui.traceCta = 1;
  h.frame();
  EXPECT_EQ(h.ui.model.source(1).title, "CTA 7 (SM 11)");
  EXPECT_EQ(h.ui.model.source(1).zones.size(), 2u);
}

TEST(TimelinePanel, DrawsTheMeasuredZonesOfATraceFile) {
  // An H100 trace of the GEMM (stagecraft-run --trace, trimmed to 12
  // iterations), opened for the schedule it was measured with.
  PanelHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("gemm.mlir")));
  h.frame();
  size_t predictedLanes = h.ui.model.lanes().size();
  ASSERT_TRUE(h.app.openMeasuredTrace(std::string(STAGECRAFT_TEST_INPUTS_DIR) +
                                      "/traces/gemm-ws-h100-with-schedule.trace.json"))
      << h.app.status().text;
  h.frame();
  // The measured warp groups under the predicted lanes.
  ASSERT_EQ(h.ui.model.lanes().size(), predictedLanes + 3);
  std::vector<size_t> measuredLanes;
  for (size_t l = 0; l < h.ui.model.lanes().size(); ++l)
    if (h.ui.model.lanes()[l].measured)
      measuredLanes.push_back(l);
  ASSERT_EQ(measuredLanes, (std::vector<size_t>{predictedLanes, predictedLanes + 1, predictedLanes + 2}));
  EXPECT_EQ(h.ui.model.lanes()[measuredLanes[0]].label, "producer");
  EXPECT_EQ(h.ui.model.source(1).title, "CTA 0 (SM 124)");
  for (size_t l : measuredLanes)
    EXPECT_GT(h.ui.yOfLane(l), h.ui.yOfLane(predictedLanes - 1));
  // Where the trimmed trace has its iterations: the measured lanes draw
  // their zones, with the iterations the file says.
  h.ui.model.focusIterations(3, 6);
  h.frame();
  size_t all = h.ui.zonesDrawn;
  std::vector<ZoneRect> rects;
  size_t measuredZones = 0;
  for (size_t l : measuredLanes) {
    h.ui.model.layout(l, h.ui.lanesX1 - h.ui.lanesX0, "", rects);
    for (const ZoneRect &r : rects)
      measuredZones += r.count;
  }
  EXPECT_GT(measuredZones, 8u);
  EXPECT_GE(all, measuredZones);
  // Hovering one tells it is measured, its unit and iteration.
  const timeline::Timeline &m = h.ui.model.source(1);
  const timeline::Zone *mma = nullptr;
  for (size_t i = h.ui.model.lanes()[measuredLanes[1]].begin; i < h.ui.model.lanes()[measuredLanes[1]].end; ++i)
    if (m.units[m.zones[i].unit].name == "MMA" && m.zones[i].start >= h.ui.model.viewStart() &&
        m.zones[i].end <= h.ui.model.viewEnd() && h.ui.xOf(m.zones[i].end) - h.ui.xOf(m.zones[i].start) > 6) {
      mma = &m.zones[i];
      break;
    }
  ASSERT_NE(mma, nullptr);
  ImVec2 at((h.ui.xOf(mma->start) + h.ui.xOf(mma->end)) / 2, h.ui.yOfLane(measuredLanes[1]));
  h.frame(at);
  h.frame(at);
  EXPECT_NE(h.ui.hovered.find("MMA, iteration " + std::to_string(mma->iteration)), std::string::npos)
      << h.ui.hovered;
  EXPECT_NE(h.ui.hovered.find("measured: consumer 0"), std::string::npos) << h.ui.hovered;
  // and how long the model has the same unit, iteration and warp group.
  const TimelineLane &mmaLane = h.ui.model.lanes()[measuredLanes[1]];
  const TimelineLane *predictedLane = nullptr;
  const timeline::Zone *predictedMma = h.ui.model.counterpart(mmaLane, *mma, &predictedLane);
  ASSERT_NE(predictedMma, nullptr);
  EXPECT_NE(h.ui.hovered.find("to the next unit: predicted " +
                              formatNs(h.ui.model.spanToNext(*predictedLane, *predictedMma)) +
                              ", measured " + formatNs(h.ui.model.spanToNext(mmaLane, *mma))),
            std::string::npos)
      << h.ui.hovered;
  // An edit of the schedule hides it (it is not that schedule's), undo shows it.
  ASSERT_TRUE(h.app.setWait("MMA", 0).applied);
  h.frame();
  EXPECT_EQ(h.ui.model.lanes().size(), predictedLanes);
  ASSERT_TRUE(h.app.undo());
  h.frame();
  EXPECT_EQ(h.ui.model.lanes().size(), predictedLanes + 3);
}

TEST(TimelinePanel, FrameTimeWithMoreThanTenThousandZones) {
  PanelHarness h;
  ASSERT_TRUE(h.app.openFile(test::assetPath("attention_fwd_d128.mlir")));
  // A synthetic timeline: 8 lanes of 1600 zones (12,800), like a long
  // predicted CTA, plus a measured CTA of 3 lanes x 1000.
  auto synthetic = [](int lanes, int perLane, const char *prefix) {
    timeline::Timeline t;
    t.units = {{"loadK", timeline::ZoneKind::Load}, {"MMA0", timeline::ZoneKind::Dot},
               {"Softmax", timeline::ZoneKind::Compute}};
    for (int l = 0; l < lanes; ++l)
      t.rows.push_back({std::string(prefix) + std::to_string(l), timeline::RowKind::Consumer, 1, l});
    for (int l = 0; l < lanes; ++l)
      for (int i = 0; i < perLane; ++i) {
        timeline::Zone z;
        z.row = static_cast<uint16_t>(l);
        z.unit = static_cast<uint16_t>(i % 3);
        z.iteration = i / 3;
        z.start = 100.0 * i + 7 * l;
        z.end = z.start + 60 + (i % 5) * 5;
        t.zones.push_back(z);
      }
    return t;
  };
  h.ui.follow = false;
  h.ui.model.set(synthetic(8, 1600, "lane "), synthetic(3, 1000, "measured "), false);
  ASSERT_GT(h.ui.model.zoneCount(), 10000u);
  auto measure = [&](const char *what) {
    const int frames = 60;
    h.frame(ImVec2((h.ui.lanesX0 + h.ui.lanesX1) / 2, h.ui.yOfLane(2)));
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < frames; ++i)
      h.frame(ImVec2((h.ui.lanesX0 + h.ui.lanesX1) / 2, h.ui.yOfLane(2)));
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
                frames;
    std::printf("[ frame time ] %zu zones, %s: %.3f ms per frame (%zu rectangles for %zu zones)\n",
                h.ui.model.zoneCount(), what, ms, h.ui.rectsDrawn, h.ui.zonesDrawn);
    return ms;
  };
  h.ui.model.fit();
  measure("all in view (merged)");
  EXPECT_LT(h.ui.rectsDrawn, h.ui.zonesDrawn); // narrow zones were merged
  h.ui.model.setView(40000, 60000);
  measure("a 20 us window");
  h.ui.model.setView(50000, 51000);
  measure("a 1 us window (labels)");
}

} // namespace
