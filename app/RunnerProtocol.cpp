//===- RunnerProtocol.cpp - the app's side of the runner protocol ---------===//
#include "app/RunnerProtocol.h"

#include "llvm/Support/Base64.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

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

bool stagecraft::app::uploadRunRequestLine(uint64_t id, const std::string &bundleDir,
                                           std::string &line, std::string &error) {
  // What stagecraft-run reads, and its limits (profiler/upload.h).
  struct FileLimit {
    const char *name;
    uint64_t maxBytes;
    bool required;
  };
  const FileLimit files[] = {{"manifest.json", 16ull << 20, true},
                             {"kernel.cubin", 64ull << 20, false},
                             {"kernel.ptx", 64ull << 20, false},
                             {"reference.ptx", 64ull << 20, false}};
  json::Object upload;
  uint64_t total = 0;
  bool module = false;
  for (const FileLimit &f : files) {
    std::string path = bundleDir + "/" + f.name;
    if (!llvm::sys::fs::exists(path)) {
      if (f.required) {
        error = "cannot upload " + bundleDir + ": it has no " + f.name;
        return false;
      }
      continue;
    }
    uint64_t size = 0;
    if (std::error_code ec = llvm::sys::fs::file_size(path, size)) {
      error = "cannot upload " + path + ": " + ec.message();
      return false;
    }
    if (size > f.maxBytes || (total += size) > (96ull << 20)) {
      error = "cannot upload " + bundleDir + ": " + f.name + " makes it larger than the runner "
              "accepts (64 MiB a module, 96 MiB in all)";
      return false;
    }
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      error = "cannot upload " + path + ": " + buffer.getError().message();
      return false;
    }
    upload[f.name] = llvm::encodeBase64((*buffer)->getBuffer());
    module |= !f.required && size > 0;
  }
  if (!module) {
    error = "cannot upload " + bundleDir + ": it has neither kernel.cubin nor kernel.ptx";
    return false;
  }
  json::Object o{{"id", static_cast<int64_t>(id)}, {"upload", std::move(upload)}};
  line.clear();
  llvm::raw_string_ostream os(line);
  os << json::Value(std::move(o));
  return true;
}

std::string stagecraft::app::pingRequestLine(uint64_t id, const std::string &probePath,
                                             const std::string &token) {
  json::Object o{{"id", static_cast<int64_t>(id)},
                 {"cmd", "ping"},
                 {"probe", json::Object{{"path", probePath}, {"token", token}}}};
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
  if (std::optional<llvm::StringRef> b = o->getString("bundle"))
    reply.bundle = b->str();
  reply.probe = o->getBoolean("probe");
  if (const json::Array *received = o->getArray("received"))
    reply.receivedFiles = static_cast<int>(received->size());
  if (const json::Object *d = o->getObject("device"))
    if (std::optional<llvm::StringRef> n = d->getString("name"))
      reply.deviceName = n->str();
  return true;
}
