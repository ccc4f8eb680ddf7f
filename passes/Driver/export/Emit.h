//===- Emit.h - the files of an exported package ------------------*- C++ -*-===//
//
// One function per generated file; each takes the checked Model and returns
// the file's text. Export.cpp writes them.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_EXPORT_EMIT_H
#define STAGECRAFT_PASSES_DRIVER_EXPORT_EMIT_H

#include "passes/Driver/export/ExportModel.h"

#include <string>

namespace stagecraft::exporter {

/// __init__.py: the kernel's spec and run() / plan().
std::string emitPythonInit(const Model &m);
/// _runtime.py: the same for every kernel (embedded from export/runtime.py).
std::string pythonRuntime();
/// NAME.h: the C++ launcher (CUDA driver API only).
std::string emitCppHeader(const Model &m);
/// NAME_cubin.h: the cubin as a byte array.
std::string emitCubinHeader(const Model &m, const std::string &cubin);
/// example.cpp: allocates, fills, launches, times, checks on the CPU.
std::string emitCppExample(const Model &m);
/// README.md.
std::string emitReadme(const Model &m);

/// A number as %.6g prints it ("0.0883883").
std::string shortNumber(double v);
/// The fewest digits that read back as `v` ("0.001", "17", "-3e+38"): a
/// range written as the IR has it.
std::string exactNumber(double v);

/// "(B, H, S, 128)".
std::string tupleText(const std::vector<std::string> &parts);

} // namespace stagecraft::exporter

#endif // STAGECRAFT_PASSES_DRIVER_EXPORT_EMIT_H
