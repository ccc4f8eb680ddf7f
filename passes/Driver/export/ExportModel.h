//===- ExportModel.h - what an exported package says, read from a bundle -*- C++ -*-===//
//
// The bundle's manifest.json says how the kernel was launched at one set of
// sizes (tensor-map boxes, swizzles, block, shared memory); signature.json
// says the same shapes and grid as expressions of the sizes. The model
// combines them and checks that they agree at the compiled sizes, so the
// generated launchers reproduce exactly the launch the runner verified.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_DRIVER_EXPORT_EXPORTMODEL_H
#define STAGECRAFT_PASSES_DRIVER_EXPORT_EXPORTMODEL_H

#include "passes/Driver/Export.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::exporter {

/// An affine expression of the sizes (signature.json's tree).
struct Expr {
  enum class Kind { Size, Const, Add, Mul, FloorDiv, CeilDiv, Mod };
  Kind kind = Kind::Const;
  std::string size; // Size: its identifier
  int64_t value = 0;
  std::shared_ptr<Expr> lhs, rhs;

  int64_t eval(const std::map<std::string, int64_t> &sizes) const;
  /// Python, with sizes as plain names and _floordiv/_ceildiv/_mod helpers.
  std::string python() const;
  /// C++, with sizes as `prefix + name` and the header's helpers named as
  /// `helpers` says (detail:: inside its namespace, NAME::detail:: outside).
  std::string cpp(const std::string &prefix, const std::string &helpers = "detail::") const;
  /// The sizes whose product this is (B * H -> {B, H}), or none when it is
  /// anything else (a constant, a sum, a size times a constant).
  std::optional<std::vector<std::string>> factors() const;
};

struct SizeInfo {
  std::string name;  // as in the IR
  std::string ident; // a C++ and Python identifier
  int64_t defaultValue = 0;
  int64_t compiled = 0; // the value in the manifest
  std::string dtype = "i32";
  /// Other sizes must be a multiple of this (signature.json's multiple_of):
  /// a load's innermost coordinate depends on it and TMA starts a copy at a
  /// 16-byte unit; 1 when free.
  int64_t multipleOf = 1;
};

struct TensorArg {
  std::string name;  // as in the IR (%Q -> Q), else the manifest's
  std::string ident; // a C++ identifier for the pointer parameter
  std::string role;  // input | output | inout | unused
  std::string dtype; // bf16 | f16 | f32 | i32
  int64_t elemBytes = 2;
  std::string access; // tensormap | pointer
  std::vector<Expr> view;
  std::vector<std::string> viewText;
  /// Per view dimension: the sizes it splits into in the natural shape.
  std::vector<std::optional<std::vector<std::string>>> factors;
  std::vector<int64_t> box, elementStrides;
  std::string swizzle = "none", l2Promotion = "none", oobFill = "zero";
  std::string manifestTensor; // its name in manifest.json
  /// [low, high) its elements must lie in, as text of the sizes (tile.init;
  /// signature.json's init_text), or empty.
  std::vector<std::string> initText;
  /// The same range as numbers (an array<f64: LOW, HIGH>) or as expressions
  /// of the sizes (an affine map): the example draws the input there.
  std::optional<std::pair<double, double>> initRange;
  std::optional<std::pair<Expr, Expr>> initBounds;
  /// Its elements are read by index (tensor.extract; signature.json's
  /// "indexed"): indices checked at the compiled sizes only.
  bool indexed = false;

  /// The natural shape's dimension texts: each product of sizes split.
  std::vector<std::string> naturalText() const;
  /// The natural shape as C++ expressions of `prefix`+size.
  std::vector<std::string> naturalCpp(const std::string &prefix) const;
};

struct Param {
  enum class Kind { Tensor, Size } kind = Kind::Tensor;
  int index = 0; // into tensors or sizes
};

struct ScheduleRow {
  std::string name;
  int64_t stage = 0, order = 0, group = 0, wait = 0;
};

struct Model {
  std::string package, kernel, bundleDir;
  std::string source; // the IR file it was compiled from
  std::vector<SizeInfo> sizes;
  std::vector<TensorArg> tensors;
  std::vector<Param> params;
  std::vector<Expr> grid;
  std::vector<std::string> gridText;
  int64_t block[3] = {1, 1, 1};
  int64_t dynamicSmem = 0;
  std::optional<std::vector<int64_t>> cluster;
  double flops = 0; // at the compiled sizes
  llvm::json::Object reference;
  std::string referenceKind = "none";
  std::string steadyState, scheduleSummary;
  int64_t stages = 1;
  std::vector<ScheduleRow> schedule;
  std::string ptxasText;
  int registers = -1, spillBytes = 0;
  std::optional<ExportMeasurement> measured;

  /// The tensor a reference field ("q", "a", ...) names, or -1.
  int referenceTensor(llvm::StringRef field) const;
  const TensorArg *findTensor(llvm::StringRef manifestName) const;
};

/// Reads and cross-checks the bundle's JSON. `files` maps a file name
/// (manifest.json, signature.json, schedule.json, ptxas.txt) to its text.
llvm::Expected<Model> buildModel(const std::map<std::string, std::string> &files,
                                 const std::string &bundleDir,
                                 const std::string &package);

/// A C++ and Python identifier made of `name` (invalid characters become
/// '_', keywords get a trailing '_').
std::string identifier(const std::string &name);
/// The same without the generated code's own names and prefixes: what a
/// package name must equal (its checks are exportPackageName's).
std::string plainIdentifier(const std::string &name);

} // namespace stagecraft::exporter

#endif // STAGECRAFT_PASSES_DRIVER_EXPORT_EXPORTMODEL_H
