//===- Elementwise.cpp - arith and math ops applied element by element ----===//
//
// One table entry per op: its scalar semantics on carrier values (f32 for
// every float type, i32, i1), used by the pipelined lowering on each
// register and by the reference lowering on each element. Results of a
// 16-bit float type are computed in f32 and rounded where they are read
// (Frag::unrounded), which is exactly the op's semantics.
//
// Fast forms (the pipelined kernel): ex2.approx.ftz, lg2.approx.ftz,
// tanh.approx, rsqrt.approx.ftz, div.full, sqrt.approx. The reference takes
// the non-ftz forms, divides and takes square roots as IEEE, and builds tanh
// and rsqrt from exp2 and IEEE division and square root, so the two
// lowerings do not share an approximation.
//
// The transcendental functions with no PTX instruction (erf, sin, pow, ...)
// call CUDA's libdevice, linked in by the back end (Backend.cpp): the kernel
// its single-precision function (as Triton's libdevice calls and nvcc do),
// the reference its double-precision one on the widened operands, so the
// two lowerings do not share those either.
//
//===----------------------------------------------------------------------===//
#include "passes/Lowering/patterns/Patterns.h"
#include "mlir/IR/Matchers.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringMap.h"

#include <cmath>

using namespace mlir;
using namespace stagecraft::lowering;

namespace {

Value f32Const(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(static_cast<float>(v)));
}

Value callLibdevice(OpBuilder &b, Location loc, StringRef name, ValueRange args);

/// libdevice's f64 function `name` of the widened arguments, rounded to f32
/// (the reference's math).
Value libdeviceF64(OpBuilder &b, Location loc, StringRef name, ValueRange x) {
  SmallVector<Value> wide;
  for (Value v : x)
    wide.push_back(LLVM::FPExtOp::create(b, loc, b.getF64Type(), v));
  Value r = callLibdevice(b, loc, name, wide);
  return LLVM::FPTruncOp::create(b, loc, b.getF32Type(), r);
}

Value intrinsic(OpBuilder &b, Location loc, StringRef name, ValueRange args) {
  return LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(), b.getStringAttr(name), args)
      .getResult(0);
}

Value asmF32(OpBuilder &b, Location loc, StringRef text, Value x) {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, b.getF32Type(), ValueRange{x}, b.getStringAttr(text), b.getStringAttr("=f,f"),
      /*has_side_effects=*/UnitAttr(), /*is_align_stack=*/UnitAttr(),
      LLVM::TailCallKindAttr::get(b.getContext(), LLVM::TailCallKind::None),
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
  return op.getResult(0);
}

Value exp2(OpBuilder &b, Location loc, Value x, bool fast) {
  return intrinsic(b, loc, fast ? "llvm.nvvm.ex2.approx.ftz.f32" : "llvm.nvvm.ex2.approx.f32", x);
}
Value log2(OpBuilder &b, Location loc, Value x, bool fast) {
  return intrinsic(b, loc, fast ? "llvm.nvvm.lg2.approx.ftz.f" : "llvm.nvvm.lg2.approx.f", x);
}

/// The same op on scalar operands, its attributes kept (predicates,
/// fastmath flags): arith's conversion to LLVM lowers it.
Value cloneScalar(OpBuilder &b, Location loc, Operation *op, ValueRange operands,
                  Type result) {
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute a : op->getAttrs())
    if (a.getName() != "tile.sched")
      attrs.push_back(a);
  OperationState st(loc, op->getName(), operands, TypeRange{result}, attrs);
  return b.create(st)->getResult(0);
}

Type resultCarrier(Operation *op) {
  Type t = op->getResult(0).getType();
  if (auto tt = dyn_cast<RankedTensorType>(t))
    t = tt.getElementType();
  return carrierType(t);
}

/// A call of libdevice's `name`, declared in the module the builder is in.
Value callLibdevice(OpBuilder &b, Location loc, StringRef name, ValueRange args) {
  Operation *module = b.getInsertionBlock()->getParentOp();
  if (!isa<ModuleOp>(module))
    module = module->getParentOfType<ModuleOp>();
  Type t = args[0].getType();
  SmallVector<Type> params(args.size(), t);
  FailureOr<LLVM::LLVMFuncOp> fn = [&] {
    OpBuilder::InsertionGuard guard(b);
    return LLVM::lookupOrCreateFn(b, module, name, params, t);
  }();
  // Only a symbol of that name with another type fails: libdevice's names
  // are reserved (`__nv_`), and the module's own functions are kernels.
  assert(succeeded(fn) && "libdevice name taken");
  return LLVM::CallOp::create(b, loc, *fn, args).getResult();
}

/// Math with no PTX instruction: libdevice's f32 function in the kernel, its
/// f64 one in the reference (fmod is exact in both).
struct LibdeviceMath {
  const char *op, *f32, *f64;
};
constexpr LibdeviceMath kLibdeviceMath[] = {
    {"math.erf", "__nv_erff", "__nv_erf"},       {"math.erfc", "__nv_erfcf", "__nv_erfc"},
    {"math.tan", "__nv_tanf", "__nv_tan"},       {"math.asin", "__nv_asinf", "__nv_asin"},
    {"math.acos", "__nv_acosf", "__nv_acos"},    {"math.atan", "__nv_atanf", "__nv_atan"},
    {"math.atan2", "__nv_atan2f", "__nv_atan2"}, {"math.sinh", "__nv_sinhf", "__nv_sinh"},
    {"math.cosh", "__nv_coshf", "__nv_cosh"},    {"math.asinh", "__nv_asinhf", "__nv_asinh"},
    {"math.acosh", "__nv_acoshf", "__nv_acosh"}, {"math.atanh", "__nv_atanhf", "__nv_atanh"},
    {"math.expm1", "__nv_expm1f", "__nv_expm1"}, {"math.log1p", "__nv_log1pf", "__nv_log1p"},
    {"math.log10", "__nv_log10f", "__nv_log10"}, {"math.cbrt", "__nv_cbrtf", "__nv_cbrt"},
    {"math.powf", "__nv_powf", "__nv_pow"},      {"arith.remf", "__nv_fmodf", "__nv_fmod"},
};

const llvm::StringMap<ScalarFn> &table() {
  static const llvm::StringMap<ScalarFn> fns = [] {
    llvm::StringMap<ScalarFn> m;
    // Ops whose scalar form is the op itself on carrier types.
    auto same = [](OpBuilder &b, Location loc, Operation *op, ValueRange x, bool) {
      return cloneScalar(b, loc, op, x, resultCarrier(op));
    };
    for (const char *name :
         {"arith.addf", "arith.subf", "arith.mulf", "arith.maximumf",
          "arith.minimumf", "arith.maxnumf", "arith.minnumf", "arith.negf", "arith.cmpf",
          "arith.cmpi", "arith.select", "arith.addi", "arith.subi", "arith.muli",
          "arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.andi",
          "arith.ori", "arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui",
          "arith.minui", "arith.shli", "arith.shrsi", "arith.shrui", "arith.sitofp",
          "arith.uitofp", "arith.fptosi", "arith.fptoui"})
      m[name] = same;
    // Float-to-float casts: every float is carried as f32; the result's
    // rounding is applied where it is read (truncf) or is exact (extf).
    auto identity = [](OpBuilder &, Location, Operation *, ValueRange x, bool) {
      return x[0];
    };
    m["arith.truncf"] = identity;
    m["arith.extf"] = identity;
    // Integer width changes between i1 and i32 carriers.
    m["arith.extui"] = [](OpBuilder &b, Location loc, Operation *op, ValueRange x, bool) {
      Type t = resultCarrier(op);
      return x[0].getType() == t ? x[0] : arith::ExtUIOp::create(b, loc, t, x[0]).getResult();
    };
    m["arith.extsi"] = [](OpBuilder &b, Location loc, Operation *op, ValueRange x, bool) {
      Type t = resultCarrier(op);
      return x[0].getType() == t ? x[0] : arith::ExtSIOp::create(b, loc, t, x[0]).getResult();
    };
    m["arith.trunci"] = [](OpBuilder &b, Location loc, Operation *op, ValueRange x, bool) {
      Type t = resultCarrier(op);
      return x[0].getType() == t ? x[0] : arith::TruncIOp::create(b, loc, t, x[0]).getResult();
    };
    // Division: the pipelined kernel's is div.full.f32 (full range, at most 2
    // ulp: as Triton divides fp32), the reference's IEEE div.rn.f32. ptxas
    // makes each div.rn a branch around a slow-path call, so a tile's
    // divisions run one after another: the SiLU epilogue of a 128x128 dual
    // GEMM took 9.4 us with them, 0.8 us with div.full (bench/results/
    // epilogue-cost-h100-2026-11-27), the outputs verified alike.
    m["arith.divf"] = [](OpBuilder &b, Location loc, Operation *op, ValueRange x, bool fast) {
      if (fast && resultCarrier(op).isF32())
        return intrinsic(b, loc, "llvm.nvvm.div.full", x);
      return cloneScalar(b, loc, op, x, resultCarrier(op));
    };
    m["math.absf"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::FAbsOp::create(b, loc, x[0]).getResult();
    };
    // Rounding to an integral value: exact, one cvt.rmi/rpi/rzi each (round
    // halves away from zero, as math.round means).
    m["math.floor"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::FFloorOp::create(b, loc, x[0]).getResult();
    };
    m["math.ceil"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::FCeilOp::create(b, loc, x[0]).getResult();
    };
    m["math.trunc"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::FTruncOp::create(b, loc, x[0]).getResult();
    };
    m["math.round"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::RoundOp::create(b, loc, x[0]).getResult();
    };
    m["math.fma"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::FMAOp::create(b, loc, x[0], x[1], x[2]).getResult();
    };
    m["math.roundeven"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::RoundEvenOp::create(b, loc, x[0]).getResult();
    };
    // Classification: an ordered or unordered compare, exact in both.
    auto classify = [](LLVM::FCmpPredicate pred, bool abs) {
      return [pred, abs](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) -> Value {
        Value v = abs ? LLVM::FAbsOp::create(b, loc, x[0]).getResult() : x[0];
        Value other = abs ? f32Const(b, loc, INFINITY) : x[0];
        return LLVM::FCmpOp::create(b, loc, pred, v, other);
      };
    };
    m["math.isnan"] = classify(LLVM::FCmpPredicate::uno, false);
    m["math.isinf"] = classify(LLVM::FCmpPredicate::oeq, true);
    m["math.isfinite"] = classify(LLVM::FCmpPredicate::one, true);
    m["math.copysign"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::CopySignOp::create(b, loc, x[0], x[1]).getResult();
    };
    // Integer bit counts and magnitude on i32 tiles: one instruction each
    // (popc, clz, brev + clz, abs), exact in kernel and reference. A zero
    // counts 32 leading or trailing zeros, as math.ctlz and math.cttz say.
    m["math.ctpop"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::CtPopOp::create(b, loc, x[0].getType(), x[0]).getResult();
    };
    m["math.ctlz"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::CountLeadingZerosOp::create(b, loc, x[0].getType(), x[0], false).getResult();
    };
    m["math.cttz"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::CountTrailingZerosOp::create(b, loc, x[0].getType(), x[0], false).getResult();
    };
    m["math.absi"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool) {
      return LLVM::AbsOp::create(b, loc, x[0].getType(), x[0], false).getResult();
    };
    for (const LibdeviceMath &f : kLibdeviceMath)
      m[f.op] = [f](OpBuilder &b, Location loc, Operation *, ValueRange x, bool fast) -> Value {
        if (fast)
          return callLibdevice(b, loc, f.f32, x);
        return libdeviceF64(b, loc, f.f64, x);
      };
    // sin and cos: the argument reduced to [-pi, pi] (x - 2 pi rint(x / 2 pi),
    // 2 pi in two parts through FMAs). Once: the f32 quotient is off by
    // x / 2 pi * 2^-24, so from |x| ~ 1e6 the argument passes pi a little
    // (3.9 at 1e7), where the H200's sin.approx still measured 7.6e-7 at
    // most; a second step keeps it within pi at every magnitude but cost a
    // sin/cos-bound kernel 12% for 4.2e-7 (bench/results/sincos-reorder-
    // h200-2026-11-29, bench/math/sincos_reduction.py).
    // then sin.approx / cos.approx (MUFU, at most 2^-20.9 absolute there).
    // libdevice's __nv_sinf inlined is about 40 instructions an element and
    // a Payne-Hanek path for large arguments: a 128x128 epilogue's sin and
    // cos came to 10k instructions a thread, and its CTA spent 84 us in them
    // against 57 in its main loop (bench/results/panel-epilogue-h200-
    // 2026-11-28, traces: the instruction fetch, not the math). The
    // reference keeps libdevice's f64 functions.
    for (auto [op, approx, ref] : {std::tuple{"math.sin", "llvm.nvvm.sin.approx.f", "__nv_sin"},
                                   std::tuple{"math.cos", "llvm.nvvm.cos.approx.f", "__nv_cos"}})
      m[op] = [approx, ref](OpBuilder &b, Location loc, Operation *, ValueRange x,
                            bool fast) -> Value {
        if (!fast)
          return libdeviceF64(b, loc, ref, x);
        const double twoPi = 2 * M_PI;
        const float hi = static_cast<float>(twoPi);
        const float lo = static_cast<float>(twoPi - static_cast<double>(hi));
        Value k = LLVM::FMulOp::create(b, loc, x[0], f32Const(b, loc, 1 / twoPi));
        k = LLVM::RoundEvenOp::create(b, loc, k);
        Value negK = LLVM::FNegOp::create(b, loc, k);
        Value r = LLVM::FMAOp::create(b, loc, negK, f32Const(b, loc, hi), x[0]);
        r = LLVM::FMAOp::create(b, loc, negK, f32Const(b, loc, lo), r);
        return intrinsic(b, loc, approx, r);
      };
    // sqrt.approx.f32 (at most 2^-23 relative) in the kernel: the IEEE
    // sqrt.rn.f32 costs as div.rn does (a 128x128 epilogue's square roots
    // took 4.0 us against 0.1, bench/results/epilogue-cost-h100-2026-11-27).
    m["math.sqrt"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool fast) {
      if (fast)
        return intrinsic(b, loc, "llvm.nvvm.sqrt.approx.f", x[0]);
      return LLVM::SqrtOp::create(b, loc, x[0]).getResult(); // sqrt.rn.f32
    };
    m["math.rsqrt"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool fast) {
      if (fast)
        return intrinsic(b, loc, "llvm.nvvm.rsqrt.approx.ftz.f", x[0]);
      Value s = LLVM::SqrtOp::create(b, loc, x[0]);
      return LLVM::FDivOp::create(b, loc, f32Const(b, loc, 1.0), s).getResult();
    };
    m["math.exp2"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool fast) {
      return exp2(b, loc, x[0], fast);
    };
    m["math.exp"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool fast) {
      Value y = LLVM::FMulOp::create(b, loc, x[0], f32Const(b, loc, M_LOG2E));
      return exp2(b, loc, y, fast);
    };
    m["math.log2"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool fast) {
      return log2(b, loc, x[0], fast);
    };
    m["math.log"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool fast) {
      return LLVM::FMulOp::create(b, loc, log2(b, loc, x[0], fast), f32Const(b, loc, M_LN2))
          .getResult();
    };
    m["math.tanh"] = [](OpBuilder &b, Location loc, Operation *, ValueRange x, bool fast) {
      if (fast)
        return asmF32(b, loc, "tanh.approx.f32 $0, $1;", x[0]);
      // tanh |x| = 1 - 2 / (2^(2|x| log2 e) + 1), with x's sign.
      Value ax = LLVM::FAbsOp::create(b, loc, x[0]);
      Value e = exp2(b, loc, LLVM::FMulOp::create(b, loc, ax, f32Const(b, loc, 2 * M_LOG2E)),
                     false);
      Value d = LLVM::FAddOp::create(b, loc, e, f32Const(b, loc, 1.0));
      Value q = LLVM::FDivOp::create(b, loc, f32Const(b, loc, 2.0), d);
      Value t = LLVM::FSubOp::create(b, loc, f32Const(b, loc, 1.0), q);
      return LLVM::CopySignOp::create(b, loc, t, x[0]).getResult();
    };
    return m;
  }();
  return fns;
}

/// The elementwise pattern: the result's layout is the join of its
/// operands' (a row view times a column view is a tile).
class ElementwisePattern final : public TilePattern {
public:
  bool matches(Operation *op) const override { return findScalarFn(op) != nullptr; }

  FailureOr<Layout> inferLayout(Operation *op, ArrayRef<Layout> operands,
                                const TileGeometry &, std::string &why) const override {
    // A shift by a constant past the element's bits is undefined (LLVM folds
    // it to poison; the reference, shifting at run time, got 0 or -1: the
    // eleventh sweep's B5): refused rather than two answers.
    if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op)) {
      unsigned width = getElementTypeOrSelf(op->getResult(0).getType()).getIntOrFloatBitWidth();
      APInt amount;
      if (matchPattern(op->getOperand(1), m_ConstantInt(&amount)) &&
          (amount.isNegative() || amount.getSExtValue() >= int64_t(width))) {
        why = "shifts a " + std::to_string(width) + "-bit integer by " +
              std::to_string(amount.getSExtValue()) + ": undefined past " +
              std::to_string(width - 1) + " bits (LLVM folds it to poison)";
        return failure();
      }
    }
    Layout l = Layout::splat();
    for (auto [i, o] : llvm::enumerate(operands)) {
      bool ok;
      l = join(l, o, ok);
      if (!ok) {
        why = "has operands whose register layouts do not meet (" + operands[0].str() + " and " +
              o.str() + ")";
        return failure();
      }
    }
    if (auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType()))
      if (l.kind == Kind::RowView || l.kind == Kind::ColView || l.kind == Kind::Tile)
        l.cols = t.getDimSize(1);
    return l;
  }

  Frag emit(Operation *op, RegisterContext &ctx, const Layout &result) const override {
    const ScalarFn &fn = *findScalarFn(op);
    SmallVector<Frag> in;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      in.push_back(ctx.operand(op, i));
    Type elemType = cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
    Frag out{result, elemType, {}, /*unrounded=*/isa<FloatType>(elemType) && !elemType.isF32()};
    Value unread;
    for (int64_t e = 0; e < result.count(ctx.geom); ++e) {
      if (!ctx.needed(result, e)) {
        if (!unread)
          unread = LLVM::PoisonOp::create(ctx.e.b, ctx.e.loc, carrierType(elemType));
        out.elems.push_back(unread);
        continue;
      }
      SmallVector<Value> x;
      for (const Frag &f : in)
        x.push_back(ctx.element(f, result, e));
      out.elems.push_back(fn(ctx.e.b, ctx.e.loc, op, x, /*fast=*/true));
    }
    return out;
  }

  void emitReference(Operation *op, ReferenceContext &ctx) const override {
    const ScalarFn &fn = *findScalarFn(op);
    ctx.forEach(op->getResult(0), [&](ValueRange index) {
      SmallVector<Value> x;
      for (Value operand : op->getOperands())
        x.push_back(ctx.element(operand, index));
      return fn(ctx.b, ctx.loc, op, x, /*fast=*/false);
    });
  }

  bool unroundedResult(Operation *op) const override {
    Type t = cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
    return isa<FloatType>(t) && !t.isF32();
  }

  bool elementLocal() const override { return true; }

  bool discontinuous(Operation *op) const override {
    // copysign takes its second operand's sign, atan2 jumps by 2 pi across
    // the negative x axis: both step where a computed value crosses zero
    // (the eleventh sweep's B3: sign(acc) by copysign got no flips, by cmpf
    // it did).
    return llvm::is_contained({"arith.cmpf", "arith.fptosi", "arith.fptoui", "math.floor",
                               "math.ceil", "math.trunc", "math.round", "math.roundeven",
                               "arith.remf", "math.copysign", "math.atan2"},
                              op->getName().getStringRef());
  }

  int approximationLog2(Operation *op) const override {
    StringRef name = op->getName().getStringRef();
    if (name == "math.tanh")
      return -10; // tanh.approx.f32: about 2^-10.99 relative
    if (name == "math.exp" || name == "math.exp2" || name == "math.log" ||
        name == "math.log2" || name == "math.rsqrt")
      return -21;
    if (name == "arith.divf")
      return -22; // div.full.f32: at most 2 ulp
    if (name == "math.sqrt")
      return -23; // sqrt.approx.f32
    if (name == "math.sin" || name == "math.cos")
      return -19; // sin.approx/cos.approx: 2^-20.9 absolute after the reduction
    for (const LibdeviceMath &f : kLibdeviceMath)
      if (name == f.op)
        return -20; // libdevice's f32 functions: within 4 ulp (CUDA's maximum ulp errors)
    return 0;
  }
};

} // namespace

const ScalarFn *stagecraft::lowering::findScalarFn(Operation *op) {
  // Only ops on tensors or scalars of supported types; a tensor op must
  // have tensor results for the layout to apply.
  auto it = table().find(op->getName().getStringRef());
  if (it == table().end() || op->getNumResults() != 1)
    return nullptr;
  return &it->second;
}

namespace stagecraft::lowering {
const TilePattern &elementwisePattern() {
  static ElementwisePattern p;
  return p;
}
} // namespace stagecraft::lowering
