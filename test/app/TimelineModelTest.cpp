//===- TimelineModelTest.cpp - lanes, culling, merging, zoom, hit tests ---===//
#include "app/TimelineModel.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::app;
using namespace stagecraft::timeline;

namespace {

/// Two rows: "a" with `n` 10-ns zones every 20 ns (units alternating load,
/// dot), and "b" with one long zone.
Timeline twoRows(int n) {
  Timeline t;
  t.units = {{"load", ZoneKind::Load}, {"dot", ZoneKind::Dot}};
  t.rows = {{"a", RowKind::Consumer, 1, 0}, {"b", RowKind::Consumer, 1, 1}};
  for (int i = 0; i < n; ++i) {
    Zone z;
    z.row = 0;
    z.unit = static_cast<uint16_t>(i % 2);
    z.iteration = i / 2;
    z.start = 20.0 * i;
    z.end = z.start + 10;
    t.zones.push_back(z);
  }
  Zone longZone;
  longZone.row = 1;
  longZone.unit = 1;
  longZone.start = 0;
  longZone.end = 20.0 * n;
  t.zones.push_back(longZone);
  return t;
}

TEST(TimelineModel, LanesPredictedThenMeasured) {
  TimelineModel m;
  Timeline measured = twoRows(4);
  measured.rows[0].name = "producer";
  m.set(twoRows(10), measured, false);
  ASSERT_EQ(m.lanes().size(), 4u);
  EXPECT_FALSE(m.lanes()[0].measured);
  EXPECT_TRUE(m.lanes()[2].measured);
  EXPECT_EQ(m.lanes()[2].label, "producer");
  EXPECT_EQ(m.lanes()[0].end - m.lanes()[0].begin, 10u);
  EXPECT_EQ(m.lanes()[1].end - m.lanes()[1].begin, 1u);
  EXPECT_DOUBLE_EQ(m.lanes()[1].longestNs, 200);
  EXPECT_EQ(m.zoneCount(), 11u + 5u);
  EXPECT_EQ(m.lastIteration(), 4);
  EXPECT_DOUBLE_EQ(m.viewStart(), 0); // fitted
  EXPECT_GE(m.viewEnd(), 200);
}

TEST(TimelineModel, AZonesCounterpartIsTheSameUnitIterationAndWarpGroup) {
  // Predicted: row "a" loads and dots every 20 ns; measured: the same rows,
  // every zone 30 ns apart (iteration i's dot at 60 i + 30), units listed the
  // other way round (the ids differ, the names match).
  Timeline predicted = twoRows(6);
  Timeline measured = twoRows(6);
  measured.units = {{"dot", ZoneKind::Dot}, {"load", ZoneKind::Load}};
  for (Zone &z : measured.zones)
    if (z.row == 0) {
      z.unit = static_cast<uint16_t>(1 - z.unit);
      z.start *= 1.5;
      z.end = z.start + 10;
    }
  TimelineModel m;
  m.set(predicted, measured, false);
  const TimelineLane &pa = m.lanes()[0], &ma = m.lanes()[2];
  ASSERT_EQ(pa.label, "a");
  ASSERT_TRUE(ma.measured);
  // Predicted dot of iteration 1 (zone 3, 60-70 ns) -> the measured dot of
  // iteration 1 (90-100 ns): spans to the next unit 20 and 30 ns.
  const Zone &dot1 = m.source(0).zones[3];
  const TimelineLane *lane = nullptr;
  const Zone *c = m.counterpart(pa, dot1, &lane);
  ASSERT_NE(c, nullptr);
  EXPECT_DOUBLE_EQ(c->start, 90);
  EXPECT_EQ(m.unitName(ma, *c), "dot");
  EXPECT_EQ(c->iteration, 1);
  EXPECT_EQ(lane, &ma);
  EXPECT_DOUBLE_EQ(m.spanToNext(pa, dot1), 20);
  EXPECT_DOUBLE_EQ(m.spanToNext(ma, *c), 30);
  // And back.
  EXPECT_EQ(m.counterpart(ma, *c), &dot1);
  // The last zone of a lane spans to its own end.
  EXPECT_DOUBLE_EQ(m.spanToNext(pa, m.source(0).zones[5]), 10);
  // A unit the other timeline does not have, or no other timeline: none.
  measured.units[0].name = "other";
  m.set(predicted, measured, true);
  EXPECT_EQ(m.counterpart(m.lanes()[0], m.source(0).zones[3]), nullptr);
  m.set(predicted, Timeline(), true);
  EXPECT_EQ(m.counterpart(m.lanes()[0], m.source(0).zones[3]), nullptr);
}

TEST(TimelineModel, TheEpilogueIsAfterTheLastIteration) {
  // The epilogue's zone carries the iteration after the loop's last: the
  // last iteration is still the loop's.
  Timeline t = twoRows(10); // iterations 0 .. 4
  t.units.push_back({"epilogue", ZoneKind::Epilogue});
  Zone e;
  e.row = 0;
  e.unit = 2;
  e.iteration = 5;
  e.start = 200;
  e.end = 260;
  t.zones.push_back(e);
  TimelineModel m;
  m.set(t, Timeline(), false);
  EXPECT_EQ(m.lastIteration(), 4);
  EXPECT_EQ(m.unitKind(m.lanes()[0], e), ZoneKind::Epilogue);
  EXPECT_TRUE(m.focusIterations(4, 5)); // the last iteration and the epilogue
  EXPECT_GT(m.viewEnd(), 260);
}

TEST(TimelineModel, CullsWhatIsOutsideTheView) {
  TimelineModel m;
  m.set(twoRows(1000), Timeline(), false);
  m.setView(1000, 1200); // zones 50 .. 59 (60 starts at 1200, the view's end)
  std::vector<ZoneRect> rects;
  m.layout(0, 1000, "", rects);
  ASSERT_EQ(rects.size(), 10u);
  EXPECT_DOUBLE_EQ(rects.front().zone->start, 1000);
  EXPECT_NEAR(rects.front().x0, 0, 1e-3);
  EXPECT_NEAR(rects.front().x1, 50, 1e-3); // 10 ns of 200 over 1000 px
  // The long zone starts long before the view and still shows, clipped.
  m.layout(1, 1000, "", rects);
  ASSERT_EQ(rects.size(), 1u);
  EXPECT_NEAR(rects[0].x0, 0, 1e-3);
  EXPECT_NEAR(rects[0].x1, 1000, 1e-3);
}

TEST(TimelineModel, MergesZonesNarrowerThanAPixel) {
  TimelineModel m;
  m.set(twoRows(10000), Timeline(), false); // 10000 zones over 200 us
  std::vector<ZoneRect> rects;
  m.layout(0, 800, "", rects);
  // 800 pixels cannot show 10000 zones: a few merged runs instead, holding
  // every zone once.
  EXPECT_LT(rects.size(), 800u);
  uint32_t total = 0;
  for (const ZoneRect &r : rects) {
    total += r.count;
    EXPECT_GE(r.x1, r.x0);
    if (r.count > 1)
      EXPECT_EQ(r.zone, nullptr);
  }
  EXPECT_EQ(total, 10000u);
  // Mixed kinds merge into "other"; zoomed in, every zone is its own rect.
  EXPECT_EQ(rects.front().kind, ZoneKind::Other);
  m.setView(0, 200);
  m.layout(0, 800, "", rects);
  EXPECT_EQ(rects.size(), 10u);
  for (const ZoneRect &r : rects)
    EXPECT_EQ(r.count, 1u);
}

TEST(TimelineModel, ZoomKeepsThePointerPlaceAndPanMoves) {
  TimelineModel m;
  m.set(twoRows(100), Timeline(), false);
  m.setView(0, 1000);
  double at = m.xToNs(250, 1000); // a quarter in
  m.zoom(0.25, 2.0);
  EXPECT_NEAR(m.viewEnd() - m.viewStart(), 500, 1e-9);
  EXPECT_NEAR(m.xToNs(250, 1000), at, 1e-9);
  m.pan(100, 1000); // a tenth of the view later
  EXPECT_NEAR(m.xToNs(250, 1000), at + 50, 1e-9);
  // The view stays on the content.
  m.pan(-1e6, 1000);
  EXPECT_GE(m.viewStart(), -0.03 * m.contentEnd());
  m.zoom(0.5, 1e-9);
  EXPECT_LE(m.viewEnd() - m.viewStart(), m.contentEnd() * 1.05 + 1e-6);
  m.zoom(0.5, 1e12);
  EXPECT_GE(m.viewEnd() - m.viewStart(), 1.0);
}

TEST(TimelineModel, HitTestAndSelectionAndFocus) {
  TimelineModel m;
  m.set(twoRows(100), Timeline(), false);
  m.setView(0, 100); // zones at 0, 20, 40, 60, 80
  const Zone *z = m.hit(0, 450, 1000); // 45 ns: inside the zone at 40..50
  ASSERT_NE(z, nullptr);
  EXPECT_DOUBLE_EQ(z->start, 40);
  EXPECT_EQ(m.unitName(m.lanes()[0], *z), "load");
  EXPECT_EQ(m.hit(0, 550, 1000), nullptr); // 55 ns: between zones
  std::vector<ZoneRect> rects;
  m.layout(0, 1000, "dot", rects);
  int highlighted = 0;
  for (const ZoneRect &r : rects)
    highlighted += r.highlighted;
  EXPECT_EQ(highlighted, 2); // the dots at 20 and 60 (the next starts at 100, the view's end)
  EXPECT_TRUE(m.focusIterations(10, 11)); // zones 20..23: 400 .. 470 ns
  EXPECT_LT(m.viewStart(), 400);
  EXPECT_GT(m.viewEnd(), 470);
  EXPECT_LT(m.viewEnd() - m.viewStart(), 100);
  EXPECT_FALSE(m.focusIterations(500, 600));
  // Both timelines: the measured one running 1000 ns later, iterations 10
  // and 11 of both (400 .. 470 and 1400 .. 1470 ns) in one view.
  Timeline later = twoRows(100);
  for (Zone &x : later.zones)
    x.start += 1000, x.end += 1000;
  m.set(twoRows(100), later, false);
  EXPECT_TRUE(m.focusIterations(10, 11, true));
  EXPECT_LT(m.viewStart(), 400);
  EXPECT_GT(m.viewEnd(), 1470);
  EXPECT_TRUE(m.focusIterations(10, 11)); // the predicted one's only
  EXPECT_LT(m.viewEnd(), 1000);
  EXPECT_EQ(formatNs(830), "830 ns");
  EXPECT_EQ(formatNs(-1e-9), "0 ns");
  EXPECT_EQ(formatNs(-0.0), "0 ns");
  EXPECT_EQ(formatNs(-830), "-830 ns");
  EXPECT_EQ(formatNs(1250), "1.25 us");
  EXPECT_EQ(formatNs(2.5e6), "2.50 ms");
}

} // namespace
