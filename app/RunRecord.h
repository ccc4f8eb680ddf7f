//===- RunRecord.h - one compiled (and maybe run) schedule variant -*- C++ -*-===//
//
// The runs panel lists every variant the session compiled: its schedule, what
// the compile said, and what the runner measured. Records are autosaved, so
// they are plain data with a JSON form.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_APP_RUNRECORD_H
#define STAGECRAFT_APP_RUNRECORD_H

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::app {

enum class RunState {
  CompileFailed, // the full compile reported an error (see `error`)
  Compiled,      // a bundle exists; not sent to the runner (yet)
  Queued,        // sent to the runner, waiting for its turn
  Running,
  Done,          // the runner answered (see `status`)
  NotRun,        // the runner could not take it (unavailable, crashed, hung)
};
const char *runStateName(RunState s);

struct RunRecord {
  uint64_t id = 0;       // variant number within the session, from 1
  std::string irPath;    // the IR it belongs to
  std::string scheduleJson;
  /// A persistent kernel's tile order when it was compiled ("grouped:8",
  /// TileLoop::orderSpec; the board's tile-order control changes the IR's):
  /// a variant is a schedule of the IR in one tile order. "" otherwise.
  std::string tileOrder;
  /// The GPU it was compiled for ("sm_90a"; "sm_100a" is compile-only: no
  /// Blackwell runner here).
  std::string target = "sm_90a";
  std::string steadyState;
  int64_t stages = 0;
  int64_t smemBytes = 0;
  RunState state = RunState::Compiled;
  std::string error;      // compile diagnostic or runner failure
  std::string bundleDir;
  double compileSeconds = 0;
  int registers = -1;     // ptxas, when it ran
  int spillBytes = 0;
  // From the runner.
  std::string status;     // ok | error | fault | timeout | verify_failed
  bool verified = false;
  std::optional<double> tflops, referenceTflops, ratioToReference, medianUs;
  std::string device;
  std::vector<std::string> warnings; // the runner's, with the result
  /// Runner request id while queued or running (not saved).
  uint64_t request = 0;

  /// "verified 412.3 TFLOP/s", "compile failed", "queued", ...
  std::string resultText() const;
};

llvm::json::Value runToJson(const RunRecord &r);
/// Reads what runToJson wrote; tolerant of missing fields (older files).
bool runFromJson(const llvm::json::Value &v, RunRecord &r);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_RUNRECORD_H
