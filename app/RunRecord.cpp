//===- RunRecord.cpp - one compiled (and maybe run) schedule variant ------===//
#include "app/RunRecord.h"

#include <cstdio>

using namespace stagecraft::app;
namespace json = llvm::json;

const char *stagecraft::app::runStateName(RunState s) {
  switch (s) {
  case RunState::CompileFailed: return "compile-failed";
  case RunState::Compiled: return "compiled";
  case RunState::Queued: return "queued";
  case RunState::Running: return "running";
  case RunState::Done: return "done";
  case RunState::NotRun: return "not-run";
  }
  return "?";
}

static std::optional<RunState> runStateFromName(llvm::StringRef n) {
  for (RunState s : {RunState::CompileFailed, RunState::Compiled,
                     RunState::Queued, RunState::Running, RunState::Done,
                     RunState::NotRun})
    if (n == runStateName(s))
      return s;
  return std::nullopt;
}

std::string RunRecord::resultText() const {
  char buf[128];
  switch (state) {
  case RunState::CompileFailed: return "compile failed";
  case RunState::Compiled:
    return target == "sm_90a" ? "compiled, not run" : "compiled for " + target + " (compile-only)";
  case RunState::Queued: return "queued";
  case RunState::Running: return "running";
  case RunState::NotRun: return "not run";
  case RunState::Done:
    if (status == "ok" && verified && tflops) {
      std::snprintf(buf, sizeof buf, "verified, %.1f TFLOP/s", *tflops);
      return buf;
    }
    if (status == "ok")
      return "ran, not verified";
    return status;
  }
  return "";
}

json::Value stagecraft::app::runToJson(const RunRecord &r) {
  auto opt = [](const std::optional<double> &d) -> json::Value {
    return d ? json::Value(*d) : json::Value(nullptr);
  };
  // A run that was queued or running when the app ended was never answered.
  RunState state = r.state;
  if (state == RunState::Queued || state == RunState::Running)
    state = RunState::Compiled;
  return json::Object{
      {"id", static_cast<int64_t>(r.id)},
      {"ir_path", r.irPath},
      {"schedule", r.scheduleJson},
      {"tile_order", r.tileOrder},
      {"target", r.target},
      {"steady_state", r.steadyState},
      {"stages", r.stages},
      {"smem_bytes", r.smemBytes},
      {"state", runStateName(state)},
      {"error", r.error},
      {"bundle", r.bundleDir},
      {"compile_seconds", r.compileSeconds},
      {"registers", r.registers},
      {"spill_bytes", r.spillBytes},
      {"status", r.status},
      {"verified", r.verified},
      {"tflops", opt(r.tflops)},
      {"reference_tflops", opt(r.referenceTflops)},
      {"ratio_to_reference", opt(r.ratioToReference)},
      {"median_us", opt(r.medianUs)},
      {"device", r.device},
      {"warnings", json::Array(r.warnings)},
  };
}

bool stagecraft::app::runFromJson(const json::Value &v, RunRecord &r) {
  const json::Object *o = v.getAsObject();
  if (!o)
    return false;
  auto str = [&](const char *k) {
    std::optional<llvm::StringRef> s = o->getString(k);
    return s ? s->str() : std::string();
  };
  r = RunRecord();
  std::optional<int64_t> id = o->getInteger("id");
  if (!id || *id <= 0)
    return false;
  r.id = *id;
  r.irPath = str("ir_path");
  r.scheduleJson = str("schedule");
  r.tileOrder = str("tile_order");
  if (std::optional<llvm::StringRef> t = o->getString("target"))
    r.target = t->str();
  r.steadyState = str("steady_state");
  r.stages = o->getInteger("stages").value_or(0);
  r.smemBytes = o->getInteger("smem_bytes").value_or(0);
  r.state = runStateFromName(str("state")).value_or(RunState::Compiled);
  r.error = str("error");
  r.bundleDir = str("bundle");
  r.compileSeconds = o->getNumber("compile_seconds").value_or(0);
  r.registers = o->getInteger("registers").value_or(-1);
  r.spillBytes = o->getInteger("spill_bytes").value_or(0);
  r.status = str("status");
  r.verified = o->getBoolean("verified").value_or(false);
  r.tflops = o->getNumber("tflops");
  r.referenceTflops = o->getNumber("reference_tflops");
  r.ratioToReference = o->getNumber("ratio_to_reference");
  r.medianUs = o->getNumber("median_us");
  r.device = str("device");
  if (const json::Array *w = o->getArray("warnings"))
    for (const json::Value &x : *w)
      if (std::optional<llvm::StringRef> s = x.getAsString())
        r.warnings.push_back(s->str());
  return true;
}
