//===- Target.h - the GPU a kernel is compiled for ------------------*- C++ -*-===//
//
// sm_90a (Hopper, the default: wgmma, accumulators in registers) or sm_100a
// (Blackwell: tcgen05.mma, accumulators in tensor memory, tcgen05.commit to
// an mbarrier as the MMA-pipelining signal). The lowering's placement, dot
// pattern and frame consult it (docs/compiler.md, "The sm_100a path");
// the back end picks the NVPTX CPU and PTX version and ptxas's -arch.
// There is no Blackwell GPU here: sm_100a bundles are compile-only.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_TARGET_H
#define STAGECRAFT_PASSES_TARGET_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace stagecraft {

struct Target {
  enum class Arch { Hopper, Blackwell };
  Arch arch = Arch::Hopper;

  bool blackwell() const { return arch == Arch::Blackwell; }
  /// "sm_90a" or "sm_100a": the NVPTX CPU and ptxas's -arch.
  llvm::StringRef name() const { return blackwell() ? "sm_100a" : "sm_90a"; }
  /// The PTX ISA the instructions need (tcgen05: 8.6).
  llvm::StringRef ptxFeature() const { return blackwell() ? "+ptx86" : "+ptx80"; }
  /// The dynamic shared memory one block may have.
  int64_t smemPerBlock() const { return 232448; } // 227 KiB on both

  static std::optional<Target> parse(llvm::StringRef name) {
    if (name == "sm_90a" || name.empty())
      return Target{Arch::Hopper};
    if (name == "sm_100a")
      return Target{Arch::Blackwell};
    return std::nullopt;
  }
  /// For messages: the targets parse() knows.
  static llvm::StringRef known() { return "sm_90a, sm_100a"; }
};

} // namespace stagecraft

#endif // STAGECRAFT_PASSES_TARGET_H
