//===- Tolerance.cpp - how closely an output must match its reference -----===//
//
// The pipelined kernel and its reference compute the same function from the
// same inputs; they differ only by rounding: accumulation order (fp32), the
// moment a value is rounded to 16 bits (the same rounding of slightly
// different inputs can land one ulp apart), and approximate PTX functions.
// So the tolerance of an output follows from the values computed on its way
// (not the inputs, which both read alike):
//   u   = the largest unit roundoff among them (2^-8 bf16, 2^-11 f16,
//         2^-24 f32) and the approximations (2^-10 for tanh.approx),
//   acc = 2^-24 sqrt(L) for the longest reduction L (dot K times trips,
//         row sums), and at least 2^-24 L / 64 for a 16-bit dot's: wgmma's
//         fp32 sums drift with L, not its square root (measured on an H200:
//         norm-wise 4e-6 at K = 4096, 3.1e-4 at K = 262144, about
//         2^-24 L / 50 both; bench/results/unseen-sweep-h200-2026-11-28c);
//         for a dot of fp8 inputs 2^-13 sqrt(L / 32), L its own
//         accumulation (K alone where each iteration starts it from zero
//         and adds it to the running sum in fp32: promoted): the
//         H100's fp8 wgmma adds each 32-deep step's products into its
//         accumulator with 13 mantissa bits, not 23 (measured: an e4m3 GEMM
//         with an f32 output at K = 3072 lands 1e-3 norm-wise from the
//         reference's fp32 sums, bench/results/heldout-variants-seed29-h100-
//         2026-11-28; DeepSeek-V3 and PyTorch's measurements agree),
//   norm-wise relative error <= 2.5 u + 4 acc (at least 1e-5),
//   max relative error       <= 16 u + 16 acc (at least 1e-4).
// For a bf16 output that is 1.0e-2 and 6.3e-2: a real bug (a missed tile, a
// wrong index) lands at 1e-1 or worse. Values rounded to FP8 (2^-4 e4m3,
// 2^-3 e5m2) are not counted in u: kernel and reference round to the same
// grid and differ by a step only where they straddle a boundary (below).
//
//===----------------------------------------------------------------------===//
#include "passes/Driver/Manifest.h"
#include "core/Dialect/Tile/IR/TileDialect.h"
#include "passes/Lowering/patterns/Patterns.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;

namespace {

/// The tensor values `value` is computed from, through loops' carried values.
llvm::SetVector<Value> sliceOf(Value value) {
  llvm::SetVector<Value> slice;
  SmallVector<Value> work = {value};
  auto push = [&](Value v) {
    if (isa<RankedTensorType>(v.getType()) && slice.insert(v))
      work.push_back(v);
  };
  while (!work.empty()) {
    Value v = work.pop_back_val();
    slice.insert(v);
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
          loop && arg.getArgNumber() > 0) {
        push(loop.getInitArgs()[arg.getArgNumber() - 1]);
        push(loop.getBody()->getTerminator()->getOperand(arg.getArgNumber() - 1));
      }
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      unsigned i = cast<OpResult>(v).getResultNumber();
      push(loop.getRegionIterArgs()[i]);
      continue;
    }
    for (Value o : def->getOperands())
      push(o);
  }
  return slice;
}

/// The tolerance of a value computed as `slice` says (the rounding and the
/// reductions on its way), flips aside.
OutputTolerance roundingTolerance(const llvm::SetVector<Value> &slice, int64_t loopTrips) {
  double u = std::ldexp(1.0, -24);
  int64_t longest = 1, longestFp8 = 0, longestDot = 0;
  auto reductionOf = [&](Operation *dot, int64_t k, Value acc) {
    auto loop = dot->getParentOfType<scf::ForOp>();
    int64_t l = k * (loop ? loopTrips : 1);
    longest = std::max(longest, l);
    // The wgmma's short sums reach only its own accumulator: a dot that
    // starts from a value made outside the loop each iteration (a promoted
    // partial sum, added to the running one in fp32 registers) sums K deep.
    bool fresh = loop && loop.isDefinedOutsideOfLoop(acc);
    if (isFp8(cast<RankedTensorType>(dot->getOperand(0).getType()).getElementType()))
      longestFp8 = std::max(longestFp8, fresh ? k : l);
    else
      longestDot = std::max(longestDot, l);
  };
  std::string roundedBy = "f32", fp8Type;
  double uFp8 = 0;
  for (Value v : slice) {
    Operation *def = v.getDefiningOp();
    if (!def || isa<LoadOp, scf::ForOp>(def))
      continue; // inputs are read alike by both; loops pass values through
    Type t = cast<RankedTensorType>(v.getType()).getElementType();
    if (isFp8(t)) {
      uFp8 = std::max(uFp8, std::ldexp(1.0, -lowering::mantissaBits(t)));
      llvm::raw_string_ostream(fp8Type = "") << t;
    } else if (isa<FloatType>(t)) {
      double ut = std::ldexp(1.0, -lowering::mantissaBits(t));
      if (ut > u) {
        u = ut;
        llvm::raw_string_ostream(roundedBy = "") << t;
      }
    }
    if (const lowering::TilePattern *p = lowering::findPattern(def))
      if (int a = p->approximationLog2(def); a && std::ldexp(1.0, a) > u) {
        u = std::ldexp(1.0, a);
        roundedBy = def->getName().getStringRef().str() + " (approximate)";
      }
    if (auto d = dyn_cast<DotOp>(def))
      reductionOf(d, d.getK(), d.getAcc());
    // A block-scaled dot's FP8 operands are upcast to bf16 (exactly: 3 or 2
    // mantissa bits times a power of two) for a bf16 wgmma that sums in
    // fp32 (the lowering on sm_90a): no FP8 accumulation to count (the
    // twelfth sweep's M3).
    if (auto d = dyn_cast<DotScaledOp>(def))
      longest = std::max(longest, d.getK() * (d->getParentOfType<scf::ForOp>() ? loopTrips : 1)),
      longestDot = std::max(longestDot, d.getK() * (d->getParentOfType<scf::ForOp>() ? loopTrips : 1));
    if (auto r = dyn_cast<ReduceOp>(def))
      longest = std::max(longest, cast<RankedTensorType>(r.getInput().getType())
                                      .getDimSize(r.getDim()));
  }
  double acc = std::ldexp(1.0, -24) * std::max(std::sqrt(static_cast<double>(longest)),
                                                longestDot / 64.0);
  double accFp8 = std::ldexp(1.0, -13) * std::sqrt(static_cast<double>(longestFp8) / 32);
  OutputTolerance t;
  t.normRel = std::max(2.5 * u + 4 * std::max(acc, accFp8), 1e-5);
  t.maxRel = std::max(16 * u + 16 * std::max(acc, accFp8), 1e-4);
  t.basis = llvm::formatv("values rounded to {0}; reductions up to {1}", roundedBy, longest).str();
  if (uFp8 > 0) {
    // Rounded to FP8 (a quantized output): both round the same value to the
    // same grid, so they differ only where their values, `normRel` apart,
    // straddle a rounding boundary, by one FP8 step (2 uFp8 relative): a
    // fraction normRel / (2 uFp8) of the elements, sqrt(2 normRel uFp8)
    // norm-wise (taken twice), one step at the largest magnitude at most.
    t.normRel += 2 * std::sqrt(2 * t.normRel * uFp8);
    t.maxRel += 2 * uFp8;
    t.basis += llvm::formatv("; rounded to {0} (one step apart where kernel and reference "
                             "straddle a rounding boundary)",
                             fp8Type)
                   .str();
  }
  if (longestFp8 > 0)
    t.basis += llvm::formatv("; fp8 dots up to {0} deep, accumulated with 13 mantissa bits a "
                             "32-deep step",
                             longestFp8)
                   .str();
  return t;
}

/// Whether both kernel and reference hold `v` exactly as read: an input's
/// elements, constants, and what widens, negates, broadcasts, picks among
/// or takes the largest or smallest of them (an argmax's candidate column
/// numbers).
/// A loop's carried value is exact when what it starts from and what each
/// iteration passes on are, given that it is (a running argmax's maximum and
/// column: the eleventh sweep's m1); `assumed` holds those being shown.
bool carriedAlike(Value v, SmallVectorImpl<Value> &assumed,
                  llvm::function_ref<bool(Value)> alike) {
  auto arg = dyn_cast<BlockArgument>(v);
  auto loop = arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()) : scf::ForOp();
  if (!loop || arg.getArgNumber() == 0)
    return false;
  if (llvm::is_contained(assumed, v))
    return true;
  assumed.push_back(v);
  unsigned i = arg.getArgNumber() - 1;
  bool ok = alike(loop.getInitArgs()[i]) &&
            alike(loop.getBody()->getTerminator()->getOperand(i));
  assumed.pop_back();
  return ok;
}

bool readExactly(Value v, SmallVectorImpl<Value> &assumed, int depth = 0) {
  auto exact = [&](Value o) { return readExactly(o, assumed, depth + 1); };
  Operation *def = v.getDefiningOp();
  if (!def)
    return isa<func::FuncOp>(v.getParentBlock()->getParentOp()) || // a scalar argument
           (depth <= 16 && carriedAlike(v, assumed, exact));
  if (isa<LoadOp, arith::ConstantOp, IotaOp>(def))
    return true;
  if (depth > 16)
    return false;
  if (auto loop = dyn_cast<scf::ForOp>(def)) // what its last iteration passed on
    return exact(loop.getRegionIterArgs()[cast<OpResult>(v).getResultNumber()]);
  if (auto select = dyn_cast<arith::SelectOp>(def)) // whichever the condition picks
    return exact(select.getTrueValue()) && exact(select.getFalseValue());
  if (auto reduce = dyn_cast<ReduceOp>(def))
    return reduce.getKind() == ReduceKind::Max &&
           exact(reduce.getInput());
  if (!isa<BroadcastOp, arith::ExtFOp, arith::SIToFPOp, arith::UIToFPOp, arith::NegFOp,
           math::AbsFOp, arith::ExtSIOp, arith::ExtUIOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp, tensor::SplatOp, tensor::ExtractOp>(def))
    return false;
  return llvm::all_of(def->getOperands(), exact);
}

/// Whether `v` holds whole numbers both compute exactly (below 2^24 in f32):
/// column numbers, counts of 0/1, what adds, multiplies, picks or takes the
/// largest of them. Rounding it to an integer changes nothing (a count's
/// fptosi was taken for a rounding that may step: the eleventh sweep's m2).
bool readIntegral(Value v, SmallVectorImpl<Value> &assumed, int depth = 0) {
  auto integral = [&](Value o) { return readIntegral(o, assumed, depth + 1); };
  Operation *def = v.getDefiningOp();
  if (depth > 16)
    return false;
  if (!def)
    return carriedAlike(v, assumed, integral);
  if (auto loop = dyn_cast<scf::ForOp>(def))
    return integral(loop.getRegionIterArgs()[cast<OpResult>(v).getResultNumber()]);
  if (auto c = dyn_cast<arith::ConstantOp>(def)) {
    if (auto d = dyn_cast<DenseElementsAttr>(c.getValue())) {
      if (d.getElementType().isInteger())
        return true;
      if (isa<FloatType>(d.getElementType()))
        return llvm::all_of(d.getValues<APFloat>(), [](const APFloat &f) { return f.isInteger(); });
    }
    if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      return f.getValue().isInteger();
    return isa<IntegerAttr>(c.getValue());
  }
  if (isa<IotaOp, arith::SIToFPOp, arith::UIToFPOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return true;
  if (auto load = dyn_cast<LoadOp>(def))
    return load.getDesc().getType().getElementType().isInteger(32);
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return integral(select.getTrueValue()) && integral(select.getFalseValue());
  if (auto reduce = dyn_cast<ReduceOp>(def))
    return integral(reduce.getInput());
  if (!isa<BroadcastOp, arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp,
           arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
           tensor::SplatOp>(def))
    return false;
  return llvm::all_of(def->getOperands(), integral);
}

} // namespace

OutputTolerance stagecraft::toleranceFor(StoreOp store, int64_t loopTrips) {
  llvm::SetVector<Value> slice = sliceOf(store.getValue());
  const OutputTolerance rounded = roundingTolerance(slice, loopTrips);
  OutputTolerance t = rounded;
  // The sum reductions on the way and what each sums (its input's slice),
  // for counts of comparisons below: made once, not per comparison.
  SmallVector<std::pair<ReduceOp, llvm::SetVector<Value>>> sums;
  for (Value r : slice)
    if (auto reduce = r.getDefiningOp<ReduceOp>(); reduce && reduce.getKind() == ReduceKind::Sum)
      sums.push_back({reduce, sliceOf(reduce.getInput())});
  if (store.getDesc().getType().getElementType().isInteger(32)) {
    // Integers (indices, counts) match exactly, but where a rounding to an
    // integer or a comparison of rounded values flips (below): 1e-10 of the
    // largest is less than one step of any i32 (the runner compares in fp32).
    t.normRel = t.maxRel = 1e-10;
    t.basis = "i32 values, exact";
  }
  // Flips: a comparison (or a rounding to an integer) of values kernel and
  // reference compute a rounding apart gives either answer near a tie (an
  // argmax: two logits of a row within the sums' rounding). No tolerance on
  // the values covers it; a fraction of the elements may miss by anything.
  // Near a tie within a relative distance d of the operands' scale lie
  // about d times a few of them (the density of a gap between two values
  // drawn alike, a row's largest two among N: sqrt(2 ln N) / sigma), so
  // 64 d, d the operands' own tolerance, up to 1% (a wrong kernel misses
  // most of its elements: a column off, a tile missed).
  Operation *flipAt = nullptr;
  SmallVector<Value, 4> assumed;
  for (Value v : slice) {
    Operation *def = v.getDefiningOp();
    const lowering::TilePattern *p = def ? lowering::findPattern(def) : nullptr;
    if (!p || !p->discontinuous(def))
      continue;
    bool rounding =
        !isa<arith::CmpFOp>(def) && !isa<math::CopySignOp, math::Atan2Op, arith::RemFOp>(def);
    for (Value o : def->getOperands()) {
      if (!isa<RankedTensorType>(o.getType()) ||
          !isa<FloatType>(cast<RankedTensorType>(o.getType()).getElementType()) ||
          readExactly(o, assumed) || (rounding && readIntegral(o, assumed)))
        continue;
      double d = roundingTolerance(sliceOf(o), loopTrips).normRel;
      // A sum over N of what it decides (a count of a row's values over a
      // threshold) changes where any of its N flips: N times as many (the
      // eleventh sweep's B2).
      double n = 1;
      bool count = false; // a sum of whole numbers: each flip moves it by one
      for (auto &[reduce, summed] : sums)
        if (summed.contains(def->getResult(0))) {
          n = std::max(n, double(cast<RankedTensorType>(reduce.getInput().getType())
                                     .getDimSize(reduce.getDim())));
          count |= readIntegral(reduce.getInput(), assumed);
        }
      double f = std::min(64 * d * n, 0.01);
      if (f > t.flipFraction) {
        t.flipFraction = f;
        flipAt = def;
      }
      // A rounding to an integer moves the value by a step where it flips,
      // never by more: the output is the value before it within its
      // tolerance and one step (a quantizer's round(x * 32767 / max) is a
      // step off in a third of its elements where its sums are a rounding
      // apart: exact with flips failed it: the eleventh sweep's B1); so
      // does a count, a flip at a time (a sum of other values, a masked row
      // sum, takes no step: one of 1 would check nothing of values near 1).
      if (rounding || count)
        t.step = 1;
    }
  }
  if (t.step > 0 && store.getDesc().getType().getElementType().isInteger(32)) {
    // Then an i32 output is the rounded value's: its float tolerance.
    t.normRel = rounded.normRel;
    t.maxRel = rounded.maxRel;
    t.basis = "i32 values from " + rounded.basis;
  }
  if (flipAt) {
    std::string where;
    if (auto loc = dyn_cast<FileLineColLoc>(flipAt->getLoc()))
      where = llvm::formatv(" (line {0})", loc.getLine()).str();
    t.basis += llvm::formatv("; through {0}{1} of rounded values: up to {2:P} of the elements "
                             "may land on the other side of a tie",
                             flipAt->getName().getStringRef(), where, t.flipFraction)
                   .str();
    if (t.step > 0)
      t.basis += "; rounded to integers: one step more allowed";
  }
  return t;
}
