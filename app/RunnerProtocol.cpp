//===- RunnerProtocol.cpp - the app's side of the runner protocol ---------===//
#include "app/RunnerProtocol.h"

#include "llvm/Support/JSON.h"

using namespace stagecraft::app;
namespace json = llvm::json;

std::string stagecraft::app::runRequestLine(uint64_t id,
                                            const std::string &bundleDir) {
  json::Object o{{"id", static_cast<int64_t>(id)}, {"bundle", bundleDir}};
  std::string s;
  llvm::raw_string_ostream os(s);
  os << json::Value(std::move(o));
  return os.str();
}

std::string stagecraft::app::pingRequestLine(uint64_t id) {
  json::Object o{{"id", static_cast<int64_t>(id)}, {"cmd", "ping"}};
  std::string s;
  llvm::raw_string_ostream os(s);
  os << json::Value(std::move(o));
  return os.str();
}

bool stagecraft::app::parseRunnerReply(const std::string &line,
                                       RunnerReply &reply, std::string &error) {
  reply = RunnerReply();
  reply.line = line;
  llvm::Expected<json::Value> v = json::parse(line);
  if (!v) {
    error = "not JSON: " + llvm::toString(v.takeError());
    return false;
  }
  const json::Object *o = v->getAsObject();
  if (!o) {
    error = "not a JSON object";
    return false;
  }
  std::optional<llvm::StringRef> status = o->getString("status");
  if (!status) {
    error = "no \"status\" field";
    return false;
  }
  reply.status = status->str();
  if (std::optional<int64_t> id = o->getInteger("id"); id && *id >= 0)
    reply.id = static_cast<uint64_t>(*id);
  if (std::optional<llvm::StringRef> e = o->getString("error"))
    reply.error = e->str();
  reply.verified = o->getBoolean("verified").value_or(false);
  reply.tflops = o->getNumber("tflops");
  reply.referenceTflops = o->getNumber("reference_tflops");
  reply.ratioToReference = o->getNumber("ratio_to_reference");
  reply.medianUs = o->getNumber("median_us");
  reply.maxRelErr = o->getNumber("max_rel_err");
  if (std::optional<int64_t> r = o->getInteger("registers_per_thread"))
    reply.registersPerThread = static_cast<int>(*r);
  if (std::optional<llvm::StringRef> n = o->getString("reference_name"))
    reply.referenceName = n->str();
  if (const json::Object *d = o->getObject("device"))
    if (std::optional<llvm::StringRef> n = d->getString("name"))
      reply.deviceName = n->str();
  return true;
}
