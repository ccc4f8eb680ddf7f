//===- Tcgen05Plan.h - what the sm_100a lowering decides -------------*- C++ -*-===//
//
// Plain data kept in the KernelPlan (Placement.h) for the sm_100a path
// (Tcgen05.h): where each dot's accumulator lives in tensor memory, where a
// block-scaled dot's scales are staged and copied, and the barriers of the
// MMA issuer.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_PASSES_LOWERING_TCGEN05PLAN_H
#define STAGECRAFT_PASSES_LOWERING_TCGEN05PLAN_H

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <vector>

namespace stagecraft::lowering {

/// One dot of the pipelined loop (tile.dot or tile.dot_scaled) on tcgen05.
struct Tcgen05Dot {
  mlir::Operation *op = nullptr;
  int body = -1;            // its body unit
  int ringA = -1, ringB = -1; // rings of its operands (-1: a resident tile)
  int64_t accColumn = 0;    // tensor-memory column of its accumulator
  // tile.dot_scaled: the scale rings, the staging of their scales in the
  // layout tcgen05.cp reads (per ring slot: a 512-byte block per 128 rows),
  // and their tensor-memory columns (per ring slot: 4 columns per 128 rows).
  int ringSA = -1, ringSB = -1;
  int64_t stagingA = 0, stagingB = 0, stagingBytesA = 0, stagingBytesB = 0;
  int64_t sfaColumn = 0, sfbColumn = 0, sfaColumns = 0, sfbColumns = 0;
};

struct Tcgen05Plan {
  std::vector<Tcgen05Dot> dots;
  int64_t columns = 0;  // allocated tensor-memory columns (a power of 2, >= 32)
  int64_t tmemSlot = 0; // shared-memory word where tcgen05.alloc writes the address
  int64_t accBar = 0;   // mbarrier: every MMA of the loop has completed
};

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_TCGEN05PLAN_H
