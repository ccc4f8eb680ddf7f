//===- ConsumerLoop.h - the consumer warp groups' code -------------*- C++ -*-===//
#ifndef STAGECRAFT_PASSES_LOWERING_CONSUMERLOOP_H
#define STAGECRAFT_PASSES_LOWERING_CONSUMERLOOP_H

#include "passes/Lowering/WarpGroupFrame.h"

namespace stagecraft::lowering {

/// Emits what the consumer warp groups run: the ops before the loop, the
/// expanded loop, the ops after it and the stores. `ctid` is the thread's
/// index among the consumers.
void emitConsumers(hopper::Emitter &e, KernelPlan &plan, WarpGroupFrame &frame,
                   mlir::Value ctid);

} // namespace stagecraft::lowering

#endif // STAGECRAFT_PASSES_LOWERING_CONSUMERLOOP_H
