//===- SplitScaledDots.cpp - tile.dot_scaled as upcasts and a dot ---------===//
//
// sm_90a has no block-scaled MMA: a tile.dot_scaled runs as its definition,
// two tile.upcast to bf16 (exact: an FP8 value times a power of two) and a
// bf16 wgmma. The upcasts take the dot's schedule under the name
// "<dot>.upcast" (one unit: stage, group and order of the dot; program order
// puts them first in the body); a dot without a schedule leaves them without
// one too (the defaults then give them units of their own).
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/SplitScaledDots.h"
#include "passes/Passes.h"

#include "mlir/IR/Builders.h"

namespace stagecraft {
#define GEN_PASS_DEF_TILESPLITDOTSCALED
#include "passes/Passes.h.inc"
} // namespace stagecraft

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;

void stagecraft::lowering::splitScaledDots(func::FuncOp kernel) {
  SmallVector<DotScaledOp> dots;
  kernel.walk([&](DotScaledOp d) { dots.push_back(d); });
  for (DotScaledOp d : dots) {
    OpBuilder b(d);
    Location loc = d.getLoc();
    auto bf16 = [&](Value v) {
      auto t = cast<RankedTensorType>(v.getType());
      return RankedTensorType::get(t.getShape(), b.getBF16Type());
    };
    auto a = UpcastOp::create(b, loc, bf16(d.getA()), d.getA(), d.getAScale());
    auto bb = UpcastOp::create(b, loc, bf16(d.getB()), d.getB(), d.getBScale());
    auto dot = DotOp::create(b, loc, d.getResult().getType(), a.getResult(), bb.getResult(),
                             d.getAcc(), /*transpose_a=*/false, /*transpose_b=*/true);
    if (ScheduleAttr s = getSchedule(d)) {
      auto upcast = ScheduleAttr::get(d.getContext(), (s.getName() + ".upcast").str(),
                                      s.getStage(), s.getOrder(), s.getGroup(), 0);
      setSchedule(a, upcast);
      setSchedule(bb, upcast);
      setSchedule(dot, s);
    }
    d.getResult().replaceAllUsesWith(dot.getResult());
    d.erase();
  }
}

namespace {
struct TileSplitDotScaledPass
    : stagecraft::impl::TileSplitDotScaledBase<TileSplitDotScaledPass> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp f) { lowering::splitScaledDots(f); });
  }
};
} // namespace
