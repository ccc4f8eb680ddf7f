//===- RunnerInputFuzzer.cpp - libFuzzer: what a remote runner reads ------===//
//
// stagecraft-run reads request lines from a client that may be on another
// machine, and bundles uploaded inside them (profiler/upload.h). The input is
// parsed both ways:
//  - as a manifest.json: parseManifest, then what the runner derives from it
//    before any GPU work (every tensor map's driver arguments and extent, the
//    reference's FLOPs);
//  - as a request line: parseRequest (with decodeUpload), and an uploaded
//    manifest.json through parseManifest as above.
// The documented errors (json::JsonError, ManifestError,
// std::invalid_argument) are answers; any other exception escapes and
// libFuzzer reports it, as it reports crashes and sanitizer findings.
//
// Pure C++ (profiler/ without the CUDA driver): no GPU.
//
//===----------------------------------------------------------------------===//
#include "flops.h"
#include "manifest.h"
#include "protocol.h"
#include "tensormap.h"

#include <stdexcept>

using namespace stagecraft::profiler;
namespace json = stagecraft::json;

namespace {
void useManifest(const std::string &text) {
  Manifest m;
  try {
    m = parseManifest(text);
  } catch (const ManifestError &) {
    return;
  }
  for (const ParamSpec &p : m.params)
    if (p.kind == ParamSpec::Kind::TensorMap) {
      (void)tensorMapExtentBytes(p.tensorMap);
      (void)deriveTensorMapArgs(p.tensorMap);
    }
  (void)referenceFlops(m.reference);
  (void)referenceFlops(m.peer);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  useManifest(text);
  try {
    json::Value id;
    Request r = parseRequest(text, Request{}, &id);
    for (const UploadedFile &f : r.upload)
      if (f.name == "manifest.json")
        useManifest(f.data);
  } catch (const json::JsonError &) {
  } catch (const std::invalid_argument &) {
  }
  return 0;
}
