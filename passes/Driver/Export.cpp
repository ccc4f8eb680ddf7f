//===- Export.cpp - a compiled kernel as a package for a user's project ---===//
#include "passes/Driver/Export.h"
#include "core/Support/Json.h"
#include "passes/Driver/export/Emit.h"
#include "passes/Driver/export/ExportModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <unistd.h>

using namespace stagecraft;
using namespace stagecraft::exporter;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

constexpr const char *kMarker = ".stagecraft-export";
constexpr uint64_t kMaxBundleFile = 256ull << 20;

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The file's bytes; absent files are not an error here (the model says
/// which ones it needs).
llvm::Expected<std::optional<std::string>> readIfThere(const std::string &file) {
  if (!fs::exists(file))
    return std::nullopt;
  uint64_t size = 0;
  if (std::error_code ec = fs::file_size(file, size))
    return fail(file + ": " + ec.message());
  if (size > kMaxBundleFile)
    return fail(file + ": " + std::to_string(size) + " bytes is too large for a bundle file");
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail(file + ": " + buffer.getError().message());
  return std::optional<std::string>((*buffer)->getBuffer().str());
}

llvm::Error writeFile(const std::string &file, llvm::StringRef data) {
  std::error_code ec;
  llvm::raw_fd_ostream os(file, ec, fs::OF_None);
  if (ec)
    return fail("cannot write " + file + ": " + ec.message());
  os << data;
  os.close();
  if (os.has_error())
    return fail("error writing " + file + ": " + os.error().message());
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::string> stagecraft::exportPackageName(llvm::StringRef outDir) {
  llvm::SmallString<256> dir(outDir);
  path::remove_dots(dir, /*remove_dot_dot=*/true);
  while (dir.size() > 1 && path::is_separator(dir.back()))
    dir.pop_back();
  std::string name = path::filename(dir).str();
  if (name.empty() || name == "." || name == "..")
    return fail("export directory \"" + outDir + "\" has no name to use for the package");
  if (plainIdentifier(name) != name)
    return fail("export directory \"" + outDir + "\": its name \"" + name +
                "\" becomes the Python package and C++ namespace, so it must be an "
                "identifier (letters, digits, '_', not starting with a digit, not a keyword); "
                "e.g. \"" + plainIdentifier(name) + "\"");
  // A package named like a module the exported code or its callers import
  // shadows it for everything beside it on sys.path (an export named ctypes
  // broke its own runtime's import; one named torch hides PyTorch).
  static const char *const kShadowing[] = {
      "torch",   "numpy",     "cupy",        "triton",    "ctypes",    "os",       "sys",
      "threading", "math",    "json",        "re",        "io",        "time",     "types",
      "typing",  "enum",      "abc",         "copy",      "struct",    "string",   "random",
      "warnings", "functools", "itertools",  "operator",  "collections", "pathlib", "dataclasses",
      "builtins", "site",     "importlib",   "subprocess", "tempfile",  "logging",  "unittest",
      "test",    "runtime",   "_runtime",
      // CPython's built-in modules: `import` finds them before any package
      // on sys.path (an export named errno or gc was never imported).
      "_abc", "_ast", "_codecs", "_collections", "_functools", "_imp", "_io", "_locale",
      "_operator", "_signal", "_sre", "_stat", "_string", "_symtable", "_thread", "_tokenize",
      "_tracemalloc", "_typing", "_warnings", "_weakref", "atexit", "errno", "faulthandler",
      "gc", "marshal", "posix", "pwd", "xxsubtype"};
  if (llvm::is_contained(kShadowing, name) || llvm::StringRef(name).starts_with("__"))
    return fail("export directory \"" + outDir + "\": its name \"" + name +
                "\" becomes the Python package, which would shadow the module of that name "
                "(the exported runtime imports ctypes, os and threading; callers import torch); "
                "e.g. \"" + name + "_kernel\"");
  // The C++ namespace beside what NAME.h and example.cpp include and define:
  // a macro (errno, NULL, EOF, and g++'s default gnu++17 defines linux and
  // unix), a global of libc or cuda.h, or the example's own helpers: the
  // header or the example did not compile (the ninth sweep's B1).
  static const char *const kCppGlobals[] = {
      "errno", "NULL", "EOF", "INFINITY", "NAN", "HUGE_VAL", "linux", "unix", "i386", "main",
      "stdin", "stdout", "stderr", "FILE", "size_t", "ptrdiff_t", "int8_t", "int16_t",
      "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intptr_t",
      "uintptr_t", "printf", "fprintf", "snprintf", "sprintf", "puts", "exit", "abort", "abs",
      "malloc", "free", "memcpy", "memset", "strlen", "assert", "std", "signal", "raise",
      "CHAR_BIT", "INT_MAX", "Tensor", "Check", "cu", "checkGemm", "checkAttention",
      "fillUniform", "fromBits", "toBits", "bf16ToFloat", "floatToBf16", "f16ToFloat",
      "floatToF16", "fp8ToFloat", "floatToFp8"};
  llvm::StringRef n(name);
  bool cudaName = (n.starts_with("cu") && n.size() > 2 && std::isupper(static_cast<unsigned char>(n[2]))) ||
                  n.starts_with("CU"); // cuInit, CUstream, CUDA_VERSION
  if (llvm::is_contained(kCppGlobals, name) || cudaName || n.starts_with("_"))
    return fail("export directory \"" + outDir + "\": its name \"" + name +
                "\" becomes the C++ namespace, which would clash with a name the header or its "
                "example already has (a C macro, a global of libc or cuda.h, the example's "
                "helpers, cuda.h's cuX and CU prefixes, a leading underscore); e.g. \"" + name +
                "_kernel\"");
  return name;
}

llvm::Expected<ExportMeasurement> stagecraft::parseMeasurement(llvm::StringRef text,
                                                               llvm::StringRef sourceName) {
  // A file of runner output may hold several lines; the last result counts.
  llvm::StringRef line = text.trim();
  size_t nl = line.rfind('\n');
  if (nl != llvm::StringRef::npos)
    line = line.drop_front(nl + 1).trim();
  llvm::Expected<llvm::json::Value> v = stagecraft::parseJson(line);
  if (!v)
    return fail(sourceName + ": " + llvm::toString(v.takeError()));
  const llvm::json::Object *o = v->getAsObject();
  if (!o)
    return fail(sourceName + ": expected a stagecraft-run result (a JSON object)");
  auto status = o->getString("status");
  if (!status)
    return fail(sourceName + ": no \"status\": not a stagecraft-run result");
  if (*status != "ok")
    return fail(sourceName + ": the run's status is \"" + *status + "\"" +
                (o->getString("error") ? " (" + o->getString("error")->str() + ")" : "") +
                "; only a successful run is a measurement");
  ExportMeasurement m;
  if (const llvm::json::Object *d = o->getObject("device"))
    if (auto n = d->getString("name"))
      m.device = n->str();
  m.verified = o->getBoolean("verified").value_or(false);
  m.tflops = o->getNumber("tflops");
  m.medianUs = o->getNumber("median_us");
  m.maxRelErr = o->getNumber("max_rel_err");
  m.referenceTflops = o->getNumber("reference_tflops");
  if (auto n = o->getString("reference_name"))
    m.referenceName = n->str();
  if (auto k = o->getString("kernel"))
    m.kernel = k->str();
  if (const llvm::json::Array *g = o->getArray("grid"))
    for (const llvm::json::Value &d : *g)
      if (auto n = d.getAsInteger())
        m.grid.push_back(*n);
  if (const llvm::json::Object *p = o->getObject("problem"))
    for (const auto &[name, value] : *p)
      if (auto n = value.getAsInteger())
        m.problem[name.str()] = *n;
  return m;
}

/// Whether `m` is a run of the bundle whose manifest is `manifestText`: its
/// kernel, grid and sizes (the ninth sweep's B5: another kernel's result, or
/// this kernel's at 1024^3, was quoted as the speed at the compiled sizes).
static llvm::Error checkMeasurementMatches(const ExportMeasurement &m,
                                           llvm::StringRef manifestText) {
  llvm::Expected<llvm::json::Value> v = stagecraft::parseJson(manifestText);
  if (!v)
    return v.takeError();
  const llvm::json::Object *o = v->getAsObject();
  if (!o)
    return fail("manifest.json: not a JSON object");
  std::string kernel = o->getString("kernel").value_or("").str();
  if (!m.kernel.empty() && m.kernel != kernel)
    return fail("--measured: the run is of kernel \"" + m.kernel + "\", the bundle's is \"" +
                kernel + "\"");
  if (!m.grid.empty()) {
    std::vector<int64_t> grid;
    if (const llvm::json::Array *g = o->getArray("grid"))
      for (const llvm::json::Value &d : *g)
        grid.push_back(d.getAsInteger().value_or(0));
    if (grid != m.grid)
      return fail("--measured: the run launched another grid than the bundle's (another size or "
                  "schedule): run this bundle and export with its result");
  }
  if (const llvm::json::Object *p = o->getObject("problem"))
    for (const auto &[name, value] : *p) {
      auto want = value.getAsInteger();
      auto it = m.problem.find(name.str());
      if (want && it != m.problem.end() && it->second != *want)
        return fail("--measured: the run is at " + name.str() + " = " + std::to_string(it->second) +
                    ", the bundle at " + std::to_string(*want));
    }
  return llvm::Error::success();
}

llvm::Error stagecraft::checkExportDestination(llvm::StringRef outDir, bool overwrite) {
  namespace fs = llvm::sys::fs;
  namespace path = llvm::sys::path;
  std::string out = outDir.str();
  while (out.size() > 1 && path::is_separator(out.back()))
    out.pop_back();
  auto refuse = [](const std::string &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", why.c_str());
  };
  if (!fs::exists(out))
    return llvm::Error::success();
  if (!fs::is_directory(out))
    return refuse("export directory \"" + out + "\" exists and is not a directory");
  if (!fs::exists(out + "/" + kMarker))
    return refuse("export directory \"" + out + "\" exists and is not an earlier export "
                  "(no " + std::string(kMarker) + "); choose a new directory");
  if (!overwrite)
    return refuse("export directory \"" + out + "\" exists");
  // Replacing an earlier export replaces what the exporter wrote, what
  // Python leaves beside it (__pycache__) and the example the README builds
  // in place; a file of the user's there is refused, not deleted with it.
  llvm::Expected<std::string> package = exportPackageName(out);
  std::set<std::string> ours = {"__init__.py",   "_runtime.py",    "README.md",   "example.cpp",
                                "example",       kMarker,          "kernel.cubin", "kernel.ptx",
                                "manifest.json", "signature.json", "schedule.json", "ptxas.txt",
                                "__pycache__"};
  if (package) {
    ours.insert(*package + ".h");
    ours.insert(*package + "_cubin.h");
  } else {
    llvm::consumeError(package.takeError());
  }
  // What the earlier export says it wrote (under its package's name).
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
          llvm::MemoryBuffer::getFile(out + "/" + kMarker)) {
    for (llvm::StringRef line : llvm::split((*text)->getBuffer(), '\n'))
      if (line.consume_front("files:"))
        for (llvm::StringRef name : llvm::split(line.trim(), ' '))
          if (!name.empty() && !name.contains('/'))
            ours.insert(name.str());
  }
  std::vector<std::string> theirs;
  std::error_code ec;
  for (fs::directory_iterator it(out, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = path::filename(it->path()).str();
    if (!ours.count(name))
      theirs.push_back(name);
  }
  if (!theirs.empty()) {
    std::sort(theirs.begin(), theirs.end());
    std::string list;
    for (size_t i = 0; i < theirs.size() && i < 5; ++i)
      list += (i ? ", " : "") + theirs[i];
    if (theirs.size() > 5)
      list += ", ...";
    return refuse("export directory \"" + out + "\" is an earlier export that now holds files "
                  "the exporter did not write (" + list + "); replacing it would delete them: "
                  "move them out or choose a new directory");
  }
  return llvm::Error::success();
}

llvm::Error stagecraft::exportPackage(const ExportOptions &options) {
  llvm::Expected<std::string> package = exportPackageName(options.outDir);
  if (!package)
    return package.takeError();
  const std::string &bundle = options.bundleDir;
  if (!fs::is_directory(bundle))
    return fail("bundle \"" + bundle + "\" is not a directory");

  std::map<std::string, std::string> files;
  for (const char *name : {"manifest.json", "signature.json", "schedule.json", "ptxas.txt",
                           "kernel.cubin", "kernel.ptx"}) {
    auto text = readIfThere(bundle + "/" + name);
    if (!text)
      return text.takeError();
    if (*text)
      files[name] = std::move(**text);
  }
  if (!files.count("kernel.cubin") || files["kernel.cubin"].empty())
    return fail(bundle + "/kernel.cubin: missing; export needs the sm_90a cubin (ptxas was "
                         "not found when the bundle was compiled: compile it again where "
                         "/usr/local/cuda/bin/ptxas or ptxas on PATH is there)");
  if (files["kernel.cubin"].compare(0, 4, "\x7f" "ELF") != 0)
    return fail(bundle + "/kernel.cubin: not an ELF file (a cubin is one)");

  // The package's launchers check for an sm_90 GPU and its text says sm_90a.
  if (llvm::Expected<llvm::json::Value> mv = stagecraft::parseJson(files["manifest.json"]); mv) {
    if (const llvm::json::Object *mo = mv->getAsObject())
      if (auto target = mo->getString("target"); target && *target != "sm_90a")
        return fail("the bundle is compiled for " + target->str() +
                    "; export writes sm_90a packages (their launchers load the cubin on an sm_90 "
                    "GPU): compile for sm_90a to export (" + target->str() +
                    " bundles are compile-only here)");
  } else {
    llvm::consumeError(mv.takeError());
  }
  if (options.measured)
    if (llvm::Error e = checkMeasurementMatches(*options.measured, files["manifest.json"]))
      return e;
  llvm::Expected<Model> model = buildModel(files, bundle, *package);
  if (!model)
    return model.takeError();
  model->measured = options.measured;

  // Refuse to replace anything that is not an earlier export.
  std::string out = options.outDir;
  while (out.size() > 1 && path::is_separator(out.back()))
    out.pop_back();
  // A link to an earlier export is exported into where it points: the link
  // stays, and moving it aside would have removed what it points at along
  // with it (remove_directories follows the link it is given).
  if (fs::is_symlink_file(out)) {
    llvm::SmallString<256> real;
    if (std::error_code ec = fs::real_path(out, real))
      return fail("export directory "" + out + "" is a link that leads nowhere: " +
                  ec.message());
    out = real.str().str();
  }
  if (llvm::Error e = checkExportDestination(out, options.overwrite))
    return e;
  llvm::SmallString<256> parent(out);
  path::remove_filename(parent);
  if (!parent.empty())
    if (std::error_code ec = fs::create_directories(parent))
      return fail("cannot create " + parent + ": " + ec.message());

  std::string tmp = out + ".partial-" + std::to_string(getpid());
  fs::remove_directories(tmp);
  if (std::error_code ec = fs::create_directories(tmp))
    return fail("cannot create " + tmp + ": " + ec.message());
  auto cleanup = [&](llvm::Error e) {
    fs::remove_directories(tmp);
    return e;
  };
  const Model &m = *model;
  std::vector<std::pair<std::string, std::string>> generated = {
      {"__init__.py", emitPythonInit(m)},
      {"_runtime.py", pythonRuntime()},
      {m.package + ".h", emitCppHeader(m)},
      {m.package + "_cubin.h", emitCubinHeader(m, files["kernel.cubin"])},
      {"example.cpp", emitCppExample(m)},
      {"README.md", emitReadme(m)}};
  for (const char *name : {"kernel.cubin", "kernel.ptx", "manifest.json", "signature.json",
                           "schedule.json", "ptxas.txt"})
    if (files.count(name))
      generated.push_back({name, files[name]});
  // The marker lists what it wrote: a directory renamed since (another
  // package name) is still known for an export (the ninth sweep's M3); it
  // names the IR, not a temporary bundle since deleted.
  std::string marker = "Written by stagecraft-compile --export from " +
                       (m.source.empty() ? bundle : m.source) +
                       "; the exporter replaces this directory on the next export.\nfiles:";
  for (const auto &[name, text] : generated)
    marker += " " + name;
  generated.push_back({kMarker, marker + "\n"});
  for (const auto &[name, text] : generated)
    if (llvm::Error e = writeFile(tmp + "/" + name, text))
      return cleanup(std::move(e));

  std::string old = out + ".old-" + std::to_string(getpid());
  bool hadOld = fs::exists(out);
  if (hadOld)
    if (std::error_code ec = fs::rename(out, old))
      return cleanup(fail("cannot move the earlier export " + out + " aside: " + ec.message()));
  if (std::error_code ec = fs::rename(tmp, out)) {
    if (hadOld)
      fs::rename(old, out);
    return cleanup(fail("cannot move " + tmp + " to " + out + ": " + ec.message()));
  }
  if (hadOld)
    fs::remove_directories(old);
  return llvm::Error::success();
}
