//===- UnitCosts.cpp - the work of each unit, read from the IR ------------===//
#include "core/Timeline/UnitCosts.h"
#include "core/Dialect/Tile/IR/IntFold.h"

#include "core/Dialect/Tile/IR/Cluster.h"
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/ScheduleIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <optional>
#include <set>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;
using namespace stagecraft::timeline;

namespace {

/// Elements of a statically shaped tensor; 0 for anything else.
double elementsOf(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  if (!r || !r.hasStaticShape())
    return 0;
  return static_cast<double>(r.getNumElements());
}

/// Elements of an op's largest tensor (result or operand).
double largestTensor(Operation *op) {
  double e = 0;
  for (Type t : op->getResultTypes())
    e = std::max(e, elementsOf(t));
  for (Type t : op->getOperandTypes())
    e = std::max(e, elementsOf(t));
  return e;
}

std::string inputTypeName(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  Type e = r ? r.getElementType() : t;
  if (e.isBF16())
    return "bf16";
  if (e.isF16())
    return "f16";
  if (e.isF32())
    return "tf32";
  if (auto f = dyn_cast<FloatType>(e); f && f.getWidth() == 8)
    return "f8";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return s;
}

/// The value a use of `v` reads: through the loop's iter_args to the value
/// yielded by the previous iteration.
Value throughIterArg(Value v, scf::ForOp loop) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0)
      return loop.getBody()->getTerminator()->getOperand(arg.getArgNumber() - 1);
  return v;
}

bool definedByLoad(Value v) {
  Operation *def = v.getDefiningOp();
  return def && isa<LoadOp>(def);
}

/// Evaluates index arithmetic at concrete program ids and sizes.
class IndexEvaluator {
public:
  IndexEvaluator(const KernelSignature &sig, const std::vector<int64_t> &sizes,
                 const std::vector<int64_t> &grid)
      : sig_(sig), sizes_(sizes), grid_(grid) {}

  void setProgram(int64_t x, int64_t y, int64_t z) {
    pid_[0] = x;
    pid_[1] = y;
    pid_[2] = z;
    memo_.clear();
  }
  void setValue(Value v, int64_t x) { fixed_[v] = x; }
  /// Whether an element of a tile loaded from an input that declares its
  /// range (tile.init) reads as the middle of that range: a variable-length
  /// loop's expected trip count. Only for trip counts: a page number read
  /// so would put every CTA on one page.
  void setExpectedInputs(bool on) {
    if (on != expected_)
      memo_.clear();
    expected_ = on;
  }

  std::optional<int64_t> eval(Value v, int depth = 0) {
    if (depth > 64)
      return std::nullopt;
    if (auto it = fixed_.find(v); it != fixed_.end())
      return it->second;
    if (auto it = memo_.find(v); it != memo_.end())
      return it->second;
    std::optional<int64_t> r = compute(v, depth);
    memo_[v] = r;
    if (!r && failedAt_.empty()) {
      if (Operation *op = v.getDefiningOp())
        failedAt_ = op->getName().getStringRef().str() + " at " + formatLocation(op->getLoc());
      else
        failedAt_ = "a block argument";
    }
    return r;
  }
  const std::string &failedAt() const { return failedAt_; }

private:
  std::optional<int64_t> compute(Value v, int depth) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner()->getParentOp() == const_cast<func::FuncOp &>(sig_.func).getOperation())
        for (unsigned k = 0; k < sig_.sizeArgs.size(); ++k)
          if (sig_.sizeArgs[k] == arg.getArgNumber())
            return sizes_[k];
      return std::nullopt;
    }
    Operation *op = v.getDefiningOp();
    if (!op)
      return std::nullopt;
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        return i.getValue().getSExtValue();
      return std::nullopt;
    }
    if (auto p = dyn_cast<ProgramIdOp>(op))
      return pid_[p.getDim()];
    if (auto n = dyn_cast<NumProgramsOp>(op))
      return grid_[n.getDim()];
    if (std::optional<int64_t> c = clusterOpValue(op, pid_[0], grid_[0]))
      return c;
    auto operand = [&](unsigned i) { return eval(op->getOperand(i), depth + 1); };
    if (expected_)
      if (std::optional<int64_t> e = expectedElement(op))
        return e;
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp>(op))
      return operand(0);
    if (auto sel = dyn_cast<arith::SelectOp>(op)) {
      auto c = operand(0);
      if (!c)
        return std::nullopt;
      return *c ? operand(1) : operand(2);
    }
    if (op->getNumOperands() != 2)
      return std::nullopt;
    auto a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    return tile::foldIntBinary(op, *a, *b);
  }

  /// An i32 element, or a float element converted to an integer, of a tile
  /// loaded from an input with a declared range [low, high): the mean of
  /// what the runner draws (rounded down, then truncated), (low + high - 1) / 2.
  std::optional<int64_t> expectedElement(Operation *op) {
    Value element;
    if (isa<arith::FPToSIOp, arith::FPToUIOp>(op))
      element = op->getOperand(0);
    else if (auto e = dyn_cast<tensor::ExtractOp>(op); e && e.getType().isInteger(32))
      element = e.getResult();
    auto extract = element ? element.getDefiningOp<tensor::ExtractOp>() : tensor::ExtractOp();
    LoadOp load = extract ? extract.getTensor().getDefiningOp<LoadOp>() : LoadOp();
    auto desc = load ? dyn_cast<BlockArgument>(load.getDesc()) : BlockArgument();
    if (!desc)
      return std::nullopt;
    for (unsigned k = 0; k < sig_.descArgs.size(); ++k)
      if (sig_.descArgs[k] == desc.getArgNumber())
        if (std::optional<std::pair<double, double>> r = sig_.initRangeAt(k, sizes_))
          return static_cast<int64_t>(std::floor((r->first + r->second - 1) / 2));
    return std::nullopt;
  }

  const KernelSignature &sig_;
  const std::vector<int64_t> &sizes_;
  const std::vector<int64_t> &grid_;
  bool expected_ = false;
  int64_t pid_[3] = {0, 0, 0};
  llvm::DenseMap<Value, std::optional<int64_t>> memo_;
  llvm::DenseMap<Value, int64_t> fixed_;
  std::string failedAt_;
};

int64_t tripOf(int64_t lb, int64_t ub, int64_t step) {
  if (step <= 0 || ub <= lb)
    return 0;
  return (ub - lb + step - 1) / step;
}

constexpr int64_t kAssumedTrip = 64;
/// CTAs whose trip counts are evaluated one by one (about 30 ms); a larger
/// grid repeats their runs in proportion (thousands of waves: the launch is
/// their summed time over the slots, whatever the order).
constexpr int64_t kMaxEvaluatedCtas = 1 << 16;
/// CTAs whose load boxes are evaluated: more than the GPU holds at once for
/// any kernel that needs a ring of TMA loads (132 SMs x 8).
constexpr int64_t kFootprintCtas = 1056;

} // namespace

bool stagecraft::timeline::classifyElementwise(llvm::StringRef name, double e, MathWork &w) {
  // FP32 add/mul/fma, min/max, compare, select, abs/neg: the FMA pipes.
  static const std::set<std::string> fmaClass = {
      "arith.addf",    "arith.subf",    "arith.mulf",    "arith.maximumf", "arith.minimumf",
      "arith.maxnumf", "arith.minnumf", "arith.negf",    "arith.cmpf",     "arith.select",
      "math.fma",      "math.absf",     "math.copysign", "math.floor",     "math.ceil",
      "math.round",    "math.trunc",    "math.roundeven", "math.isnan",   "math.isinf",
      "math.isfinite", "tile.mask"};
  // Two FMA-pipe ops (a min and a max: Normalize.cpp expands it).
  static const std::set<std::string> fma2Class = {"math.clampf"};
  // 32-bit integer ops: the INT32 pipe, half the FP32 rate on sm_90, beside
  // it (an issue slot each, as any instruction).
  static const std::set<std::string> intClass = {
      "arith.addi",  "arith.subi",  "arith.muli",  "arith.andi",  "arith.ori",
      "arith.xori",  "arith.shli",  "arith.shrsi", "arith.shrui", "arith.cmpi",
      "arith.minsi", "arith.maxsi", "arith.minui", "arith.maxui", "math.absi",
      "math.ctpop",  "math.ctlz",   "math.cttz",   "tile.iota"};
  static const std::set<std::string> intDivClass = {
      "arith.divsi", "arith.divui", "arith.remsi", "arith.remui",
      "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi"};
  // One MUFU operation, plus FMA-pipe work around it.
  // sin and cos: a multiply, a rounding and two FMAs reduce the argument.
  static const std::map<std::string, double> mufuClass = {
      {"math.exp2", 0}, {"math.exp", 1},   {"math.log2", 0}, {"math.log", 1},
      {"math.tanh", 0}, {"math.rsqrt", 0}, {"math.sqrt", 1}, {"arith.divf", 2},
      {"math.sin", 4},  {"math.cos", 4}};
  // libdevice's functions (patterns/Elementwise.cpp), inlined: {MUFU, FMA-pipe}
  // operations an element on their common path, counted in the PTX of a
  // 64x64 epilogue (32 elements a thread) less the slow paths of large
  // arguments (sin, cos, tan's Payne-Hanek reduction; pow's special cases).
  static const std::map<std::string, std::pair<double, double>> libdeviceClass = {
      {"math.erf", {1, 22}},   {"math.erfc", {3, 45}},  {"math.tan", {1, 30}},
      {"math.asin", {1, 20}},
      {"math.acos", {1, 23}},  {"math.atan", {1, 19}},  {"math.atan2", {1, 25}},
      {"math.sinh", {1, 21}},  {"math.cosh", {1, 13}},  {"math.asinh", {2, 36}},
      {"math.acosh", {1, 37}}, {"math.atanh", {1, 32}}, {"math.expm1", {1, 23}},
      {"math.log1p", {0, 24}}, {"math.log10", {0, 24}}, {"math.cbrt", {2, 12}},
      {"math.powf", {2, 60}},  {"arith.remf", {1, 40}},
      // Expanded before lowering (passes/Lowering/Normalize.cpp): a sin and a
      // cos (the math.sin class twice); a powf of the converted power (a
      // constant power's multiplies cost less: the common case is costed).
      {"math.sincos", {2, 8}}, {"math.fpowi", {2, 62}}};
  // Float width changes: packed in pairs (cvt.rn.bf16x2.f32), one conversion
  // unit per element.
  static const std::set<std::string> convertClass = {"arith.truncf", "arith.extf"};
  // Integer <-> float: one result per instruction (I2F, F2I), so two units per
  // element of the pipe that packs the float conversions in pairs.
  static const std::set<std::string> intConvertClass = {"arith.sitofp", "arith.uitofp",
                                                        "arith.fptosi", "arith.fptoui"};
  // Views and register moves the lowering makes free (or nearly).
  static const std::set<std::string> freeClass = {
      "tile.broadcast", "tile.splat", "tensor.splat", "arith.bitcast", "tensor.expand_shape",
      "tensor.collapse_shape", "tensor.cast", "arith.index_cast"};
  std::string n = name.str();
  if (fmaClass.count(n)) {
    w.fma += e;
    return true;
  }
  if (fma2Class.count(n)) {
    w.fma += 2 * e;
    return true;
  }
  if (intClass.count(n)) {
    w.integer += e;
    return true;
  }
  if (intDivClass.count(n)) {
    w.fma += 20 * e;
    return true;
  }
  if (auto it = mufuClass.find(n); it != mufuClass.end()) {
    w.mufu += e;
    w.fma += it->second * e;
    return true;
  }
  if (auto it = libdeviceClass.find(n); it != libdeviceClass.end()) {
    w.mufu += it->second.first * e;
    w.fma += it->second.second * e;
    return true;
  }
  if (convertClass.count(n)) {
    w.convert += e;
    return true;
  }
  if (intConvertClass.count(n)) {
    w.convert += 2 * e;
    return true;
  }
  if (freeClass.count(n))
    return true;
  return false;
}

namespace {

/// An FP8 tile upcast to bf16 with its e8m0 block scales (patterns/
/// Upcast.cpp): per pair of elements one cvt.rn.f16x2.e4m3x2 and one packing
/// cvt.rn.bf16x2.f32 (two conversion results each), and per element an
/// f16 -> f32 extension and the multiply by 2^e (FMA pipe).
void addUpcast(double elements, MathWork &work) {
  work.convert += 2 * elements;
  work.fma += 2 * elements;
}

/// Whether the kernel runs the multiply `op` as part of an fma: its float
/// math may contract (the lowering's FPOpFusion::Fast, as nvcc's default),
/// so a multiply whose only users add or subtract it is one fma with each.
/// A multiply by a splat whose other users are row maxima also fuses: the
/// lowering takes the positive factor out of the max first
/// (passes/Lowering/ScaleOutOfMax.cpp; softmax's x * scale - max, as
/// FlashAttention computes it). Costed once, at the add.
bool fusesIntoAdd(Operation *op) {
  if (!isa<arith::MulFOp>(op) || op->getResult(0).use_empty())
    return false;
  auto isAdd = [](Operation *u) { return isa<arith::AddFOp, arith::SubFOp>(u); };
  bool byConstant = llvm::any_of(op->getOperands(), [](Value v) {
    Operation *d = v.getDefiningOp();
    if (!d)
      return false;
    StringRef n = d->getName().getStringRef();
    return d->hasTrait<OpTrait::ConstantLike>() || n == "tensor.splat" || n == "tile.splat";
  });
  bool anyAdd = false;
  for (Operation *u : op->getResult(0).getUsers()) {
    if (isAdd(u)) {
      anyAdd = true;
      continue;
    }
    if (byConstant && isa<ReduceOp>(u))
      continue;
    return false;
  }
  return anyAdd;
}

/// Which dimensions the elements of an integer or predicate tensor depend
/// on when they are a linear function of the element's position: built from
/// tile.iota, splats and constants by add, subtract, multiply or shift by a
/// uniform value, casts, compares and predicate logic. Bit d: dimension d.
/// std::nullopt for anything else (data, or a product of two positions).
std::optional<unsigned> positionDims(Value v, int depth = 0) {
  if (!isa<RankedTensorType>(v.getType()))
    return 0u; // a scalar: one value per thread
  Operation *d = v.getDefiningOp();
  if (!d || depth > 24)
    return std::nullopt;
  if (auto iota = dyn_cast<IotaOp>(d))
    return 1u << iota.getDim();
  if (auto c = dyn_cast<arith::ConstantOp>(d)) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    return dense && dense.isSplat() ? std::optional<unsigned>(0u) : std::nullopt;
  }
  StringRef n = d->getName().getStringRef();
  if (n == "tile.splat" || n == "tensor.splat")
    return 0u;
  bool linear = isa<arith::AddIOp, arith::SubIOp, arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp,
                    arith::TruncIOp, arith::CmpIOp, arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp,
                    arith::MaxUIOp>(d);
  bool predicateLogic = isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(d) &&
                        getElementTypeOrSelf(v.getType()).isInteger(1);
  bool byUniform = isa<arith::MulIOp, arith::ShLIOp>(d);
  if (!linear && !predicateLogic && !byUniform)
    return std::nullopt;
  unsigned dims = 0;
  int varying = 0;
  for (Value o : d->getOperands()) {
    std::optional<unsigned> od = positionDims(o, depth + 1);
    if (!od)
      return std::nullopt;
    varying += *od != 0;
    dims |= *od;
  }
  if (byUniform && varying > 1)
    return std::nullopt;
  return dims;
}

/// The share of a rank-2 tile's elements whose value a thread computes when
/// they depend only on the position dimensions `dims`: the lowering keeps a
/// tile in the wgmma accumulator layout (a thread holds 2 rows and N / 4
/// columns of each 64-row slab, N / 2 elements), and LLVM computes a value
/// of the position once per distinct value in a thread (a row's, a column's,
/// or, for both, about rows + columns of row - column: measured in the PTX of
/// a sliding-window mask, 18 distinct compares for 32 elements).
double positionShare(unsigned dims, Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  if (!r || r.getRank() != 2 || !r.hasStaticShape() || r.getDimSize(1) < 8)
    return 1;
  double n = double(r.getDimSize(1));
  switch (dims) {
  case 0:
    return 0;
  case 1:
    return 4 / n;
  case 2:
    return 0.5;
  default:
    return std::min(1.0, 0.5 + 2 / n);
  }
}

/// Adds the work of `op` (not a load, store or dot) to `work`.
void addMath(Operation *op, UnitWork *unit, MathWork &work) {
  StringRef name = op->getName().getStringRef();
  if (auto up = dyn_cast<UpcastOp>(op)) {
    addUpcast(elementsOf(up->getResult(0).getType()), work);
    return;
  }
  if (auto red = dyn_cast<ReduceOp>(op)) {
    double in = elementsOf(red.getInput().getType());
    double out = elementsOf(red.getResult().getType());
    work.fma += in;
    // Along rows of the accumulator layout: within the thread, then a
    // butterfly over the 4 lanes of a row (2 shuffles, each lane).
    if (red.getDim() == 1) {
      work.shuffle += out * 8;
      return;
    }
    // Over the rows (patterns/ReduceBroadcast.cpp), a tile of R rows over
    // R / 16 warps: the eight lanes of a column set reduce-scatter their C / 4
    // values (7 C / 32 shuffles and twice as many selects a thread; widths not
    // a multiple of 32: a butterfly of 3 shuffles a value), then shared memory
    // (MIO, as shuffles): the warps' partial rows written and read (R C / 16
    // each) and the final row read by every thread (R C / 2).
    int64_t cols = cast<RankedTensorType>(red.getInput().getType()).getDimSize(1);
    bool scatter = cols % 32 == 0;
    work.shuffle += (scatter ? 7.0 / 16 : 1.5) * in + in / 8 + in / 2;
    work.fma += in / 16 + (scatter ? 7.0 / 8 : 0) * in;
    return;
  }
  if (isa<arith::ConstantOp>(op))
    return;
  if (fusesIntoAdd(op))
    return; // the add or subtract it feeds is one fma for both
  double e = largestTensor(op);
  // Integer math of the element's position (a causal or window mask's row
  // and column compares): once per distinct value in a thread, and the
  // predicates' logic folds into the compares (setp with a combine, or one
  // unsigned range compare for two bounds).
  if (op->getNumResults() == 1) {
    if (std::optional<unsigned> dims = positionDims(op->getResult(0))) {
      if (getElementTypeOrSelf(op->getResult(0).getType()).isInteger(1) && !isa<arith::CmpIOp>(op))
        return;
      e *= positionShare(*dims, op->getResult(0).getType());
    }
  }
  // A division by a broadcast vector (attention's output / l): ptxas
  // computes one reciprocal per distinct divisor in a thread and multiplies
  // by it (the H100 SASS of attention d64 and d128: 2 MUFU.RCP a thread for
  // their 32 and 64 divisions; SwiGLU's per-element divisors, 64 for 64),
  // with div.full's range scaling around it: per element three FMUL and an
  // FSEL (d64: 100 FMUL and 32 FSEL for 32 elements before the stores).
  if (auto div = dyn_cast<arith::DivFOp>(op)) {
    auto b = div.getRhs().getDefiningOp<BroadcastOp>();
    auto t = dyn_cast<RankedTensorType>(div.getType());
    if (b && t && t.getRank() == 2 && b.getDim() <= 1) {
      unsigned varying = 1u << (1 - b.getDim()); // along the other dimension
      work.mufu += e * positionShare(varying, t);
      work.fma += 4 * e;
      return;
    }
  }
  if (classifyElementwise(name, e, work))
    return;
  work.generic += e;
  if (unit && std::find(unit->genericOps.begin(), unit->genericOps.end(), name.str()) ==
                  unit->genericOps.end())
    unit->genericOps.push_back(name.str());
}

void addLoad(LoadOp load, int64_t &bytes, int64_t *boxes) {
  DescType desc = load.getDesc().getType();
  bytes += desc.getBoxBytes();
  if (boxes) {
    int64_t boxBytes = desc.getElementBytes();
    for (int64_t d : desc.getLoadBoxShape())
      boxBytes *= d;
    *boxes += std::max<int64_t>(1, (desc.getBoxBytes() + boxBytes - 1) / std::max<int64_t>(1, boxBytes));
  }
}

} // namespace

FailureOr<KernelCosts>
stagecraft::timeline::extractKernelCosts(func::FuncOp kernel, const LoopGraph &graph,
                                         const std::vector<std::pair<std::string, int64_t>> &overrides) {
  FailureOr<KernelSignature> sig = KernelSignature::get(kernel);
  if (failed(sig))
    return failure();
  KernelCosts costs;
  costs.kernel = kernel.getSymName().str();
  FailureOr<KernelSignature::Bound> bound = sig->bind(overrides);
  if (failed(bound) || failed(sig->checkTensors(*bound)))
    return failure();
  std::vector<int64_t> sizes = bound->values;
  costs.sizes = bound->sizes;
  costs.grid = bound->grid;

  FailureOr<scf::ForOp> maybeLoop = findPipelinedLoop(kernel);
  if (failed(maybeLoop))
    return failure();
  scf::ForOp loop = *maybeLoop;
  FailureOr<LoopUnits> units = collectUnits(loop);
  if (failed(units))
    return failure();
  if (units->names.size() != graph.units.size())
    return loop.emitError("the loop has ") << units->names.size() << " units, its graph "
                                           << graph.units.size();

  // Per unit.
  DenseMap<Operation *, unsigned> unitOf;
  // The loop's TMA loads: (unit, its footprint's index in the unit, the op).
  struct FootprintLoad {
    unsigned unit;
    size_t index;
    LoadOp op;
  };
  std::vector<FootprintLoad> footprintLoads;
  for (unsigned u = 0; u < units->names.size(); ++u)
    for (Operation *op : units->ops[u])
      unitOf[op] = u;
  for (unsigned u = 0; u < units->names.size(); ++u) {
    if (units->names[u] != graph.units[u].name)
      return loop.emitError("unit ") << u << " is \"" << units->names[u]
                                     << "\" in the IR but \"" << graph.units[u].name
                                     << "\" in its graph";
    UnitWork w;
    w.name = units->names[u];
    // Which unit's result is a dot's accumulator input.
    auto addAccumulation = [&](Value accIn, UnitWork &w) {
      Value acc = throughIterArg(accIn, loop);
      if (Operation *def = acc.getDefiningOp())
        if (auto it = unitOf.find(def); it != unitOf.end()) {
          const std::string &name = units->names[it->second];
          if (std::find(w.accumulatesOnto.begin(), w.accumulatesOnto.end(), name) ==
              w.accumulatesOnto.end())
            w.accumulatesOnto.push_back(name);
        }
    };
    for (Operation *op : units->ops[u]) {
      if (auto load = dyn_cast<LoadOp>(op)) {
        addLoad(load, w.loadBytes, &w.loadBoxes);
        w.footprints.push_back({load.getDesc().getType().getBoxBytes(), {}});
        footprintLoads.push_back({u, w.footprints.size() - 1, load});
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        w.storeBytes += store.getDesc().getType().getBoxBytes();
      } else if (auto dot = dyn_cast<DotOp>(op)) {
        DotWork d;
        d.m = dot.getM();
        d.n = dot.getN();
        d.k = dot.getK();
        d.inputType = inputTypeName(dot.getA().getType());
        d.aInRegisters = !definedByLoad(dot.getA());
        w.dots.push_back(d);
        // Which unit's result is its accumulator input.
        addAccumulation(dot.getAcc(), w);
      } else if (auto dot = dyn_cast<DotScaledOp>(op)) {
        // sm_90a runs it as its definition (SplitScaledDots.cpp): A and B
        // upcast to bf16 in the dot's unit (A into registers, B into a
        // shared-memory ring), then a bf16 wgmma with A from registers.
        DotWork d;
        d.m = dot.getM();
        d.n = dot.getN();
        d.k = dot.getK();
        d.inputType = "bf16";
        d.aInRegisters = true;
        w.dots.push_back(d);
        addUpcast(elementsOf(dot.getA().getType()), w.math);
        addUpcast(elementsOf(dot.getB().getType()), w.math);
        addAccumulation(dot.getAcc(), w);
      } else {
        addMath(op, &w, w.math);
      }
    }
    costs.units.push_back(std::move(w));
  }
  // Units whose result is a dot's accumulator input (directly, or through
  // the loop's iter_args).
  loop.getBody()->walk([&](Operation *op) {
    Value accIn;
    if (auto dot = dyn_cast<DotOp>(op))
      accIn = dot.getAcc();
    else if (auto dot = dyn_cast<DotScaledOp>(op))
      accIn = dot.getAcc();
    else
      return;
    Value acc = throughIterArg(accIn, loop);
    if (Operation *def = acc.getDefiningOp())
      if (auto it = unitOf.find(def); it != unitOf.end() && !isa<DotOp, DotScaledOp>(def)) {
        UnitWork &w = costs.units[it->second];
        w.writesAccumulator = true;
        if (auto dotUnit = unitOf.find(op); dotUnit != unitOf.end())
          w.accumulatorOf.push_back(costs.units[dotUnit->second].name);
      }
  });

  // Before and after the loop (the loop's own body excluded).
  kernel.walk([&](Operation *op) {
    if (op == loop.getOperation() || loop->isProperAncestor(op) || isa<scf::ForOp>(op) ||
        op->getNumRegions() != 0)
      return;
    if (!isScheduledOp(op))
      return;
    bool before = op->getBlock() == loop->getBlock() ? op->isBeforeInBlock(loop)
                                                    : false;
    if (auto load = dyn_cast<LoadOp>(op)) {
      addLoad(load, isEpilogueOnlyLoad(load, loop) ? costs.epilogueLoadBytes
                                                   : costs.prologueLoadBytes,
              nullptr);
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      auto desc = store.getDesc().getType();
      costs.epilogueStoreBytes += desc.getBoxBytes();
      // Panels of the box's TMA width (as Placement.cpp's SmemTile).
      ArrayRef<int64_t> shape = desc.getTileShape();
      int64_t rows = shape.size() >= 2 ? shape[shape.size() - 2] : 1;
      int64_t panelCols = std::max<int64_t>(1, desc.getLoadBoxShape().back());
      for (int64_t c = 0; c < shape.back(); c += panelCols)
        costs.epiloguePanelBytes.push_back(rows * std::min(panelCols, shape.back() - c) *
                                           desc.getElementBytes());
    } else if (!isa<DotOp, DotScaledOp>(op)) {
      addMath(op, nullptr, before ? costs.prologueMath : costs.epilogueMath);
    }
  });

  // DRAM floor: every global tensor read or written once; the written ones
  // also on their own (what the stores add to the loop's reads).
  llvm::DenseSet<Value> storedDescs;
  kernel.walk([&](StoreOp store) { storedDescs.insert(store.getDesc()); });
  for (unsigned k = 0; k < sig->descArgs.size(); ++k) {
    auto desc = cast<DescType>(kernel.getArgumentTypes()[sig->descArgs[k]]);
    double bytes = desc.getElementBytes();
    for (int64_t d : KernelSignature::evaluate(sig->descShapes[k], sizes))
      bytes *= static_cast<double>(d);
    costs.dramBytes += bytes;
    if (storedDescs.contains(kernel.getArgument(sig->descArgs[k])))
      costs.storedBytes += bytes;
  }

  // Trip counts per CTA: the pipelined loop's bounds, and the loops around
  // it (a persistent kernel runs the pipelined loop once per tile).
  SmallVector<scf::ForOp> outer;
  for (Operation *p = loop->getParentOp(); p && p != kernel.getOperation(); p = p->getParentOp())
    if (auto f = dyn_cast<scf::ForOp>(p))
      outer.push_back(f);
  IndexEvaluator ev(*sig, sizes, costs.grid);
  int64_t total = costs.grid[0] * costs.grid[1] * costs.grid[2];
  bool assumed = false, assumedCapped = false, fromInputs = false;
  int64_t assumedTrip = 0; // the largest trip count assumed for a CTA
  int64_t inputsTrip = 0;  // the largest taken from the inputs' declared ranges
  auto addRun = [&](int64_t passes, int64_t trip) {
    if (!costs.ctas.empty() && costs.ctas.back().passes == passes && costs.ctas.back().trip == trip)
      ++costs.ctas.back().count;
    else
      costs.ctas.push_back({passes, trip, 1});
  };
  if (total > kMaxEvaluatedCtas) {
    costs.notes.push_back(llvm::formatv("{0} CTAs: trip counts evaluated for the first {1}, "
                                        "the rest taken in the same proportions",
                                        total, kMaxEvaluatedCtas)
                              .str());
  }
  for (int64_t c = 0; c < std::min(total, kMaxEvaluatedCtas); ++c) {
    int64_t x = c % costs.grid[0], y = (c / costs.grid[0]) % costs.grid[1],
            z = c / (costs.grid[0] * costs.grid[1]);
    ev.setProgram(x, y, z);
    int64_t passes = 1;
    for (scf::ForOp o : outer) {
      auto lb = ev.eval(o.getLowerBound()), ub = ev.eval(o.getUpperBound()),
           st = ev.eval(o.getStep());
      if (!lb || !ub || !st) {
        assumed = true;
        break;
      }
      passes *= tripOf(*lb, *ub, *st);
      // Inner bounds that use the outer induction variable see its first value.
      ev.setValue(o.getInductionVar(), *lb);
    }
    auto lb = ev.eval(loop.getLowerBound()), ub = ev.eval(loop.getUpperBound()),
         st = ev.eval(loop.getStep());
    int64_t trip = kAssumedTrip;
    // Bounds read from the kernel's inputs: where those declare their range,
    // the middle of it (lengths in [1, S + 1): S / 2 on average).
    if (!(lb && ub && st)) {
      ev.setExpectedInputs(true);
      auto elb = ev.eval(loop.getLowerBound()), eub = ev.eval(loop.getUpperBound()),
           est = ev.eval(loop.getStep());
      ev.setExpectedInputs(false);
      if (elb && eub && est) {
        lb = elb;
        ub = eub;
        st = est;
        fromInputs = true;
        inputsTrip = std::max(inputsTrip, tripOf(*lb, *ub, *st));
      }
    }
    // A bound the loop cannot exceed: min(data, size), as a variable-length
    // loop bounds its keys by the sequence (the size's side evaluates).
    bool capped = false;
    if (!ub)
      if (Operation *m = loop.getUpperBound().getDefiningOp();
          m && isa<arith::MinUIOp, arith::MinSIOp>(m))
        for (Value side : m->getOperands())
          if (std::optional<int64_t> v = ev.eval(side); v && !ub) {
            ub = v;
            capped = true;
          }
    if (lb && ub && st)
      trip = tripOf(*lb, *ub, *st);
    if (!(lb && ub && st) || capped) {
      assumed = true;
      assumedTrip = std::max(assumedTrip, trip);
      assumedCapped |= capped;
    }
    if (c < kFootprintCtas && lb) {
      // Each load's box in the loop's first iteration (and the first tile of
      // a persistent kernel): the CTAs resident together that load the same
      // box share it in the L2.
      ev.setValue(loop.getInductionVar(), *lb);
      for (const FootprintLoad &l : footprintLoads) {
        LoadFootprint &f = costs.units[l.unit].footprints[l.index];
        LoadOp load = l.op;
        if (static_cast<int64_t>(f.boxPerCta.size()) != c)
          continue; // unknown since an earlier CTA
        llvm::hash_code h = llvm::hash_value(load.getDesc().getAsOpaquePointer());
        bool known = true;
        for (Value coord : load.getCoords()) {
          std::optional<int64_t> x = ev.eval(coord);
          if (!x) {
            known = false;
            break;
          }
          h = llvm::hash_combine(h, *x);
        }
        if (known)
          f.boxPerCta.push_back(static_cast<uint64_t>(h));
        else
          f.boxPerCta.clear();
      }
    }
    if (passes <= 0 || trip <= 0) {
      addRun(0, 0);
      continue;
    }
    addRun(passes, trip);
  }
  if (total > kMaxEvaluatedCtas) {
    // Each run's count scaled by total / evaluated, the rounding in the last.
    int64_t assigned = 0;
    for (CtaRun &r : costs.ctas) {
      r.count = static_cast<int64_t>(static_cast<double>(r.count) * static_cast<double>(total) /
                                     static_cast<double>(kMaxEvaluatedCtas));
      assigned += r.count;
    }
    costs.ctas.back().count += total - assigned;
  }
  // A load whose box some CTA could not evaluate is unknown for all.
  for (UnitWork &w : costs.units)
    for (LoadFootprint &f : w.footprints)
      if (static_cast<int64_t>(f.boxPerCta.size()) != std::min(total, kFootprintCtas))
        f.boxPerCta.clear();
  if (assumed)
    costs.notes.push_back(llvm::formatv("the trip count of the pipelined loop could not be "
                                        "evaluated ({0}): {1} iterations assumed{2}",
                                        ev.failedAt().empty() ? "unknown bounds" : ev.failedAt(),
                                        assumedTrip > 0 ? assumedTrip : kAssumedTrip,
                                        assumedCapped ? ", the most its upper bound's min allows"
                                                      : "")
                              .str());
  if (fromInputs)
    costs.notes.push_back(llvm::formatv("the trip count of the pipelined loop reads the kernel's "
                                        "inputs ({0}): {1} iterations, those inputs at the middle "
                                        "of the range they declare (tile.init)",
                                        ev.failedAt().empty() ? "a loaded tile" : ev.failedAt(),
                                        inputsTrip)
                              .str());
  // A tensor only the pipelined loop loads is read at most as many boxes as
  // the CTAs' iterations load of it: the DRAM floor counts the smaller of
  // that and the tensor (a loop over a K slice [K0, K) of one iteration was
  // charged A and B whole, 1208 MB where it reads about 1: the eleventh
  // sweep's B7); a loop no CTA iterates reads none of it (the eighth sweep's
  // B3: 100.7 MB counted where C's 33.5 are written).
  bool noTrips = llvm::all_of(costs.ctas, [](const CtaRun &r) { return r.trip == 0 || r.passes == 0; });
  if (!assumed && !fromInputs) {
    double iterations = 0;
    for (const CtaRun &r : costs.ctas)
      iterations += static_cast<double>(r.count) * static_cast<double>(r.passes) *
                    static_cast<double>(r.trip);
    for (unsigned k = 0; k < sig->descArgs.size(); ++k) {
      Value arg = kernel.getArgument(sig->descArgs[k]);
      if (storedDescs.contains(arg))
        continue;
      bool onlyInLoop = true, loaded = false;
      double boxBytes = 0; // what one iteration loads of it
      for (Operation *user : arg.getUsers())
        if (auto l = dyn_cast<LoadOp>(user)) {
          loaded = true;
          onlyInLoop &= loop->isAncestor(l);
          boxBytes += static_cast<double>(l.getDesc().getType().getBoxBytes());
        }
      if (!loaded || !onlyInLoop)
        continue;
      double bytes = cast<DescType>(arg.getType()).getElementBytes();
      for (int64_t d : KernelSignature::evaluate(sig->descShapes[k], sizes))
        bytes *= static_cast<double>(d);
      costs.dramBytes -= std::max(0.0, bytes - iterations * boxBytes);
    }
  }
  if (!assumed && !fromInputs && noTrips) {
    costs.notes.push_back("the pipelined loop runs no iterations at these sizes: the iteration "
                          "and steady state are those it would have; each CTA runs its set-up "
                          "and epilogue only");
  }
  // CTAs with nothing to do still launch: keep them at zero iterations
  // (the simulator gives them the set-up and epilogue only).
  return costs;
}
