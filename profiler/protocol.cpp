#include "protocol.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace stagecraft::profiler {

namespace {

int readCount(const json::Value &v, const char *key, int lo, int hi) {
  if (!v.isInteger())
    throw std::invalid_argument(std::string("request field \"") + key + "\": expected an integer, got " +
                                (v.isNumber() ? "a fractional number" : json::typeName(v.type())));
  int64_t i = v.asInt();
  if (i < lo || i > hi)
    throw std::invalid_argument(std::string("request field \"") + key + "\": " + std::to_string(i) +
                                " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return int(i);
}

}  // namespace

Request parseRequest(const std::string &line, const Request &defaults, json::Value *idOut) {
  json::Value v = json::parse(line);
  if (!v.isObject())
    throw std::invalid_argument(std::string("a request must be a JSON object, got ") + json::typeName(v.type()));
  Request r = defaults;
  if (const json::Value *id = v.find("id")) {
    if (!(id->isNumber() || id->isString() || id->isNull()))
      throw std::invalid_argument("request field \"id\": expected a number or a string");
    r.id = *id;
    if (idOut) *idOut = *id;
  }
  for (const auto &m : v.members()) {
    const std::string &k = m.first;
    const json::Value &f = m.second;
    if (k == "id") continue;
    if (k == "cmd") {
      if (!f.isString()) throw std::invalid_argument("request field \"cmd\": expected a string");
      r.command = f.asString();
      if (r.command != "run" && r.command != "ping" && r.command != "check")
        throw std::invalid_argument("request field \"cmd\": unknown command \"" + r.command +
                                    "\" (expected \"run\", \"check\" or \"ping\")");
    } else if (k == "bundle") {
      if (!f.isString()) throw std::invalid_argument("request field \"bundle\": expected a string");
      r.bundle = f.asString();
    } else if (k == "upload") {
      r.upload = decodeUpload(f);
      r.hasUpload = true;
    } else if (k == "probe") {
      const json::Value *path = f.isObject() ? f.find("path") : nullptr;
      const json::Value *token = f.isObject() ? f.find("token") : nullptr;
      if (!path || !path->isString() || !token || !token->isString() ||
          f.members().size() != 2)
        throw std::invalid_argument("request field \"probe\": expected {\"path\": string, "
                                    "\"token\": string}");
      if (token->asString().empty() || token->asString().size() > 128 ||
          path->asString().empty() || path->asString().size() > 4096)
        throw std::invalid_argument("request field \"probe\": path of 1..4096 and token of "
                                    "1..128 characters");
      r.hasProbe = true;
      r.probePath = path->asString();
      r.probeToken = token->asString();
    } else if (k == "warmup") {
      r.warmup = readCount(f, "warmup", 0, kMaxReps);
    } else if (k == "reps") {
      r.reps = readCount(f, "reps", 1, kMaxReps);
    } else if (k == "verify") {
      if (!f.isBool()) throw std::invalid_argument("request field \"verify\": expected true or false");
      r.verify = f.asBool();
    } else if (k == "trace") {
      if (!f.isBool()) throw std::invalid_argument("request field \"trace\": expected true or false");
      r.trace = f.asBool();
    } else if (k == "watchdog_s") {
      // The command line's range (--watchdog): a day at most.
      if (!f.isNumber() || !(f.asDouble() >= 0.001 && f.asDouble() <= 86400))
        throw std::invalid_argument("request field \"watchdog_s\": expected 0.001 to 86400 seconds");
      r.watchdogSeconds = f.asDouble();
    } else {
      throw std::invalid_argument("unknown request field \"" + k + "\"");
    }
  }
  if (r.command != "ping" && r.bundle.empty() && !r.hasUpload)
    throw std::invalid_argument("request field \"bundle\": missing (required, or \"upload\")");
  if (!r.bundle.empty() && r.hasUpload)
    throw std::invalid_argument("request fields \"bundle\" and \"upload\": give one, not both");
  if (r.command == "ping" && r.hasUpload)
    throw std::invalid_argument("request field \"upload\": a ping takes no bundle");
  if (r.command != "ping" && r.hasProbe)
    throw std::invalid_argument("request field \"probe\": only a ping takes a probe");
  return r;
}

const char *statusName(Status s) {
  switch (s) {
  case Status::Ok: return "ok";
  case Status::Error: return "error";
  case Status::Fault: return "fault";
  case Status::Timeout: return "timeout";
  case Status::VerifyFailed: return "verify_failed";
  }
  return "error";
}

Timing summarize(std::vector<double> samplesUs, int kernelsPerRep) {
  Timing t;
  t.samplesUs = samplesUs;
  t.kernelsPerRep = kernelsPerRep;
  if (samplesUs.empty()) return t;
  std::sort(samplesUs.begin(), samplesUs.end());
  size_t n = samplesUs.size();
  t.minUs = samplesUs.front();
  t.medianUs = n % 2 ? samplesUs[n / 2] : 0.5 * (samplesUs[n / 2 - 1] + samplesUs[n / 2]);
  return t;
}

namespace {

using json::Value;

Value optNum(const std::optional<double> &d) { return d ? Value::number(*d) : Value::null(); }
Value optInt(const std::optional<int64_t> &i) { return i ? Value::integer(*i) : Value::null(); }
Value optInt(const std::optional<int> &i) { return i ? Value::integer(*i) : Value::null(); }

Value ints(const std::vector<int64_t> &v) {
  if (v.empty()) return Value::null();
  Value a = Value::array();
  for (int64_t x : v) a.push(Value::integer(x));
  return a;
}

Value samples(const std::optional<Timing> &t) {
  if (!t) return Value::null();
  Value a = Value::array();
  for (double s : t->samplesUs) a.push(Value::number(s));
  return a;
}

Value deviceJson(const std::optional<DeviceInfo> &d) {
  if (!d) return Value::null();
  Value o = Value::object();
  o.set("name", Value::string(d->name));
  o.set("ordinal", Value::integer(d->ordinal));
  o.set("sm_count", Value::integer(d->smCount));
  o.set("sm_clock_mhz", Value::integer(d->smClockMhz));
  o.set("mem_clock_mhz", Value::integer(d->memClockMhz));
  o.set("compute_capability", Value::string(d->computeCapability));
  o.set("l2_bytes", Value::integer(d->l2Bytes));
  o.set("memory_bytes", Value::integer(d->memoryBytes));
  o.set("driver", d->driver.empty() ? Value::null() : Value::string(d->driver));
  o.set("cuda_driver_version", Value::integer(d->cudaDriverVersion));
  return o;
}

}  // namespace

Value resultToJson(const Result &r) {
  Value o = Value::object();
  o.set("id", r.id);
  o.set("status", Value::string(statusName(r.status)));
  o.set("error", r.error.empty() ? Value::null() : Value::string(r.error));
  o.set("device", deviceJson(r.device));
  o.set("bundle", r.bundle.empty() ? Value::null() : Value::string(r.bundle));
  o.set("kernel", r.kernel.empty() ? Value::null() : Value::string(r.kernel));
  o.set("module", r.moduleSource.empty() ? Value::null() : Value::string(r.moduleSource));
  o.set("grid", ints(r.grid));
  o.set("block", ints(r.block));
  o.set("cluster", ints(r.cluster));
  o.set("max_active_clusters", optInt(r.maxActiveClusters));
  o.set("dynamic_smem_bytes", optInt(r.dynamicSmemBytes));
  o.set("static_smem_bytes", optInt(r.staticSmemBytes));
  o.set("registers_per_thread", optInt(r.registersPerThread));
  o.set("local_bytes_per_thread", optInt(r.localBytesPerThread));
  o.set("verified", Value::boolean(r.verified));
  o.set("reference_kind", r.referenceKind.empty() ? Value::null() : Value::string(r.referenceKind));
  o.set("max_rel_err", optNum(r.maxRelErr));
  o.set("norm_rel_err", optNum(r.normRelErr));
  o.set("nonfinite_count", r.nonfiniteCount ? Value::integer(*r.nonfiniteCount) : Value::null());
  Value tol = Value::object();
  tol.set("max_rel", Value::number(r.tolMaxRel));
  tol.set("norm_rel", Value::number(r.tolNormRel));
  o.set("tolerance", tol);
  Value checks = Value::array();
  for (const OutputCheckResult &c : r.checks) {
    Value ck = Value::object();
    ck.set("tensor", Value::string(c.tensor));
    ck.set("against", Value::string(c.against));
    ck.set("passed", Value::boolean(c.passed));
    ck.set("max_rel_err", Value::number(maxRelErr(c.errors)));
    ck.set("norm_rel_err", Value::number(normRelErr(c.errors)));
    ck.set("nonfinite_count", Value::number(double(c.errors.nonfinite)));
    if (c.errors.unwritten > 0) ck.set("unwritten_count", Value::number(double(c.errors.unwritten)));
    ck.set("max_rel_tol", Value::number(c.tolerance.maxRel));
    ck.set("norm_rel_tol", Value::number(c.tolerance.normRel));
    // Where the derived tolerance was missed: that tolerance and the reference's own movement
    // with its sums reordered, which widened it (error_metrics.h).
    if (c.reordered) {
      ck.set("derived_max_rel_tol", Value::number(c.derived.maxRel));
      ck.set("derived_norm_rel_tol", Value::number(c.derived.normRel));
      ck.set("reordered_max_rel_err", Value::number(maxRelErr(c.reorderNoise)));
      ck.set("reordered_norm_rel_err", Value::number(normRelErr(c.reorderNoise)));
    }
    // Where it missed and near ties may flip: how many elements missed the max-wise tolerance
    // by more, how many may; passed with them, the errors above are the other elements'.
    if (c.flipChecked) {
      ck.set("flipped", Value::integer((long long)c.flipped));
      ck.set("flips_allowed", Value::integer((long long)c.flipsAllowed));
      if (c.passed) {
        ck.set("max_rel_err_with_flips", Value::number(maxRelErr(c.withFlips)));
        ck.set("norm_rel_err_with_flips", Value::number(normRelErr(c.withFlips)));
      }
    }
    checks.push(ck);
  }
  o.set("checks", checks);
  o.set("warmup", Value::integer(r.warmup));
  o.set("reps", Value::integer(r.reps));
  o.set("input_sets", Value::integer(r.inputSets));
  o.set("median_us", r.timing ? Value::number(r.timing->medianUs) : Value::null());
  o.set("min_us", r.timing ? Value::number(r.timing->minUs) : Value::null());
  o.set("samples", samples(r.timing));
  o.set("kernels_per_rep", r.timing ? Value::integer(r.timing->kernelsPerRep) : Value::null());
  o.set("flops", Value::number(r.flops));
  // TFLOP/s only for a verified result: an unverified speed is not a result.
  o.set("tflops", r.verified ? optNum(r.tflops) : Value::null());
  o.set("reference_name", r.referenceName.empty() ? Value::null() : Value::string(r.referenceName));
  o.set("reference_median_us", r.referenceTiming ? Value::number(r.referenceTiming->medianUs) : Value::null());
  o.set("reference_min_us", r.referenceTiming ? Value::number(r.referenceTiming->minUs) : Value::null());
  o.set("reference_samples", samples(r.referenceTiming));
  o.set("reference_tflops", optNum(r.referenceTflops));
  o.set("ratio_to_reference", r.verified ? optNum(r.ratioToReference) : Value::null());
  o.set("problem", r.problem);
  o.set("trace", r.trace);
  o.set("trace_file", r.traceFile.empty() ? Value::null() : Value::string(r.traceFile));
  Value w = Value::array();
  for (const auto &s : r.warnings) w.push(Value::string(s));
  o.set("warnings", w);
  o.set("probe", r.probe ? Value::boolean(*r.probe) : Value::null());
  if (r.received) {
    Value files = Value::array();
    for (const auto &f : *r.received) {
      Value e = Value::object();
      e.set("name", Value::string(f.first));
      e.set("bytes", Value::integer(f.second));
      files.push(e);
    }
    o.set("received", files);
  } else {
    o.set("received", Value::null());
  }
  return o;
}

std::string serializeResult(const Result &r) { return json::write(resultToJson(r)); }

}  // namespace stagecraft::profiler
