//===- IndexEval.cpp - a kernel's scalar index math at given sizes --------===//
#include "core/Dialect/Tile/IR/IndexEval.h"
#include "core/Dialect/Tile/IR/Cluster.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace stagecraft::tile;

IndexEvaluator::IndexEvaluator(func::FuncOp kernel, const KernelSignature &sig,
                               ArrayRef<int64_t> sizes, ArrayRef<int64_t> grid)
    : kernel(kernel), sizes(sizes.begin(), sizes.end()), grid(grid.begin(), grid.end()) {
  while (this->grid.size() < 3)
    this->grid.push_back(1);
  for (auto [i, a] : llvm::enumerate(sig.sizeArgs))
    args[kernel.getArgument(a)] = sizes[i];
}

static int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
static int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

std::optional<int64_t> IndexEvaluator::eval(Value v, const DenseMap<Value, int64_t> &env) const {
  if (auto it = env.find(v); it != env.end())
    return it->second;
  if (auto it = args.find(v); it != args.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto c = dyn_cast<arith::ConstantOp>(def)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return i.getInt();
    return std::nullopt;
  }
  if (auto p = dyn_cast<ProgramIdOp>(def))
    return pid[p.getDim()];
  if (auto n = dyn_cast<NumProgramsOp>(def))
    return grid[n.getDim()];
  if (std::optional<int64_t> c = clusterOpValue(def, pid[0], grid[0]))
    return c;
  SmallVector<int64_t> x;
  for (Value o : def->getOperands()) {
    std::optional<int64_t> r = eval(o, env);
    if (!r)
      return std::nullopt;
    x.push_back(*r);
  }
  auto nonzero = [&](int64_t d) -> std::optional<int64_t> {
    return d == 0 ? std::nullopt : std::optional<int64_t>(d);
  };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case([&](arith::AddIOp) { return x[0] + x[1]; })
      .Case([&](arith::SubIOp) { return x[0] - x[1]; })
      .Case([&](arith::MulIOp) { return x[0] * x[1]; })
      .Case<arith::DivUIOp, arith::DivSIOp>([&](Operation *) -> std::optional<int64_t> {
        if (!nonzero(x[1])) return std::nullopt;
        return x[0] / x[1];
      })
      .Case<arith::RemUIOp, arith::RemSIOp>([&](Operation *) -> std::optional<int64_t> {
        if (!nonzero(x[1])) return std::nullopt;
        return x[0] % x[1];
      })
      .Case<arith::CeilDivUIOp, arith::CeilDivSIOp>([&](Operation *) -> std::optional<int64_t> {
        if (!nonzero(x[1])) return std::nullopt;
        return ceilDiv(x[0], x[1]);
      })
      .Case([&](arith::FloorDivSIOp) -> std::optional<int64_t> {
        if (!nonzero(x[1])) return std::nullopt;
        return floorDiv(x[0], x[1]);
      })
      .Case<arith::MinUIOp, arith::MinSIOp>([&](Operation *) { return std::min(x[0], x[1]); })
      .Case<arith::MaxUIOp, arith::MaxSIOp>([&](Operation *) { return std::max(x[0], x[1]); })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp>([&](Operation *) { return x[0]; })
      .Case([&](arith::SelectOp) { return x[0] ? x[1] : x[2]; })
      .Case([&](arith::CmpIOp c) -> std::optional<int64_t> {
        switch (c.getPredicate()) {
        case arith::CmpIPredicate::eq: return x[0] == x[1];
        case arith::CmpIPredicate::ne: return x[0] != x[1];
        case arith::CmpIPredicate::slt: case arith::CmpIPredicate::ult: return x[0] < x[1];
        case arith::CmpIPredicate::sle: case arith::CmpIPredicate::ule: return x[0] <= x[1];
        case arith::CmpIPredicate::sgt: case arith::CmpIPredicate::ugt: return x[0] > x[1];
        case arith::CmpIPredicate::sge: case arith::CmpIPredicate::uge: return x[0] >= x[1];
        }
        return std::nullopt;
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<double> IndexEvaluator::countBlock(Block &block, DenseMap<Value, int64_t> &env,
                                                 int64_t &budget) const {
  double flops = 0;
  for (Operation &op : block) {
    if (auto d = dyn_cast<DotOp>(op)) {
      flops += static_cast<double>(d.getFlops());
      continue;
    }
    if (auto d = dyn_cast<DotScaledOp>(op)) {
      flops += static_cast<double>(d.getFlops());
      continue;
    }
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    std::optional<int64_t> lb = eval(loop.getLowerBound(), env), ub = eval(loop.getUpperBound(), env),
                           step = eval(loop.getStep(), env);
    if (!lb || !ub || !step || *step <= 0)
      return std::nullopt;
    int64_t trips = *ub > *lb ? ceilDiv(*ub - *lb, *step) : 0;
    bool nested = !loop.getBody()->getOps<scf::ForOp>().empty();
    if (!nested) {
      // The body's dots run once per iteration, whatever the induction value.
      std::optional<double> body = countBlock(*loop.getBody(), env, budget);
      if (!body)
        return std::nullopt;
      flops += *body * trips;
      continue;
    }
    budget -= trips;
    if (budget < 0)
      return std::nullopt;
    for (int64_t i = 0; i < trips; ++i) {
      env[loop.getInductionVar()] = *lb + i * *step;
      std::optional<double> body = countBlock(*loop.getBody(), env, budget);
      if (!body)
        return std::nullopt;
      flops += *body;
    }
    env.erase(loop.getInductionVar());
  }
  return flops;
}

std::optional<double> IndexEvaluator::dotFlops(int64_t maxIterations) const {
  int64_t budget = maxIterations;
  double total = 0;
  for (int64_t z = 0; z < grid[2]; ++z)
    for (int64_t y = 0; y < grid[1]; ++y)
      for (int64_t x = 0; x < grid[0]; ++x) {
        if (--budget < 0)
          return std::nullopt;
        pid = {x, y, z};
        DenseMap<Value, int64_t> env;
        std::optional<double> f = countBlock(kernel.getBody().front(), env, budget);
        if (!f)
          return std::nullopt;
        total += *f;
      }
  return total;
}
