//===- PredictionCheck.cpp - what every timeline prediction must satisfy --===//
#include "PredictionCheck.h"

#include "core/Timeline/TimelineTrace.h"

#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>

using namespace stagecraft;

namespace {
bool isFinite(double v) { return std::isfinite(v); }
bool fraction(double f) { return f == -1 || (f >= 0 && f <= 1); } // -1: unknown
} // namespace

std::string fuzz::predictionProblem(const timeline::Prediction &p,
                                    const timeline::HopperModel &model) {
  if (!p.ok)
    return p.error.empty() ? "a failed prediction without an error" : "";
  if (!isFinite(p.iterationNs) || p.iterationNs < 0)
    return "iteration time " + std::to_string(p.iterationNs);
  if (!isFinite(p.ctaNs) || p.ctaNs <= 0 || !isFinite(p.totalNs) || p.totalNs <= 0)
    return "CTA or launch time not a positive number";
  if (!isFinite(p.flops) || p.flops < 0 || !isFinite(p.tflops) || p.tflops < 0)
    return "flops or TFLOP/s not a number";
  // fp8 runs the tensor cores at twice the bf16 rate; nothing is faster.
  double clock = std::max(model.clockGHz, model.clockMaxGHz); // the power clock runs up to its max
  double peak = 2 * model.tensorFlopsPerCycle * model.sms * clock * 1e-3;
  if (p.tflops > peak * 1.001)
    return "faster than the tensor cores' peak: " + std::to_string(p.tflops) + " TFLOP/s";
  if (p.ctas < 1 || !isFinite(p.waves) || p.waves <= 0 || p.ctasPerSM < 1)
    return "launch shape";
  for (const timeline::ResourceUse &r : p.utilization)
    if (!isFinite(r.busy) || r.busy < 0 || r.busy > 1.0001)
      return r.name + " busy " + std::to_string(r.busy);
  for (const auto &l : p.loadSources)
    if (!fraction(l.dramFraction) || !fraction(l.tpcShared))
      return "load fractions of " + l.unit;
  const timeline::Timeline &t = p.timeline;
  for (const timeline::Zone &z : t.zones) {
    if (z.row >= t.rows.size() || z.unit >= t.units.size())
      return "a zone off its rows or units";
    if (!isFinite(z.start) || !isFinite(z.end) || z.end < z.start)
      return "a zone from " + std::to_string(z.start) + " to " + std::to_string(z.end);
  }
  if (p.bound.empty())
    return "no bound";
  (void)p.boundAndSourcesText();
  std::string text = trace::toJson(timeline::predictedTrace(p, "fuzz", model));
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return "the trace is not JSON: " + llvm::toString(parsed.takeError());
  return "";
}
