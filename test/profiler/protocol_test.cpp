#include "protocol.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace stagecraft::profiler;
namespace json = stagecraft::json;

namespace {

TEST(Request, DefaultsAndFields) {
  Request defaults;
  defaults.warmup = 2;
  json::Value id;
  Request r = parseRequest(R"({"id": 7, "bundle": "/abs/dir", "reps": 30})", defaults, &id);
  EXPECT_EQ(r.id.asInt(), 7);
  EXPECT_EQ(id.asInt(), 7);
  EXPECT_EQ(r.bundle, "/abs/dir");
  EXPECT_EQ(r.command, "run");
  EXPECT_EQ(r.warmup, 2);  // from the defaults (the server's command line)
  EXPECT_EQ(r.reps, 30);
  EXPECT_TRUE(r.verify);
  EXPECT_DOUBLE_EQ(r.watchdogSeconds, kDefaultWatchdogSeconds);

  r = parseRequest(R"({"id": "a", "bundle": "b", "warmup": 0, "verify": false, "watchdog_s": 2.5})", defaults, nullptr);
  EXPECT_EQ(r.id.asString(), "a");
  EXPECT_EQ(r.warmup, 0);
  EXPECT_FALSE(r.verify);
  EXPECT_DOUBLE_EQ(r.watchdogSeconds, 2.5);

  r = parseRequest(R"({"cmd": "ping"})", defaults, nullptr);
  EXPECT_EQ(r.command, "ping");
  EXPECT_TRUE(r.id.isNull());
}

std::string requestError(const std::string &line, json::Value *id = nullptr) {
  try {
    parseRequest(line, Request{}, id);
  } catch (const std::exception &e) {
    return e.what();
  }
  return "";
}

TEST(Request, MalformedRequestsAreExplained) {
  EXPECT_EQ(requestError(R"({"id": 1})"), "request field \"bundle\": missing (required, or \"upload\")");
  EXPECT_EQ(requestError(R"({"bundle": "x", "reps": 0})"), "request field \"reps\": 0 is outside 1..100000");
  EXPECT_EQ(requestError(R"({"bundle": "x", "reps": 2.5})"), "request field \"reps\": expected an integer, got a fractional number");
  EXPECT_EQ(requestError(R"({"bundle": "x", "warmup": "5"})"), "request field \"warmup\": expected an integer, got string");
  EXPECT_EQ(requestError(R"({"bundle": "x", "colour": 1})"), "unknown request field \"colour\"");
  EXPECT_EQ(requestError(R"({"bundle": 5})"), "request field \"bundle\": expected a string");
  EXPECT_EQ(requestError(R"({"bundle": "x", "watchdog_s": 0})"), "request field \"watchdog_s\": expected 0.001 to 86400 seconds");
  EXPECT_EQ(requestError(R"({"bundle": "x", "watchdog_s": 1e308})"), "request field \"watchdog_s\": expected 0.001 to 86400 seconds");
  EXPECT_EQ(requestError(R"({"cmd": "reboot"})"), "request field \"cmd\": unknown command \"reboot\" (expected \"run\", \"check\" or \"ping\")");
  EXPECT_EQ(requestError(R"([1])"), "a request must be a JSON object, got array");
  EXPECT_EQ(requestError(R"({"id": [1], "bundle": "x"})"), "request field \"id\": expected a number or a string");
  EXPECT_EQ(requestError("{\"bundle\": \"x\""), "line 1, column 15: unexpected end of input: expected ',' or '}'");
  // The id is recovered for the error reply even when another field is bad.
  json::Value id;
  requestError(R"({"id": 42, "reps": -1, "bundle": "x"})", &id);
  EXPECT_EQ(id.asInt(), 42);
}

Result okResult() {
  Result r;
  r.id = json::Value::integer(7);
  r.status = Status::Ok;
  DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.smCount = 132;
  d.smClockMhz = 1980;
  d.memClockMhz = 2619;
  d.driver = "580.159.04";
  d.cudaDriverVersion = 13000;
  r.device = d;
  r.kernel = "gemm_tma_bf16";
  r.grid = {32, 32, 1};
  r.block = {256, 1, 1};
  r.dynamicSmemBytes = 66560;
  r.registersPerThread = 187;
  r.localBytesPerThread = 0;
  r.verified = true;
  r.maxRelErr = 2.1e-3;
  r.normRelErr = 1.66e-3;
  r.timing = summarize({3780.0, 3750.0, 3800.0, 3760.0}, 1);
  r.flops = 137438953472.0;
  r.tflops = 36.4;
  r.referenceTiming = summarize({176.0, 175.0, 174.0}, 1);
  r.referenceTflops = 781.2;
  r.ratioToReference = 36.4 / 781.2;
  return r;
}

TEST(Result, SerializesEveryFieldOnOneLine) {
  std::string line = serializeResult(okResult());
  EXPECT_EQ(line.find('\n'), std::string::npos);
  json::Value v = json::parse(line);
  EXPECT_EQ(v.find("id")->asInt(), 7);
  EXPECT_EQ(v.find("status")->asString(), "ok");
  EXPECT_TRUE(v.find("error")->isNull());
  const json::Value *dev = v.find("device");
  EXPECT_EQ(dev->find("name")->asString(), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(dev->find("sm_count")->asInt(), 132);
  EXPECT_EQ(dev->find("sm_clock_mhz")->asInt(), 1980);
  EXPECT_EQ(dev->find("mem_clock_mhz")->asInt(), 2619);
  EXPECT_EQ(dev->find("driver")->asString(), "580.159.04");
  EXPECT_TRUE(v.find("verified")->asBool());
  EXPECT_DOUBLE_EQ(v.find("median_us")->asDouble(), 3770.0);  // mean of the middle two
  EXPECT_DOUBLE_EQ(v.find("min_us")->asDouble(), 3750.0);
  EXPECT_EQ(v.find("samples")->items().size(), 4u);
  EXPECT_DOUBLE_EQ(v.find("samples")->items()[0].asDouble(), 3780.0);  // launch order kept
  EXPECT_DOUBLE_EQ(v.find("tflops")->asDouble(), 36.4);
  EXPECT_DOUBLE_EQ(v.find("reference_tflops")->asDouble(), 781.2);
  EXPECT_DOUBLE_EQ(v.find("reference_median_us")->asDouble(), 175.0);
  EXPECT_NEAR(v.find("ratio_to_reference")->asDouble(), 0.0466, 1e-4);
  EXPECT_EQ(v.find("kernel")->asString(), "gemm_tma_bf16");
  EXPECT_EQ(v.find("grid")->items()[0].asInt(), 32);
  EXPECT_EQ(v.find("dynamic_smem_bytes")->asInt(), 66560);
  EXPECT_EQ(v.find("registers_per_thread")->asInt(), 187);
  EXPECT_EQ(v.find("local_bytes_per_thread")->asInt(), 0);
  EXPECT_DOUBLE_EQ(v.find("norm_rel_err")->asDouble(), 1.66e-3);
  EXPECT_TRUE(v.find("cluster")->isNull());
}

TEST(Result, NoTflopsOrRatioWithoutVerification) {
  Result r = okResult();
  r.verified = false;
  r.status = Status::VerifyFailed;
  json::Value v = json::parse(serializeResult(r));
  EXPECT_EQ(v.find("status")->asString(), "verify_failed");
  EXPECT_TRUE(v.find("tflops")->isNull());
  EXPECT_TRUE(v.find("ratio_to_reference")->isNull());
  EXPECT_FALSE(v.find("verified")->asBool());
}

TEST(Result, ErrorStatusesAndEscaping) {
  Result r;
  r.id = json::Value::string("x\"y");
  r.status = Status::Fault;
  r.error = "waiting for the first launch: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access\nwas encountered";
  json::Value v = json::parse(serializeResult(r));
  EXPECT_EQ(v.find("id")->asString(), "x\"y");
  EXPECT_EQ(v.find("status")->asString(), "fault");
  EXPECT_EQ(v.find("error")->asString(), r.error);
  EXPECT_TRUE(v.find("device")->isNull());
  EXPECT_TRUE(v.find("median_us")->isNull());
  EXPECT_STREQ(statusName(Status::Timeout), "timeout");
  EXPECT_STREQ(statusName(Status::Error), "error");
}

TEST(Timing, Summarize) {
  Timing t = summarize({5.0, 1.0, 3.0}, 2);
  EXPECT_DOUBLE_EQ(t.medianUs, 3.0);
  EXPECT_DOUBLE_EQ(t.minUs, 1.0);
  EXPECT_EQ(t.kernelsPerRep, 2);
  EXPECT_EQ(t.samplesUs, (std::vector<double>{5.0, 1.0, 3.0}));
  Timing empty = summarize({}, 0);
  EXPECT_EQ(empty.medianUs, 0.0);
}

}  // namespace
