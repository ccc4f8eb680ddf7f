//===- Export.h - a compiled kernel as a package for a user's project -*- C++ -*-===//
//
// exportPackage() turns a kernel bundle (manifest.json + signature.json +
// kernel.cubin, docs/bundle-format.md) into a directory a user drops into
// their project (docs/export.md):
//
//   DIR/__init__.py      Python: run(q, k, v) on torch tensors (ctypes on the
//   DIR/_runtime.py      CUDA driver; the cubin is loaded, nothing compiled)
//   DIR/NAME.h           C++: the CUDA driver API only; tensor maps from
//                        device pointers and sizes, checks, launch
//   DIR/NAME_cubin.h     the cubin as a byte array, for embedding
//   DIR/example.cpp      builds with nvcc, runs the kernel, checks on the CPU
//   DIR/README.md        what it computes, the schedule, the steady state,
//                        the measured TFLOP/s when there is one
//   DIR/kernel.cubin, kernel.ptx, manifest.json, signature.json,
//   DIR/schedule.json, ptxas.txt
//
// NAME is DIR's last component (a Python package name, so an identifier).
// Everything is derived from the bundle, so any kernel the compiler accepts
// exports the same way. The package is written beside DIR and renamed into
// place: a failure never leaves a half-written package.
//
// No MLIR here: the exporter reads the bundle's JSON only.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_EXPORT_H
#define STAGECRAFT_PASSES_DRIVER_EXPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>
#include <map>
#include <string>

namespace stagecraft {

/// A measured run of the bundle (a stagecraft-run result), for the README.
struct ExportMeasurement {
  std::string device;
  bool verified = false;
  std::optional<double> tflops, medianUs, maxRelErr;
  std::string referenceName;
  std::optional<double> referenceTflops;
  /// What the run says it ran (checked against the bundle: a result of
  /// another kernel or other sizes is not this package's speed); empty
  /// where the result does not say (the app's own runs, of this bundle).
  std::string kernel;
  std::vector<int64_t> grid;
  std::map<std::string, int64_t> problem;
};

/// Reads a stagecraft-run result (one JSON object, docs/runner-protocol.md).
/// Only a result with status "ok" is a measurement.
llvm::Expected<ExportMeasurement> parseMeasurement(llvm::StringRef json,
                                                   llvm::StringRef sourceName);

struct ExportOptions {
  std::string bundleDir;
  std::string outDir;
  std::optional<ExportMeasurement> measured;
  /// Replace an earlier export at outDir (a directory with a
  /// .stagecraft-export marker); any other existing directory is refused.
  bool overwrite = true;
};

/// Writes the package; errors name the bundle file and field at fault.
llvm::Error exportPackage(const ExportOptions &options);

/// Whether exportPackage may write at `outDir`: a new path or an earlier
/// export (replaced when `overwrite`); checked before compiling too.
llvm::Error checkExportDestination(llvm::StringRef outDir, bool overwrite = true);

/// The package name exportPackage would use for `outDir`, or an error
/// saying why it cannot be one.
llvm::Expected<std::string> exportPackageName(llvm::StringRef outDir);

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_DRIVER_EXPORT_H
