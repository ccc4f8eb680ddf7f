//===- Manifest.cpp - the bundle manifest of a kernel ---------------------===//
#include "passes/Driver/Manifest.h"
#include "passes/Driver/Peers.h"

#include "core/Dialect/Tile/IR/Cluster.h"
#include "core/Dialect/Tile/IR/IndexEval.h"
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/Legality.h"
#include "core/Schedule/ScheduleIR.h"
#include "core/Schedule/TileLoopIR.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace stagecraft;
using namespace stagecraft::tile;

static const char *dtypeName(Type t) {
  const char *name = elementTypeName(t);
  return *name ? name : "f32";
}

namespace {
/// The names tensors go by: the peers' (A, B, C; Q, K, V, O) where a peer
/// applies, else by role in order (in0, in1, ..., out0, ...).
std::vector<std::string> tensorNames(func::FuncOp kernel, const std::vector<bool> &stored,
                                     const std::optional<GemmPeer> &gemm,
                                     const std::optional<AttentionPeer> &attention) {
  std::vector<std::string> names(kernel.getNumArguments());
  if (gemm) {
    names[gemm->a] = "A";
    names[gemm->b] = "B";
    names[gemm->c] = "C";
    if (gemm->scaleA >= 0)
      names[gemm->scaleA] = "scale_a";
    if (gemm->scaleB >= 0)
      names[gemm->scaleB] = "scale_b";
  } else if (attention) {
    names[attention->q] = "Q";
    names[attention->k] = "K";
    names[attention->v] = "V";
    names[attention->o] = "O";
  }
  int in = 0, out = 0;
  for (unsigned i = 0; i < names.size(); ++i)
    if (names[i].empty() && isa<DescType>(kernel.getArgumentTypes()[i]))
      names[i] = stored[i] ? llvm::formatv("out{0}", out++).str() : llvm::formatv("in{0}", in++).str();
  return names;
}
} // namespace

/// Whether `v` depends on tile.program_id `dim`: through its defining ops'
/// operands, and through a loop's induction variable to the loop's bounds
/// (a persistent kernel's tile loop starts at the program id). Memoized in
/// `seen`: index math is a DAG, which a walk of every path can blow up.
static bool dependsOnProgramId(Value v, unsigned dim, DenseMap<Value, bool> &seen,
                               int depth = 0) {
  if (depth > 64)
    return true; // too deep to tell: assume it does (no warning)
  if (auto it = seen.find(v); it != seen.end())
    return it->second;
  seen[v] = true; // a cycle (none in SSA outside loops) counts as dependent
  auto follow = [&](Value w) { return dependsOnProgramId(w, dim, seen, depth + 1); };
  bool r = false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      r = arg != loop.getInductionVar() || // a carried value: not followed
          llvm::any_of(ValueRange{loop.getLowerBound(), loop.getUpperBound(), loop.getStep()},
                       follow);
  } else if (Operation *def = v.getDefiningOp()) {
    if (auto p = dyn_cast<ProgramIdOp>(def))
      r = p.getDim() == dim;
    else if (dim == 0 && def->getName().getStringRef().starts_with("tile.cluster"))
      r = true; // a cluster's rank reads the program id along dimension 0
    else
      r = llvm::any_of(def->getOperands(), follow);
  }
  return seen[v] = r;
}

/// ", its loop at 4032" (the induction values where an index was evaluated).
static std::string loopText(const std::vector<int64_t> &values) {
  if (values.empty())
    return "";
  std::string s = values.size() == 1 ? ", its loop at " : ", its loops at ";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s;
}

/// checkKernelAtSizes with the signature read and bound (deriveManifest has
/// both and goes on with them).
static LogicalResult checkBoundKernel(func::FuncOp kernel, const KernelSignature *sig,
                                      const KernelSignature::Bound *bound) {
  if (failed(sig->checkTensors(*bound)))
    return failure();
  std::vector<int64_t> grid = bound->grid;
  int64_t cluster = clusterSize(kernel);
  if (cluster > 1 && grid[0] % cluster != 0)
    return kernel.emitError("tile.cluster = ")
           << cluster << ": the grid has " << grid[0]
           << " CTAs along dimension 0 at these sizes, not a multiple of the cluster's "
           << cluster << " (tile.grid)";
  // Input ranges: on inputs only, not empty at these sizes.
  llvm::DenseSet<unsigned> stored;
  kernel.walk([&](StoreOp s) { stored.insert(cast<BlockArgument>(s.getDesc()).getArgNumber()); });
  for (unsigned k = 0; k < sig->descArgs.size(); ++k) {
    FailureOr<std::optional<std::pair<double, double>>> init = sig->initRange(k, *bound);
    if (failed(init))
      return failure();
    if (*init && stored.contains(sig->descArgs[k]))
      return kernel.emitOpError("argument #")
             << sig->descArgs[k] << " is stored: `tile.init` gives the range of an input's elements";
  }
  // Programs that store to the same elements: a store whose coordinates do
  // not depend on a grid dimension with more than one program is written by
  // all of them, in no set order (the seventh sweep's k05: each of 8
  // programs along N stored its partial row sums to the same R[s, m]; the
  // kernel and its reference each kept a different one). A warning: programs
  // that store the same values (a statistic of A alone) are in order.
  kernel.walk([&](StoreOp store) {
    for (unsigned d = 0; d < grid.size(); ++d) {
      DenseMap<Value, bool> seen;
      if (grid[d] <= 1 || llvm::any_of(store.getCoords(), [&](Value c) {
            return dependsOnProgramId(c, d, seen);
          }))
        continue;
      store.emitWarning("the tile.store's coordinates do not depend on tile.program_id ")
          << d << ", and the grid has " << grid[d]
          << " programs along it at these sizes: they all write the same elements, in no set "
             "order (one program's values land, which one varies from run to run)";
      return;
    }
  });
  // TMA starts a copy at a 16-byte unit of the innermost dimension: the
  // lowering refuses coordinates no size can align; those that depend on a
  // size (a loop from K0) are checked at these sizes.
  // A program id along a grid dimension of one program is 0 at these sizes
  // (a split-K grid of one split starts its loop at 0 whatever KC is: the
  // sweep's B11 was refused "at these sizes").
  IndexEvaluator eval(kernel, *sig, bound->values, grid);
  DenseMap<Value, int64_t> known = eval.sizeValues();
  kernel.walk([&](ProgramIdOp p) {
    if (grid[p.getDim()] == 1)
      known[p.getResult()] = 0;
  });
  Operation *misaligned = nullptr;
  std::string why;
  kernel.walk([&](Operation *op) {
    if (misaligned)
      return;
    if (auto l = dyn_cast<LoadOp>(op))
      why = misalignedInnermostCoordinate(l.getDesc().getType(), l.getCoords(), &known);
    else if (auto s = dyn_cast<StoreOp>(op))
      why = misalignedInnermostCoordinate(s.getDesc().getType(), s.getCoords(), &known,
                                          /*store=*/true);
    if (!why.empty())
      misaligned = op;
  });
  std::string at;
  for (auto [name, value] : bound->sizes)
    at += (at.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  if (misaligned)
    return misaligned->emitError("'") << misaligned->getName() << "': " << why << " (sizes " << at
                                      << ")";
  // A tensor.extract past its tile reads whatever lies beyond it in shared
  // memory or registers (the eighth sweep's B1: a 64-entry bucket table read
  // at key block 127, its value a TMA row coordinate): undefined in the IR,
  // silent in the kernel.
  if (std::optional<IndexEvaluator::ExtractOutOfRange> x = eval.extractOutOfRange()) {
    auto extract = cast<tensor::ExtractOp>(x->op);
    InFlightDiagnostic d = x->op->emitError("'tensor.extract': index ")
                           << x->index << " along dimension " << x->dim << " of a tile of "
                           << x->extent << " at these sizes (program (" << x->program[0] << ", "
                           << x->program[1] << ", " << x->program[2] << ")"
                           << loopText(x->loopValues)
                           << "): it reads past the tile; load a larger box or keep the index "
                           << (x->index < 0 ? "at 0 or more" : "below " + std::to_string(x->extent))
                           << " (sizes " << at << ")";
    if (auto load = extract.getTensor().getDefiningOp<LoadOp>())
      d.attachNote(load.getLoc()) << "the tile is loaded here";
    return d;
  }
  return success();
}

LogicalResult
stagecraft::checkKernelAtSizes(func::FuncOp kernel,
                               const std::vector<std::pair<std::string, int64_t>> &overrides) {
  FailureOr<KernelSignature> sig = KernelSignature::get(kernel);
  if (failed(sig))
    return failure();
  FailureOr<KernelSignature::Bound> bound = sig->bind(overrides);
  if (failed(bound))
    return failure();
  return checkBoundKernel(kernel, &*sig, &*bound);
}

FailureOr<KernelManifest>
stagecraft::deriveManifest(func::FuncOp kernel,
                           const std::vector<std::pair<std::string, int64_t>> &overrides) {
  FailureOr<KernelSignature> sig = KernelSignature::get(kernel);
  if (failed(sig))
    return failure();
  KernelManifest m;
  m.kernel = kernel.getSymName().str();
  FailureOr<KernelSignature::Bound> bound = sig->bind(overrides);
  if (failed(bound) || failed(checkBoundKernel(kernel, &*sig, &*bound)))
    return failure();
  std::vector<int64_t> sizes = bound->values;
  m.sizes = bound->sizes;
  m.grid = bound->grid;
  m.programs = m.grid[0] * m.grid[1] * m.grid[2];
  // Clusters: C consecutive CTAs along dimension 0. The loads they share
  // (the lowering's tile::planMulticast, which reports its refusals) are
  // loaded by each CTA in parts of 1/C of the rows: that part is the box of
  // the descriptor's tensor map.
  m.cluster = clusterSize(kernel);
  std::set<unsigned> partArgs;
  if (m.cluster > 1) {
    ScopedDiagnosticHandler silence(kernel.getContext(), [](Diagnostic &) { return success(); });
    if (FailureOr<LoopGraph> graph = buildLoopGraph(kernel); succeeded(graph)) {
      ScheduleReport report = checkSchedule(*graph, graph->initialSchedule);
      kernel.walk([&](LoadOp load) {
        ScheduleAttr s = getSchedule(load);
        if (s && llvm::is_contained(report.sharedLoads, s.getName().str()))
          partArgs.insert(cast<BlockArgument>(load.getDesc()).getArgNumber());
      });
    }
  }

  std::vector<bool> stored(kernel.getNumArguments(), false);
  kernel.walk([&](StoreOp s) { stored[cast<BlockArgument>(s.getDesc()).getArgNumber()] = true; });
  auto shapeOf = [&](unsigned arg) {
    for (unsigned k = 0; k < sig->descArgs.size(); ++k)
      if (sig->descArgs[k] == arg)
        return KernelSignature::evaluate(sig->descShapes[k], sizes);
    return std::vector<int64_t>();
  };
  auto count = [](const std::vector<int64_t> &s) {
    int64_t n = 1;
    for (int64_t d : s)
      n *= d;
    return n;
  };

  // Peers, when the math is exactly theirs and the shapes fit them.
  std::optional<GemmPeer> gemm = matchGemmPeer(kernel);
  std::optional<AttentionPeer> attention = matchAttentionPeer(kernel);
  llvm::json::Object peer;
  double flops = -1;
  std::vector<int64_t> attentionShape;
  if (gemm) {
    auto sa = shapeOf(gemm->a), sb = shapeOf(gemm->b), sc = shapeOf(gemm->c);
    int64_t M = sa[0], K = sa[1];
    int64_t N = gemm->transposeB ? sb[0] : sb[1];
    // cuBLASLt's FP8 matmul wants every size a multiple of 16.
    bool fits = !gemm->fp8 || (M % 16 == 0 && N % 16 == 0 && K % 16 == 0);
    if (sa.size() == 2 && sb.size() == 2 && sc == std::vector<int64_t>{M, N} &&
        (gemm->transposeB ? sb[1] : sb[0]) == K && fits) {
      flops = 2.0 * M * N * K;
      peer = llvm::json::Object{{"kind", gemm->fp8 ? "gemm_fp8" : "gemm"}, {"a", "A"}, {"b", "B"},
                                {"c", "C"}, {"M", M}, {"N", N}, {"K", K},
                                {"transpose_b", gemm->transposeB}};
      if (gemm->fp8)
        peer["accumulation"] = gemm->promoted ? "promoted" : "fast";
      if (gemm->scaleA >= 0)
        peer["scale_a"] = "scale_a";
      if (gemm->scaleB >= 0)
        peer["scale_b"] = "scale_b";
    } else {
      gemm.reset();
    }
  }
  if (attention) {
    auto sq = shapeOf(attention->q);
    int bi = sig->sizeIndex("B"), hi = sig->sizeIndex("H");
    int64_t batch = bi >= 0 ? sizes[bi] : sq[0], heads = hi >= 0 ? sizes[hi] : 1;
    int64_t seq = sq[sq.size() - 2], dim = sq.back();
    attentionShape = {batch, heads, seq, dim};
    bool fits = count(sq) == count(attentionShape);
    for (int a : {attention->k, attention->v, attention->o})
      fits &= shapeOf(a) == sq;
    if (fits) {
      flops = 4.0 * batch * heads * seq * seq * dim * (attention->causal ? 0.5 : 1.0);
      peer = llvm::json::Object{
          {"kind", "attention"}, {"q", "Q"}, {"k", "K"}, {"v", "V"}, {"o", "O"},
          {"batch", batch}, {"heads", heads}, {"seq_q", seq}, {"seq_kv", seq},
          {"head_dim", dim}, {"causal", attention->causal},
          {"sm_scale", attention->log2Scale / M_LOG2E}};
    } else {
      attention.reset();
      attentionShape.clear();
    }
  }
  IndexEvaluator eval(kernel, *sig, sizes, m.grid);
  constexpr int64_t kPeerCapIterations = 100'000;
  // FLOPs: the peer's count where there is one (what its TFLOP/s mean),
  // else the dot FLOPs every program executes on elements inside the
  // tensors (not the padding past an edge), else, where the loads'
  // coordinates read a tensor, those of the whole tiles.
  if (flops < 0) {
    std::optional<double> executed = eval.usefulDotFlops();
    if (!executed)
      executed = eval.dotFlops();
    flops = executed ? *executed : 0;
    m.flopsUncounted = !executed;
  } else if (std::optional<double> executed = eval.usefulDotFlops(kPeerCapIterations);
             executed && *executed < flops) {
    // A kernel whose math matches the peer but whose programs cover less of
    // the problem (a grid of S / 256 programs of 128 query rows) does less
    // than the peer's count: counted so, its TFLOP/s went past the tensor
    // cores' peak (the compile fuzzer, 2024 TFLOP/s predicted). Its output
    // fails the peer's check anyway; the count says what it did. Counted
    // over grids of up to kPeerCapIterations programs and loop iterations:
    // past that (a 65536^2 GEMM's 131072 programs took 370 ms) the peer's
    // count stands.
    flops = *executed;
  }
  m.flops = flops;
  // Up to a million loop iterations over 4096 programs at most, spread over
  // the grid and scaled (an estimate for an allowance: a grid of half a
  // million programs took 0.9 s walked whole, the compile fuzzer's slow
  // unit); past that the runner allows for the kernel's count.
  if (std::optional<double> whole = eval.sampledDotFlops(4096, 1'000'000))
    m.referenceFlops = *whole;
  // The pipelined loop's trip count (the longest of the first and the last
  // program's) for the reductions' length.
  int64_t trips = 1;
  if (FailureOr<scf::ForOp> loop = findPipelinedLoopQuietly(kernel); succeeded(loop)) {
    DenseMap<Value, int64_t> env;
    auto lb = eval.eval(loop->getLowerBound(), env), ub = eval.eval(loop->getUpperBound(), env),
         step = eval.eval(loop->getStep(), env);
    if (lb && ub && step && *step > 0)
      trips = std::max<int64_t>(1, (*ub - *lb + *step - 1) / *step);
  }

  std::vector<std::string> names = tensorNames(kernel, stored, gemm, attention);
  llvm::json::Array tensors, params;
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    Type t = kernel.getArgumentTypes()[i];
    if (auto desc = dyn_cast<DescType>(t)) {
      auto shape = shapeOf(i);
      llvm::json::Array shapeJson, strides, box;
      // Loads and stores move the panels of DescType::getLoadBoxShape
      // (128-byte swizzled rows: what wgmma reads, and conflict-free
      // staging writes for stores).
      SmallVector<int64_t> boxShape = desc.getLoadBoxShape();
      int64_t stride = desc.getElementBytes();
      std::vector<int64_t> strideBytes(shape.size());
      for (int d = shape.size() - 1; d >= 0; --d) {
        strideBytes[d] = stride;
        stride *= shape[d];
      }
      // (A tensor map's limits were checked with the sizes: checkTensors.)
      if (partArgs.count(i) && boxShape.size() >= 2)
        boxShape[boxShape.size() - 2] /= m.cluster;
      for (unsigned d = 0; d < shape.size(); ++d) {
        shapeJson.push_back(shape[d]);
        strides.push_back(strideBytes[d]);
        box.push_back(boxShape[d]);
      }
      // The attention peer reads [batch, heads, seq, dim] tensors; the
      // descriptors view the same memory as [batch*heads, seq, dim].
      llvm::json::Array tensorShape(shapeJson);
      if (!attentionShape.empty() && llvm::is_contained({"Q", "K", "V", "O"}, names[i]))
        tensorShape = llvm::json::Array(attentionShape);
      llvm::json::Object tensor{{"name", names[i]},
                                {"dtype", dtypeName(desc.getElementType())},
                                {"shape", std::move(tensorShape)},
                                {"role", stored[i] ? "output" : "input"}};
      // Inputs uniform in [-1, 1] (rounded to the dtype: FP8 values fill
      // their range densely there); e8m0 scales 2^x for x drawn in [-2, 2]
      // and rounded, powers of two near 1.
      // An i32 table (pages, lengths, offsets) is all zeros, the one value
      // valid as any index. An argument's `tile.init` range replaces the
      // draw: lengths in [100, 4096), pages in [0, B * H * S / 128).
      double range = isScaleType(desc.getElementType()) ? 2.0 : 1.0;
      bool table = desc.getElementType().isInteger(32);
      double low = table ? 0.0 : -range, high = range;
      unsigned k = llvm::find(sig->descArgs, i) - sig->descArgs.begin();
      if (std::optional<std::pair<double, double>> init = sig->initRangeAt(k, sizes))
        std::tie(low, high) = *init; // (checked by checkKernelAtSizes)
      if (!stored[i])
        tensor["init"] = llvm::json::Object{
            {"kind", "uniform"}, {"low", low}, {"high", high}, {"seed", int64_t(i + 1)}};
      tensors.push_back(std::move(tensor));
      int64_t swizzle = desc.getLoadSwizzleBytes();
      // L2 promotion 256B, but 128B for a tensor whose rows are not a
      // multiple of 128 bytes apart (a box's rows then start inside 128-byte
      // lines): measured with 8000- and 8128-byte rows (K = 4000, 4064 bf16),
      // 256B cost the GEMMs 9-25% and 1.3-1.75x the DRAM bytes, which 128B
      // gives back in full; with rows 8064 or 8192 bytes apart 256B runs as
      // well as 128B, within 2% either way on the assets (bench/results/
      // ncu-sizes-h100-2026-11-28, ncu-promotion-h100-2026-11-28).
      bool linesApart = shape.size() < 2 || strideBytes[shape.size() - 2] % 128 == 0;
      params.push_back(llvm::json::Object{
          {"kind", "tensormap"}, {"tensor", names[i]},
          {"dtype", dtypeName(desc.getElementType())},
          {"global_shape", std::move(shapeJson)},
          {"global_strides_bytes", std::move(strides)},
          {"box", std::move(box)},
          {"swizzle", swizzle ? llvm::formatv("{0}B", swizzle).str() : std::string("none")},
          {"l2_promotion", linesApart ? "256B" : "128B"}, {"oob_fill", "zero"}});
    } else {
      int s = -1;
      for (unsigned k = 0; k < sig->sizeArgs.size(); ++k)
        if (sig->sizeArgs[k] == i)
          s = k;
      params.push_back(llvm::json::Object{{"kind", "scalar"}, {"dtype", "i32"},
                                          {"value", sizes[s]}});
    }
  }
  // Each output's tolerance: the loosest of the stores writing it.
  kernel.walk([&](StoreOp s) {
    OutputTolerance t = toleranceFor(s, trips);
    t.tensor = names[cast<BlockArgument>(s.getDesc()).getArgNumber()];
    for (OutputTolerance &o : m.outputs)
      if (o.tensor == t.tensor) {
        o.normRel = std::max(o.normRel, t.normRel);
        o.maxRel = std::max(o.maxRel, t.maxRel);
        return;
      }
    m.outputs.push_back(t);
  });

  llvm::json::Object problem{
      {"kind", gemm ? "gemm" : attention ? "attention" : "kernel"}};
  for (const auto &[name, value] : m.sizes)
    problem[name] = value;
  // How a persistent kernel walks its tiles at these sizes (--tile-order).
  if (std::string order = tileOrderAt(kernel, m.sizes); !order.empty())
    problem["tile_order"] = order;

  std::string body;
  llvm::raw_string_ostream os(body);
  os << "  \"flops\": " << llvm::formatv("{0:F0}", flops) << ",\n";
  os << "  \"problem\": " << llvm::json::Value(std::move(problem)) << ",\n";
  os << "  \"tensors\": " << llvm::json::Value(std::move(tensors)) << ",\n";
  os << "  \"params\": " << llvm::json::Value(std::move(params));
  if (!peer.empty())
    os << ",\n  \"peer\": " << llvm::json::Value(std::move(peer));
  m.body = body;
  return m;
}

std::string KernelManifest::toJson(int64_t blockThreads, int64_t smem,
                                   const ReferenceLaunch *ref) const {
  std::string reference;
  if (ref) {
    llvm::json::Array outs;
    for (const OutputTolerance &o : outputs) {
      llvm::json::Object out{{"tensor", o.tensor},
                             {"norm_rel_tol", o.normRel},
                             {"max_rel_tol", o.maxRel},
                             {"basis", o.basis}};
      if (o.flipFraction > 0)
        out["flip_fraction"] = o.flipFraction;
      if (o.step > 0)
        out["step"] = o.step;
      outs.push_back(std::move(out));
    }
    llvm::json::Object r{{"kind", "ir"},
                         {"module", "reference.ptx"},
                         {"kernel", ref->kernel},
                         {"grid", llvm::json::Array{ref->blocks, 1, 1}},
                         {"block", llvm::json::Array{ref->threads, 1, 1}},
                         {"scratch_bytes_per_block", ref->scratchPerBlock},
                         {"reorder", true},
                         {"outputs", std::move(outs)}};
    if (referenceFlops >= 0)
      r["flops"] = referenceFlops;
    reference = llvm::formatv(",\n  \"reference\": {0}", llvm::json::Value(std::move(r))).str();
  } else {
    reference = ",\n  \"reference\": {\"kind\": \"none\"}";
  }
  std::string targetField =
      target == "sm_90a" ? "" : llvm::formatv("  \"target\": \"{0}\",\n", target).str();
  if (cluster > 1)
    targetField += llvm::formatv("  \"cluster\": [{0}, 1, 1],\n", cluster).str();
  return llvm::formatv("{{\n  \"format\": \"stagecraft-bundle\",\n  \"version\": 1,\n"
                       "  \"kernel\": \"{0}\",\n  \"grid\": [{1}, {2}, {3}],\n"
                       "  \"block\": [{4}, 1, 1],\n  \"dynamic_smem_bytes\": {5},\n{8}{6}{7}\n}\n",
                       kernel, grid[0], grid[1], grid[2], blockThreads, smem, body, reference,
                       targetField)
      .str();
}
