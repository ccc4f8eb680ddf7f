//===- IndexEval.cpp - a kernel's scalar index math at given sizes --------===//
#include "core/Dialect/Tile/IR/IndexEval.h"
#include "core/Dialect/Tile/IR/Cluster.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>
#include <numeric>
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
  for (auto [a, shape] : llvm::zip(sig.descArgs, sig.descShapes))
    extents[kernel.getArgument(a)] = KernelSignature::evaluate(shape, sizes);
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
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return x[0];
  if (isa<arith::SelectOp>(def))
    return x[0] ? x[1] : x[2];
  if (x.size() != 2)
    return std::nullopt;
  return foldIntBinary(def, x[0], x[1]);
}

std::optional<int64_t> stagecraft::tile::foldIntBinary(Operation *op, int64_t x, int64_t y) {
  // Shifts past the word and division by zero are not evaluated.
  auto shift = [&](auto f) -> std::optional<int64_t> {
    if (y < 0 || y > 62) return std::nullopt;
    return f();
  };
  auto divisor = [&](auto f) -> std::optional<int64_t> {
    if (y == 0) return std::nullopt;
    return f();
  };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case([&](arith::AddIOp) { return x + y; })
      .Case([&](arith::SubIOp) { return x - y; })
      .Case([&](arith::MulIOp) { return x * y; })
      .Case<arith::DivUIOp, arith::DivSIOp>([&](Operation *) { return divisor([&] { return x / y; }); })
      .Case<arith::RemUIOp, arith::RemSIOp>([&](Operation *) { return divisor([&] { return x % y; }); })
      .Case<arith::CeilDivUIOp, arith::CeilDivSIOp>(
          [&](Operation *) { return divisor([&] { return ceilDiv(x, y); }); })
      .Case([&](arith::FloorDivSIOp) { return divisor([&] { return floorDiv(x, y); }); })
      .Case<arith::MinUIOp, arith::MinSIOp>([&](Operation *) { return std::min(x, y); })
      .Case<arith::MaxUIOp, arith::MaxSIOp>([&](Operation *) { return std::max(x, y); })
      // Bit operations: a tile index swizzled by an xor, a division by a
      // power of two written as a shift.
      .Case([&](arith::AndIOp) { return x & y; })
      .Case([&](arith::OrIOp) { return x | y; })
      .Case([&](arith::XOrIOp) { return x ^ y; })
      .Case([&](arith::ShLIOp) {
        return shift([&] { return static_cast<int64_t>(static_cast<uint64_t>(x) << y); });
      })
      .Case([&](arith::ShRUIOp) {
        return shift([&] { return static_cast<int64_t>(static_cast<uint64_t>(x) >> y); });
      })
      .Case([&](arith::ShRSIOp) { return shift([&] { return x >> y; }); })
      .Case([&](arith::CmpIOp c) -> std::optional<int64_t> {
        switch (c.getPredicate()) {
        case arith::CmpIPredicate::eq: return x == y;
        case arith::CmpIPredicate::ne: return x != y;
        case arith::CmpIPredicate::slt: case arith::CmpIPredicate::ult: return x < y;
        case arith::CmpIPredicate::sle: case arith::CmpIPredicate::ule: return x <= y;
        case arith::CmpIPredicate::sgt: case arith::CmpIPredicate::ugt: return x > y;
        case arith::CmpIPredicate::sge: case arith::CmpIPredicate::uge: return x >= y;
        }
        return std::nullopt;
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// The loads dimension `dim` of `v` comes from (see usefulDotFlops).
static void traceDim(Value v, unsigned dim, SmallVectorImpl<Operation *> &loads,
                     SmallVectorImpl<unsigned> &boxDims, DenseSet<std::pair<void *, unsigned>> &seen) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  Operation *def = v.getDefiningOp();
  if (!type || !def || dim >= type.getRank() || !seen.insert({v.getAsOpaquePointer(), dim}).second)
    return;
  auto trace = [&](Value w, unsigned d) { traceDim(w, d, loads, boxDims, seen); };
  llvm::TypeSwitch<Operation *>(def)
      .Case([&](LoadOp load) {
        loads.push_back(load);
        boxDims.push_back(dim + (load.getDesc().getType().getRank() - type.getRank()));
      })
      .Case([&](DotOp d) {
        if (dim == 0)
          trace(d.getA(), d.getTransposeA() ? 1 : 0);
        else
          trace(d.getB(), d.getTransposeB() ? 0 : 1);
      })
      .Case([&](DotScaledOp d) {
        if (dim == 0)
          trace(d.getA(), 0);
        else
          trace(d.getB(), d.getTransposeB() ? 0 : 1);
      })
      .Case([&](BroadcastOp b) {
        if (dim != b.getDim())
          trace(b.getInput(), dim > b.getDim() ? dim - 1 : dim);
      })
      .Case([&](ReduceOp r) { trace(r.getInput(), dim >= r.getDim() ? dim + 1 : dim); })
      .Case([&](IotaOp) {})
      // An upcast's element is its input's: its scale tile is one per 32
      // elements along K (traced as element-wise, its 256-wide K box made
      // the dot's K 8 and its rows clipped M: 1024x too few FLOPs, the
      // thirteenth sweep's B1).
      .Case([&](UpcastOp u) { trace(u.getInput(), dim); })
      .Default([&](Operation *op) {
        // Element-wise math (and tile.mask): an element is padding where
        // any operand's is.
        for (Value o : op->getOperands())
          if (auto t = dyn_cast<RankedTensorType>(o.getType()); t && t.getRank() == type.getRank())
            trace(o, dim);
      });
}

const std::array<SmallVector<IndexEvaluator::DimSource>, 3> &
IndexEvaluator::sourcesOf(Operation *dot) const {
  auto it = sources.find(dot);
  if (it != sources.end())
    return it->second;
  std::array<SmallVector<DimSource>, 3> out;
  auto collect = [&](Value v, unsigned dim, SmallVector<DimSource> &into) {
    SmallVector<Operation *> loads;
    SmallVector<unsigned> boxDims;
    DenseSet<std::pair<void *, unsigned>> seen;
    traceDim(v, dim, loads, boxDims, seen);
    for (auto [l, d] : llvm::zip(loads, boxDims))
      into.push_back({l, d});
  };
  if (auto d = dyn_cast<DotOp>(dot)) {
    collect(d.getA(), d.getTransposeA() ? 1 : 0, out[0]);
    collect(d.getB(), d.getTransposeB() ? 0 : 1, out[1]);
    collect(d.getA(), d.getTransposeA() ? 0 : 1, out[2]);
    collect(d.getB(), d.getTransposeB() ? 1 : 0, out[2]);
  } else if (auto d = dyn_cast<DotScaledOp>(dot)) {
    collect(d.getA(), 0, out[0]);
    collect(d.getB(), d.getTransposeB() ? 0 : 1, out[1]);
    collect(d.getA(), 1, out[2]);
    collect(d.getB(), d.getTransposeB() ? 1 : 0, out[2]);
  }
  return sources[dot] = std::move(out);
}

std::optional<int64_t> IndexEvaluator::inside(ArrayRef<DimSource> from, int64_t size,
                                              const DenseMap<Value, int64_t> &env) const {
  int64_t n = size;
  for (const DimSource &s : from) {
    auto load = cast<LoadOp>(s.load);
    auto it = extents.find(load.getDesc());
    if (it == extents.end() || s.boxDim >= it->second.size())
      continue; // not a kernel argument's tensor: nothing known
    // A coordinate read from a tensor (a page table, a token table) counts
    // its box whole along that dimension; the others still count what is
    // inside (a table-indexed GEMM's K: the sweep's B9 counted it padded).
    std::optional<int64_t> at = eval(load.getCoords()[s.boxDim], env);
    if (!at)
      continue;
    int64_t box = load.getDesc().getType().getBoxShape()[s.boxDim];
    int64_t lo = std::max<int64_t>(*at, 0), hi = std::min(*at + box, it->second[s.boxDim]);
    n = std::min(n, std::max<int64_t>(hi - lo, 0));
  }
  return n;
}

std::optional<double> IndexEvaluator::count(Block &block, DenseMap<Value, int64_t> &env,
                                            int64_t &budget, bool useful) const {
  double flops = 0;
  for (Operation &op : block) {
    if (isa<DotOp, DotScaledOp>(op)) {
      int64_t k = isa<DotOp>(op) ? cast<DotOp>(op).getK() : cast<DotScaledOp>(op).getK();
      auto result = cast<RankedTensorType>(op.getResult(0).getType());
      std::array<int64_t, 3> dims{result.getDimSize(0), result.getDimSize(1), k};
      if (useful) {
        const auto &from = sourcesOf(&op);
        for (unsigned d = 0; d < 3; ++d) {
          std::optional<int64_t> n = inside(from[d], dims[d], env);
          if (!n)
            return std::nullopt;
          dims[d] = *n;
        }
      }
      flops += 2.0 * static_cast<double>(dims[0]) * static_cast<double>(dims[1]) *
               static_cast<double>(dims[2]);
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
    if (loop.getBody()->getOps<scf::ForOp>().empty()) {
      // Whole tiles: the body's dots run once per iteration, whatever the
      // induction value. Inside the tensors: arithmetic on the iteration
      // where the coordinates are linear in it.
      if (!useful) {
        std::optional<double> body = count(*loop.getBody(), env, budget, false);
        if (!body)
          return std::nullopt;
        flops += *body * static_cast<double>(trips);
        continue;
      }
      if (trips > 0)
        if (std::optional<double> f = countLinear(loop, *lb, *step, trips, env)) {
          flops += *f;
          continue;
        }
    }
    budget -= trips;
    if (budget < 0)
      return std::nullopt;
    for (int64_t i = 0; i < trips; ++i) {
      env[loop.getInductionVar()] = *lb + i * *step;
      std::optional<double> body = count(*loop.getBody(), env, budget, useful);
      if (!body)
        return std::nullopt;
      flops += *body;
    }
    env.erase(loop.getInductionVar());
  }
  return flops;
}

std::optional<double> IndexEvaluator::countLinear(scf::ForOp loop, int64_t lb, int64_t step,
                                                  int64_t trips,
                                                  DenseMap<Value, int64_t> &env) const {
  // Each coordinate the dots' dimensions come from, at the first, second
  // and last iteration: where they lie on a line (c0 + i d: a K offset, a
  // key block's first row; d = 0 for what the loop does not move), the
  // counts are arithmetic on the iteration, with no index math interpreted
  // per iteration (a large attention launch has half a million).
  struct Edge {
    int64_t c0, d, box, extent;
  };
  struct Dims {
    std::array<SmallVector<Edge>, 3> edges;
    std::array<int64_t, 3> size;
  };
  Value iv = loop.getInductionVar();
  SmallVector<Dims> dots;
  bool linear = true;
  for (Operation &op : *loop.getBody()) {
    if (!isa<DotOp, DotScaledOp>(op))
      continue;
    Dims dims;
    auto result = cast<RankedTensorType>(op.getResult(0).getType());
    dims.size = {result.getDimSize(0), result.getDimSize(1),
                 isa<DotOp>(op) ? cast<DotOp>(op).getK() : cast<DotScaledOp>(op).getK()};
    const auto &from = sourcesOf(&op);
    for (unsigned d = 0; d < 3 && linear; ++d)
      for (const DimSource &s : from[d]) {
        auto load = cast<LoadOp>(s.load);
        auto it = extents.find(load.getDesc());
        if (it == extents.end() || s.boxDim >= it->second.size())
          continue;
        Value c = load.getCoords()[s.boxDim];
        auto at = [&](int64_t i) {
          env[iv] = lb + i * step;
          return eval(c, env);
        };
        std::optional<int64_t> first = at(0), second = trips > 1 ? at(1) : first,
                               last = trips > 2 ? at(trips - 1) : second;
        if (!first || !second || !last) {
          linear = false;
          break;
        }
        int64_t slope = *second - *first;
        if (*last != *first + (trips - 1) * slope) {
          linear = false;
          break;
        }
        dims.edges[d].push_back(
            {*first, slope, load.getDesc().getType().getBoxShape()[s.boxDim], it->second[s.boxDim]});
      }
    dots.push_back(std::move(dims));
  }
  env.erase(iv);
  if (!linear)
    return std::nullopt;
  double flops = 0;
  for (int64_t i = 0; i < trips; ++i)
    for (const Dims &dims : dots) {
      double product = 2;
      for (unsigned d = 0; d < 3; ++d) {
        int64_t n = dims.size[d];
        for (const Edge &e : dims.edges[d]) {
          int64_t c = e.c0 + i * e.d;
          n = std::min(n, std::max<int64_t>(std::min(c + e.box, e.extent) - std::max<int64_t>(c, 0), 0));
        }
        product *= static_cast<double>(n);
      }
      flops += product;
    }
  return flops;
}

std::optional<IndexEvaluator::ExtractOutOfRange>
IndexEvaluator::extractOutOfRange(int64_t maxPrograms) const {
  SmallVector<tensor::ExtractOp> extracts;
  kernel.walk([&](tensor::ExtractOp x) {
    if (cast<RankedTensorType>(x.getTensor().getType()).hasStaticShape())
      extracts.push_back(x);
  });
  if (extracts.empty())
    return std::nullopt;
  // Programs: all of them, or 4096 spread over the grid and its corners.
  SmallVector<std::array<int64_t, 3>> programs;
  int64_t total = grid[0] * grid[1] * grid[2];
  auto programAt = [&](int64_t linear) {
    return std::array<int64_t, 3>{linear % grid[0], (linear / grid[0]) % grid[1],
                                  linear / (grid[0] * grid[1])};
  };
  if (total <= maxPrograms) {
    for (int64_t l = 0; l < total; ++l)
      programs.push_back(programAt(l));
  } else {
    for (int64_t s = 0; s < maxPrograms; ++s)
      programs.push_back(programAt(s * total / maxPrograms));
    for (int corner = 0; corner < 8; ++corner)
      programs.push_back({corner & 1 ? grid[0] - 1 : 0, corner & 2 ? grid[1] - 1 : 0,
                          corner & 4 ? grid[2] - 1 : 0});
  }
  for (tensor::ExtractOp x : extracts) {
    SmallVector<scf::ForOp> loops; // outermost first
    for (Operation *p = x->getParentOp(); p && p != kernel; p = p->getParentOp())
      if (auto loop = dyn_cast<scf::ForOp>(p))
        loops.insert(loops.begin(), loop);
    if (loops.size() > 3)
      continue;
    // Iterations of each loop: all of them up to a number (64 for one loop,
    // 16 and 4 for two and three nested), else that many spread over it and
    // its last: an index that peaks mid-loop (kb % 40, min(kb, last - kb))
    // read past a 32-entry table where the first and the last were inside
    // (the eleventh sweep's B4).
    const int64_t perLoop[] = {64, 16, 4};
    int64_t samples = loops.empty() ? 1 : perLoop[loops.size() - 1];
    ArrayRef<int64_t> shape = cast<RankedTensorType>(x.getTensor().getType()).getShape();
    std::optional<ExtractOutOfRange> found;
    std::function<void(size_t, DenseMap<Value, int64_t> &, const std::array<int64_t, 3> &)> walk =
        [&](size_t depth, DenseMap<Value, int64_t> &env, const std::array<int64_t, 3> &program) {
          if (found)
            return;
          if (depth == loops.size()) {
            for (auto [d, index] : llvm::enumerate(x.getIndices())) {
              std::optional<int64_t> at = eval(index, env);
              if (at && (*at < 0 || *at >= shape[d])) {
                std::vector<int64_t> values;
                for (scf::ForOp l : loops)
                  values.push_back(env.lookup(l.getInductionVar()));
                found = ExtractOutOfRange{x, unsigned(d), *at, shape[d], program, values};
                return;
              }
            }
            return;
          }
          scf::ForOp loop = loops[depth];
          std::optional<int64_t> lb = eval(loop.getLowerBound(), env),
                                 ub = eval(loop.getUpperBound(), env),
                                 step = eval(loop.getStep(), env);
          if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
            return; // unknown, or no iteration: nothing read
          int64_t trips = ceilDiv(*ub - *lb, *step);
          int64_t n = std::min(trips, samples);
          for (int64_t k = 0; k <= n && !found; ++k) {
            int64_t i = k == n ? trips - 1 : k * trips / n;
            if (k == n && n == trips)
              break; // every iteration was taken
            env[loop.getInductionVar()] = *lb + i * *step;
            walk(depth + 1, env, program);
          }
          env.erase(loop.getInductionVar());
        };
    for (const auto &program : programs) {
      pid = {program[0], program[1], program[2]};
      DenseMap<Value, int64_t> env;
      walk(0, env, program);
      if (found)
        return found;
    }
  }
  return std::nullopt;
}

std::optional<double> IndexEvaluator::sampledDotFlops(int64_t maxPrograms,
                                                      int64_t maxIterations) const {
  int64_t total = grid[0] * grid[1] * grid[2];
  if (total <= maxPrograms)
    return overPrograms(maxIterations, false);
  int64_t budget = maxIterations;
  double sum = 0;
  for (int64_t s = 0; s < maxPrograms; ++s) {
    int64_t linear = s * total / maxPrograms;
    pid = {linear % grid[0], (linear / grid[0]) % grid[1], linear / (grid[0] * grid[1])};
    DenseMap<Value, int64_t> env;
    if (--budget < 0)
      return std::nullopt;
    std::optional<double> f = count(kernel.getBody().front(), env, budget, false);
    if (!f)
      return std::nullopt;
    sum += *f;
  }
  return sum * static_cast<double>(total) / static_cast<double>(maxPrograms);
}

std::optional<double> IndexEvaluator::overPrograms(int64_t maxIterations, bool useful) const {
  // Every program takes one of the budget at least: a grid past it is
  // refused before any is counted.
  if (double(grid[0]) * double(grid[1]) * double(grid[2]) > double(maxIterations))
    return std::nullopt;
  int64_t budget = maxIterations;
  double total = 0;
  for (int64_t z = 0; z < grid[2]; ++z)
    for (int64_t y = 0; y < grid[1]; ++y)
      for (int64_t x = 0; x < grid[0]; ++x) {
        if (--budget < 0)
          return std::nullopt;
        pid = {x, y, z};
        DenseMap<Value, int64_t> env;
        std::optional<double> f = count(kernel.getBody().front(), env, budget, useful);
        if (!f)
          return std::nullopt;
        total += *f;
      }
  return total;
}

static int64_t knownMultipleAt(Value v, const DenseMap<Value, int64_t> *sizes, int depth) {
  static constexpr int64_t kAny = int64_t(1) << 30; // 0 is a multiple of anything
  if (depth > 32)
    return 1;
  auto of = [](int64_t n) { return n == 0 ? kAny : std::min<int64_t>(std::abs(n), kAny); };
  auto gcd = [](int64_t a, int64_t b) { return std::gcd(a, b); };
  auto km = [&](Value w) { return knownMultipleAt(w, sizes, depth + 1); };
  // Values known at these sizes: the sizes, and a program id along a grid
  // dimension of one program (always 0).
  if (sizes)
    if (auto it = sizes->find(v); it != sizes->end())
      return of(it->second);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner); loop && arg == loop.getInductionVar())
      return gcd(km(loop.getLowerBound()), km(loop.getStep()));
    if (isa<func::FuncOp>(owner) && v.getType().isIntOrIndex())
      return sizes ? 1 : kAny; // (a size in `sizes` was found above)
    return 1;
  }
  Operation *def = v.getDefiningOp();
  if (auto c = dyn_cast_or_null<arith::ConstantOp>(def)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return of(i.getInt());
    return 1;
  }
  if (isa_and_nonnull<arith::MulIOp>(def))
    return std::min<int64_t>(km(def->getOperand(0)) * km(def->getOperand(1)), kAny);
  // x << c: x's multiple times 2^c (tile coordinates written pn << 8: the
  // seventh sweep's k27, refused as "not known to be a multiple").
  if (isa_and_nonnull<arith::ShLIOp>(def)) {
    IntegerAttr c;
    if (matchPattern(def->getOperand(1), m_Constant(&c)) && c.getInt() >= 0 && c.getInt() < 30)
      return std::min<int64_t>(km(def->getOperand(0)) << c.getInt(), kAny);
    return 1;
  }
  if (isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp,
                      arith::MaxUIOp, arith::RemUIOp, arith::RemSIOp>(def))
    return gcd(km(def->getOperand(0)), km(def->getOperand(1)));
  if (isa_and_nonnull<arith::SelectOp>(def))
    return gcd(km(def->getOperand(1)), km(def->getOperand(2)));
  if (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return km(def->getOperand(0));
  return 1;
}

int64_t stagecraft::tile::knownMultiple(Value v, const DenseMap<Value, int64_t> *sizes) {
  return knownMultipleAt(v, sizes, 0);
}

std::string stagecraft::tile::misalignedInnermostCoordinate(DescType desc, ValueRange coords,
                                                            const DenseMap<Value, int64_t> *sizes,
                                                            bool store) {
  int64_t elements = std::max<int64_t>(16 / desc.getElementBytes(), 1);
  if (coords.empty() || knownMultiple(coords.back(), sizes) % elements == 0)
    return "";
  std::string unit = std::to_string(elements) + " elements (16 bytes)";
  if (knownMultiple(coords.back(), nullptr) % elements != 0)
    return "its innermost coordinate must be a multiple of " + unit +
           ", where TMA starts a copy, and is not known to be one (a product with a multiple of "
           "it, a loop's index stepping by one, a constant)" +
           (store ? std::string(": store at a coordinate that is one")
                  : std::string(": load a wider tile at an aligned coordinate and read the "
                                "element you want from it"));
  return "its innermost coordinate is not a multiple of " + unit +
         " at these sizes, where TMA starts a copy: choose sizes that make it one";
}

int64_t stagecraft::tile::requiredSizeMultiple(func::FuncOp kernel, Value size) {
  // The other size arguments count as multiples of anything (0), this one
  // as a multiple of the candidate.
  DenseMap<Value, int64_t> sizes;
  for (BlockArgument arg : kernel.getArguments())
    if (arg.getType().isIntOrIndex())
      sizes[arg] = 0;
  int64_t required = 1;
  kernel.walk([&](Operation *op) {
    DescType desc;
    ValueRange coords;
    if (auto l = dyn_cast<LoadOp>(op))
      desc = l.getDesc().getType(), coords = l.getCoords();
    else if (auto s = dyn_cast<StoreOp>(op))
      desc = s.getDesc().getType(), coords = s.getCoords();
    if (!desc || coords.empty())
      return;
    int64_t elements = std::max<int64_t>(16 / desc.getElementBytes(), 1);
    // Coordinates no size aligns are refused where they are (the lowering).
    if (knownMultiple(coords.back(), nullptr) % elements != 0)
      return;
    for (int64_t m = 1; m <= elements; m *= 2) {
      sizes[size] = m;
      if (knownMultiple(coords.back(), &sizes) % elements == 0) {
        required = std::max(required, m);
        break;
      }
    }
  });
  return required;
}
