#include "bundle_check.h"

#include "manifest.h"

#include <filesystem>
#include <fstream>

namespace stagecraft::profiler {

namespace {

// Size of a file, or -1 when it cannot be opened; `head` gets its first bytes.
int64_t fileInfo(const std::string &path, std::string *head) {
  if (!bundleFileProblem(path).empty()) return -1;
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return -1;
  int64_t size = int64_t(in.tellg());
  in.seekg(0);
  char buf[4] = {};
  in.read(buf, 4);
  head->assign(buf, size_t(in.gcount()));
  return size;
}

}  // namespace

Result checkBundle(const Request &request) {
  Result r;
  r.id = request.id;
  r.bundle = request.bundle;
  r.warmup = request.warmup;
  r.reps = request.reps;
  try {
    const Manifest m = loadManifest(request.bundle);
    r.kernel = m.kernel;
    r.grid.assign(m.grid.begin(), m.grid.end());
    r.block.assign(m.block.begin(), m.block.end());
    if (m.hasCluster) r.cluster.assign(m.cluster.begin(), m.cluster.end());
    r.dynamicSmemBytes = m.dynamicSmemBytes;
    r.flops = m.flops;
    r.problem = m.problem;
    r.warnings = m.warnings;
    std::string head;
    r.referenceKind = referenceKindName(m.reference.kind);
    if (m.reference.kind == ReferenceSpec::Kind::Ir &&
        fileInfo(request.bundle + "/" + m.reference.ir.module, &head) <= 0)
      throw std::runtime_error("bundle " + request.bundle + " has no " + m.reference.ir.module +
                               " (its reference kernel)");
    int64_t cubin = fileInfo(request.bundle + "/kernel.cubin", &head);
    if (cubin > 0) {
      if (head != std::string("\x7f" "ELF", 4))
        throw std::runtime_error("bundle " + request.bundle + ": kernel.cubin is not an ELF file");
      r.moduleSource = "cubin";
    } else if (fileInfo(request.bundle + "/kernel.ptx", &head) > 0) {
      r.moduleSource = "ptx";
    } else {
      throw std::runtime_error("bundle " + request.bundle + " has neither kernel.cubin nor kernel.ptx");
    }
    // --trace: said before the GPU is set up and the kernel timed, not after
    // (the thirteenth sweep's M6: a missing directory, a directory, a bundle
    // without the instrumented kernel were found out last).
    // (The command line's: the app's requests ask for a trace wherever the
    // bundle has one.)
    if (request.trace && !request.traceFile.empty()) {
      if (!m.timeline)
        throw std::runtime_error("bundle " + request.bundle +
                                 " has no instrumented kernel (manifest.json has no \"timeline\"): "
                                 "compile it with --with-timeline to --trace it");
      {
        namespace fs = std::filesystem;
        std::error_code ec;
        fs::path out(request.traceFile);
        fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
        if (fs::is_directory(out, ec))
          throw std::runtime_error("--trace " + request.traceFile + " is a directory: name a file");
        if (!fs::is_directory(dir, ec))
          throw std::runtime_error("--trace " + request.traceFile + ": the directory " +
                                   dir.string() + " does not exist");
      }
    }
    r.status = Status::Ok;
  } catch (const std::exception &e) {
    r.status = Status::Error;
    r.error = e.what();
  }
  r.verified = false;
  return r;
}

}  // namespace stagecraft::profiler
