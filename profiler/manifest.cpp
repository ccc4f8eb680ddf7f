#include "manifest.h"

#include "flops.h"
#include "tensormap.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>

namespace stagecraft::profiler {

const char *dtypeName(DType t) {
  switch (t) {
  case DType::BF16: return "bf16";
  case DType::F16: return "f16";
  case DType::F32: return "f32";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::E4M3: return "e4m3";
  case DType::E5M2: return "e5m2";
  case DType::E8M0: return "e8m0";
  }
  return "?";
}

size_t dtypeSize(DType t) {
  switch (t) {
  case DType::BF16: return 2;
  case DType::F16: return 2;
  case DType::F32: return 4;
  case DType::I32: return 4;
  case DType::I64: return 8;
  case DType::E4M3:
  case DType::E5M2:
  case DType::E8M0: return 1;
  }
  return 0;
}

bool dtypeIsFloat(DType t) { return t == DType::BF16 || t == DType::F16 || t == DType::F32; }

bool dtypeIsByteFloat(DType t) { return t == DType::E4M3 || t == DType::E5M2 || t == DType::E8M0; }

int64_t TensorSpec::elementCount() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

const TensorSpec *Manifest::findTensor(const std::string &name) const {
  for (const auto &t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

namespace {

[[noreturn]] void fail(const std::string &path, const std::string &why) {
  throw ManifestError("manifest.json: " + path + ": " + why);
}

// A JSON object plus its path in the manifest, with typed accessors whose errors name the field.
class Obj {
public:
  Obj(const json::Value &v, std::string path) : v_(v), path_(std::move(path)) {
    if (!v_.isObject())
      fail(path_.empty() ? "top level" : path_,
           std::string("expected an object, got ") + json::typeName(v_.type()));
  }

  std::string field(const std::string &key) const { return path_.empty() ? key : path_ + "." + key; }
  const std::string &path() const { return path_; }
  bool has(const std::string &key) const { return v_.find(key) != nullptr; }

  const json::Value &get(const std::string &key) const {
    const json::Value *f = v_.find(key);
    if (!f) fail(field(key), "missing (required)");
    used_.insert(key);
    return *f;
  }

  std::string str(const std::string &key) const {
    const json::Value &f = get(key);
    if (!f.isString()) fail(field(key), std::string("expected a string, got ") + json::typeName(f.type()));
    return f.asString();
  }

  int64_t integer(const std::string &key, int64_t lo, int64_t hi) const {
    return checkInt(get(key), field(key), lo, hi);
  }

  double number(const std::string &key) const {
    const json::Value &f = get(key);
    if (!f.isNumber()) fail(field(key), std::string("expected a number, got ") + json::typeName(f.type()));
    return f.asDouble();
  }

  bool boolean(const std::string &key) const {
    const json::Value &f = get(key);
    if (!f.isBool()) fail(field(key), std::string("expected true or false, got ") + json::typeName(f.type()));
    return f.asBool();
  }

  const json::Value &array(const std::string &key) const {
    const json::Value &f = get(key);
    if (!f.isArray()) fail(field(key), std::string("expected an array, got ") + json::typeName(f.type()));
    return f;
  }

  std::vector<int64_t> intArray(const std::string &key, int64_t lo, int64_t hi) const {
    const json::Value &arr = array(key);
    std::vector<int64_t> out;
    for (size_t i = 0; i < arr.items().size(); ++i)
      out.push_back(checkInt(arr.items()[i], field(key) + "[" + std::to_string(i) + "]", lo, hi));
    return out;
  }

  static int64_t checkInt(const json::Value &f, const std::string &path, int64_t lo, int64_t hi) {
    if (!f.isNumber()) fail(path, std::string("expected an integer, got ") + json::typeName(f.type()));
    if (!f.isInteger()) fail(path, "expected an integer, got a fractional or too-large number");
    int64_t i = f.asInt();
    if (i < lo || i > hi)
      fail(path, std::to_string(i) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
    return i;
  }

  // Fields present but never read: likely typos, or fields from a newer format.
  void reportUnused(std::vector<std::string> &warnings) const {
    for (const auto &m : v_.members())
      if (!used_.count(m.first)) warnings.push_back(field(m.first) + ": unknown field, ignored");
  }

private:
  const json::Value &v_;
  std::string path_;
  mutable std::set<std::string> used_;
};

constexpr int64_t kMaxI32 = 2147483647;
constexpr int64_t kMaxI64 = INT64_MAX;

template <typename E>
E pickEnum(const std::string &path, const std::string &value,
           std::initializer_list<std::pair<const char *, E>> choices) {
  std::string list;
  for (const auto &c : choices) {
    if (value == c.first) return c.second;
    list += std::string(list.empty() ? "" : ", ") + "\"" + c.first + "\"";
  }
  fail(path, "unknown value \"" + value + "\" (expected one of " + list + ")");
}

DType parseTensorDType(const Obj &o, const std::string &key) {
  return pickEnum<DType>(o.field(key), o.str(key),
                         {{"bf16", DType::BF16}, {"f16", DType::F16}, {"f32", DType::F32}, {"i32", DType::I32},
                          {"e4m3", DType::E4M3}, {"e5m2", DType::E5M2}, {"e8m0", DType::E8M0}});
}

std::array<int64_t, 3> dims3(const Obj &o, const std::string &key) {
  std::vector<int64_t> v = o.intArray(key, 1, kMaxI32);
  if (v.size() != 3) fail(o.field(key), "expected 3 integers, got " + std::to_string(v.size()));
  return {v[0], v[1], v[2]};
}

InitSpec parseInit(const Obj &t) {
  Obj o(t.get("init"), t.field("init"));
  InitSpec init;
  std::string kind = o.str("kind");
  if (kind == "uniform") {
    init.kind = InitSpec::Kind::Uniform;
    init.a = o.number("low");
    init.b = o.number("high");
    if (!(init.a < init.b)) fail(o.field("high"), "must be greater than low");
    if (init.a == 0.0 && init.b == 0.0) fail(o.path(), "would fill zeros");
  } else if (kind == "normal") {
    init.kind = InitSpec::Kind::Normal;
    init.a = o.number("mean");
    init.b = o.number("std");
    if (!(init.b > 0.0)) fail(o.field("std"), "must be positive (a zero std fills constants)");
  } else {
    fail(o.field("kind"), "unknown value \"" + kind + "\" (expected \"uniform\" or \"normal\")");
  }
  if (!std::isfinite(init.a) || !std::isfinite(init.b)) fail(o.path(), "bounds must be finite");
  init.seed = uint64_t(o.integer("seed", 0, kMaxI64));
  return init;
}

TensorSpec parseTensor(const json::Value &v, const std::string &path, std::vector<std::string> &warnings) {
  Obj o(v, path);
  TensorSpec t;
  t.name = o.str("name");
  if (t.name.empty()) fail(o.field("name"), "must not be empty");
  t.dtype = parseTensorDType(o, "dtype");
  t.shape = o.intArray("shape", 1, kMaxI64);
  if (t.shape.empty()) fail(o.field("shape"), "must have at least one dimension");
  // Guard the element count against overflow: 2^40 elements is already 2 TiB of bf16.
  double count = 1;
  for (int64_t d : t.shape) count *= double(d);
  if (count > double(int64_t(1) << 40)) fail(o.field("shape"), "tensor is too large to allocate");
  t.role = pickEnum<TensorRole>(o.field("role"), o.str("role"),
                                {{"input", TensorRole::Input}, {"output", TensorRole::Output},
                                 {"scratch", TensorRole::Scratch}});
  if (t.role == TensorRole::Input) {
    t.init = parseInit(o);
  } else if (o.has("init")) {
    o.get("init");
    warnings.push_back(o.field("init") + ": ignored for a tensor that is not an input");
  }
  o.reportUnused(warnings);
  return t;
}

TensorMapSpec parseTensorMap(const Obj &o, const Manifest &m) {
  TensorMapSpec s;
  s.tensor = o.str("tensor");
  s.dtype = parseTensorDType(o, "dtype");
  s.globalShape = o.intArray("global_shape", 1, kMaxI64);
  s.globalStridesBytes = o.intArray("global_strides_bytes", 1, kMaxI64);
  s.box = o.intArray("box", 1, kMaxI64);
  if (o.has("element_strides"))
    s.elementStrides = o.intArray("element_strides", 1, kMaxI64);
  else
    s.elementStrides.assign(s.globalShape.size(), 1);
  s.swizzle = pickEnum<Swizzle>(o.field("swizzle"), o.str("swizzle"),
                                {{"none", Swizzle::None}, {"32B", Swizzle::B32},
                                 {"64B", Swizzle::B64}, {"128B", Swizzle::B128}});
  s.l2Promotion = pickEnum<L2Promotion>(o.field("l2_promotion"), o.str("l2_promotion"),
                                        {{"none", L2Promotion::None}, {"64B", L2Promotion::B64},
                                         {"128B", L2Promotion::B128}, {"256B", L2Promotion::B256}});
  s.oobFill = pickEnum<OobFill>(o.field("oob_fill"), o.str("oob_fill"),
                                {{"zero", OobFill::Zero}, {"nan", OobFill::NaN}});
  const TensorSpec *t = m.findTensor(s.tensor);
  if (!t) fail(o.field("tensor"), "unknown tensor \"" + s.tensor + "\"");
  std::string err = validateTensorMap(s, *t, o.path());
  if (!err.empty()) throw ManifestError("manifest.json: " + err);
  return s;
}

ParamSpec parseParam(const json::Value &v, const std::string &path, Manifest &m) {
  Obj o(v, path);
  ParamSpec p;
  std::string kind = o.str("kind");
  if (kind == "tensormap") {
    p.kind = ParamSpec::Kind::TensorMap;
    p.tensorMap = parseTensorMap(o, m);
    p.tensor = p.tensorMap.tensor;
  } else if (kind == "pointer") {
    p.kind = ParamSpec::Kind::Pointer;
    p.tensor = o.str("tensor");
    if (!m.findTensor(p.tensor)) fail(o.field("tensor"), "unknown tensor \"" + p.tensor + "\"");
  } else if (kind == "scalar") {
    p.kind = ParamSpec::Kind::Scalar;
    p.scalarType = pickEnum<DType>(o.field("dtype"), o.str("dtype"),
                                   {{"i32", DType::I32}, {"i64", DType::I64}, {"f32", DType::F32}});
    if (p.scalarType == DType::I32) {
      p.intValue = o.integer("value", -kMaxI32 - 1, kMaxI32);
    } else if (p.scalarType == DType::I64) {
      p.intValue = o.integer("value", INT64_MIN, INT64_MAX);
    } else {
      p.floatValue = o.number("value");
      if (!std::isfinite(float(p.floatValue))) fail(o.field("value"), "does not fit in f32");
    }
  } else {
    fail(o.field("kind"), "unknown value \"" + kind + "\" (expected \"tensormap\", \"pointer\" or \"scalar\")");
  }
  o.reportUnused(m.warnings);
  return p;
}

// A reference operand: the named tensor must exist and have the given shape and a float dtype.
void checkOperand(const Obj &o, const std::string &key, const std::string &name, const Manifest &m,
                  const std::vector<int64_t> &shape, TensorRole role) {
  const TensorSpec *t = m.findTensor(name);
  if (!t) fail(o.field(key), "unknown tensor \"" + name + "\"");
  auto fmt = [](const std::vector<int64_t> &s) {
    std::string r = "[";
    for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
    return r + "]";
  };
  if (t->shape != shape)
    fail(o.field(key), "tensor \"" + name + "\" has shape " + fmt(t->shape) + ", the reference needs " + fmt(shape));
  if (!dtypeIsFloat(t->dtype))
    fail(o.field(key), "tensor \"" + name + "\" has dtype " + dtypeName(t->dtype) + ", the reference needs bf16, f16 or f32");
  if (t->role != role)
    fail(o.field(key), "tensor \"" + name + "\" must have role \"" +
                           (role == TensorRole::Input ? "input" : "output") + "\"");
}

bool plainFileName(const std::string &name) {
  if (name.empty() || name == "." || name == "..") return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) return false;
  return true;
}

IrReference parseIrReference(const Obj &o, Manifest &m) {
  IrReference r;
  r.module = o.str("module");
  if (!plainFileName(r.module))
    fail(o.field("module"), "must name a file of the bundle (letters, digits, '.', '_', '-'), got \"" +
                                r.module + "\"");
  r.kernel = o.str("kernel");
  if (r.kernel.empty()) fail(o.field("kernel"), "must not be empty");
  r.grid = dims3(o, "grid");
  r.block = dims3(o, "block");
  if (r.block[0] * r.block[1] * r.block[2] > 1024) fail(o.field("block"), "more than 1024 threads per block");
  r.scratchBytesPerBlock = o.integer("scratch_bytes_per_block", 0, int64_t(1) << 34);
  if (o.has("reorder")) r.reorder = o.boolean("reorder");
  if (o.has("flops")) {
    r.flops = o.number("flops");
    if (!(r.flops >= 0.0)) fail(o.field("flops"), "must be a non-negative number");
  }
  const json::Value &outs = o.array("outputs");
  if (outs.items().empty()) fail(o.field("outputs"), "must list at least one output");
  for (size_t i = 0; i < outs.items().size(); ++i) {
    Obj out(outs.items()[i], o.field("outputs") + "[" + std::to_string(i) + "]");
    OutputCheck c;
    c.tensor = out.str("tensor");
    const TensorSpec *t = m.findTensor(c.tensor);
    if (!t) fail(out.field("tensor"), "unknown tensor \"" + c.tensor + "\"");
    if (t->role != TensorRole::Output)
      fail(out.field("tensor"), "tensor \"" + c.tensor + "\" must have role \"output\"");
    // i32: indices and counts, compared as their values (exact below 2^24).
    if (!dtypeIsFloat(t->dtype) && t->dtype != DType::E4M3 && t->dtype != DType::E5M2 && t->dtype != DType::I32)
      fail(out.field("tensor"), "tensor \"" + c.tensor + "\" must be bf16, f16, f32, i32, e4m3 or e5m2");
    c.normRelTol = out.number("norm_rel_tol");
    c.maxRelTol = out.number("max_rel_tol");
    for (double v : {c.normRelTol, c.maxRelTol})
      if (!(v > 0.0 && v < 1.0)) fail(out.path(), "tolerances must be in (0, 1)");
    if (out.has("step")) {
      c.step = out.number("step");
      if (!(c.step >= 0.0 && c.step < 1e30)) fail(out.field("step"), "must be a non-negative number");
    }
    if (out.has("flip_fraction")) {
      c.flipFraction = out.number("flip_fraction");
      if (!(c.flipFraction >= 0.0 && c.flipFraction <= 1.0)) fail(out.field("flip_fraction"), "must be in [0, 1]");
    }
    if (out.has("basis")) c.basis = out.str("basis");
    out.reportUnused(m.warnings);
    r.outputs.push_back(c);
  }
  return r;
}

ReferenceSpec parseReference(const Obj &top, Manifest &m, const std::string &key = "reference") {
  Obj o(top.get(key), key);
  ReferenceSpec r;
  std::string kind = o.str("kind");
  if (kind == "ir" && key == "reference") {
    r.kind = ReferenceSpec::Kind::Ir;
    r.ir = parseIrReference(o, m);
  } else if (kind == "none") {
    r.kind = ReferenceSpec::Kind::None;
  } else if (kind == "gemm") {
    r.kind = ReferenceSpec::Kind::Gemm;
    auto &g = r.gemm;
    g.a = o.str("a");
    g.b = o.str("b");
    g.c = o.str("c");
    g.M = o.integer("M", 1, kMaxI32);
    g.N = o.integer("N", 1, kMaxI32);
    g.K = o.integer("K", 1, kMaxI32);
    g.transposeB = o.boolean("transpose_b");
    checkOperand(o, "a", g.a, m, {g.M, g.K}, TensorRole::Input);
    checkOperand(o, "b", g.b, m, g.transposeB ? std::vector<int64_t>{g.N, g.K} : std::vector<int64_t>{g.K, g.N},
                 TensorRole::Input);
    checkOperand(o, "c", g.c, m, {g.M, g.N}, TensorRole::Output);
    // cuBLAS takes bf16 inputs on the reference path.
    for (const auto *name : {&g.a, &g.b})
      if (m.findTensor(*name)->dtype != DType::BF16)
        fail(o.field(name == &g.a ? "a" : "b"), "the gemm reference supports bf16 inputs only");
  } else if (kind == "gemm_fp8") {
    r.kind = ReferenceSpec::Kind::GemmFp8;
    auto &g = r.gemmFp8;
    g.a = o.str("a");
    g.b = o.str("b");
    g.c = o.str("c");
    g.M = o.integer("M", 1, kMaxI32);
    g.N = o.integer("N", 1, kMaxI32);
    g.K = o.integer("K", 1, kMaxI32);
    if (!o.boolean("transpose_b"))
      fail(o.field("transpose_b"), "FP8 GEMMs take B as [N, K] (K-major): must be true");
    auto fp8Operand = [&](const char *key, const std::string &name, std::vector<int64_t> shape) {
      const TensorSpec *t = m.findTensor(name);
      if (!t) fail(o.field(key), "unknown tensor \"" + name + "\"");
      if (t->shape != shape || t->role != TensorRole::Input)
        fail(o.field(key), "tensor \"" + name + "\" must be an input of shape [" + std::to_string(shape[0]) +
                               ", " + std::to_string(shape[1]) + "]");
      if (t->dtype != DType::E4M3 && t->dtype != DType::E5M2)
        fail(o.field(key), "tensor \"" + name + "\" has dtype " + dtypeName(t->dtype) + ", gemm_fp8 needs e4m3 or e5m2");
      return t->dtype;
    };
    DType ta = fp8Operand("a", g.a, {g.M, g.K}), tb = fp8Operand("b", g.b, {g.N, g.K});
    if (ta == DType::E5M2 && tb == DType::E5M2)
      fail(o.path(), "cuBLASLt has no e5m2 x e5m2 matmul (one operand must be e4m3)");
    checkOperand(o, "c", g.c, m, {g.M, g.N}, TensorRole::Output);
    if (o.has("accumulation")) {
      std::string a = o.str("accumulation");
      if (a != "fast" && a != "promoted")
        fail(o.field("accumulation"), "must be \"fast\" or \"promoted\", got \"" + a + "\"");
      g.fastAccumulation = a == "fast";
    }
    for (const char *key : {"scale_a", "scale_b"}) {
      if (!o.has(key)) continue;
      std::string name = o.str(key);
      const TensorSpec *t = m.findTensor(name);
      if (!t) fail(o.field(key), "unknown tensor \"" + name + "\"");
      if (t->dtype != DType::F32 || t->role != TensorRole::Input)
        fail(o.field(key), "tensor \"" + name + "\" must be an f32 input (its element 0 is the scale)");
      (std::string(key) == "scale_a" ? g.scaleA : g.scaleB) = name;
    }
  } else if (kind == "attention") {
    r.kind = ReferenceSpec::Kind::Attention;
    auto &a = r.attention;
    a.q = o.str("q");
    a.k = o.str("k");
    a.v = o.str("v");
    a.o = o.str("o");
    a.batch = o.integer("batch", 1, kMaxI32);
    a.heads = o.integer("heads", 1, kMaxI32);
    a.seqQ = o.integer("seq_q", 1, kMaxI32);
    a.seqKv = o.integer("seq_kv", 1, kMaxI32);
    a.headDim = o.integer("head_dim", 1, 512);
    a.causal = o.boolean("causal");
    a.smScale = o.number("sm_scale");
    if (!(a.smScale > 0.0) || !std::isfinite(a.smScale)) fail(o.field("sm_scale"), "must be a positive number");
    if (a.causal && a.seqQ != a.seqKv)
      fail(o.field("causal"), "the causal reference needs seq_q == seq_kv (got " + std::to_string(a.seqQ) +
                                  " and " + std::to_string(a.seqKv) + ")");
    checkOperand(o, "q", a.q, m, {a.batch, a.heads, a.seqQ, a.headDim}, TensorRole::Input);
    checkOperand(o, "k", a.k, m, {a.batch, a.heads, a.seqKv, a.headDim}, TensorRole::Input);
    checkOperand(o, "v", a.v, m, {a.batch, a.heads, a.seqKv, a.headDim}, TensorRole::Input);
    checkOperand(o, "o", a.o, m, {a.batch, a.heads, a.seqQ, a.headDim}, TensorRole::Output);
  } else {
    fail(o.field("kind"), "unknown value \"" + kind + "\" (expected " +
                              (key == "reference" ? "\"ir\", " : "") +
                              "\"gemm\", \"gemm_fp8\", \"attention\" or \"none\")");
  }
  o.reportUnused(m.warnings);
  return r;
}

}  // namespace

const char *referenceKindName(ReferenceSpec::Kind kind) {
  switch (kind) {
  case ReferenceSpec::Kind::Ir: return "ir";
  case ReferenceSpec::Kind::Gemm: return "gemm";
  case ReferenceSpec::Kind::GemmFp8: return "gemm_fp8";
  case ReferenceSpec::Kind::Attention: return "attention";
  case ReferenceSpec::Kind::None: return "none";
  }
  return "none";
}

Manifest parseManifest(const std::string &text) {
  json::Value root;
  try {
    root = json::parse(text);
  } catch (const json::JsonError &e) {
    throw ManifestError(std::string("manifest.json: ") + e.what());
  }
  Obj top(root, "");
  Manifest m;

  std::string format = top.str("format");
  if (format != "stagecraft-bundle") fail("format", "expected \"stagecraft-bundle\", got \"" + format + "\"");
  int64_t version = top.integer("version", 0, kMaxI32);
  if (version != 1) fail("version", "unsupported version " + std::to_string(version) + " (this runner reads 1)");

  m.kernel = top.str("kernel");
  if (m.kernel.empty()) fail("kernel", "must not be empty");
  if (top.has("target")) {
    m.target = top.str("target");
    if (m.target != "sm_90a" && m.target != "sm_100a")
      fail("target", "unknown value \"" + m.target + "\" (expected \"sm_90a\" or \"sm_100a\")");
  }
  m.grid = dims3(top, "grid");
  // CUDA launches up to 2^31 - 1 CTAs along x, 65535 along y and z.
  for (int i : {1, 2})
    if (m.grid[i] > 65535)
      fail("grid", "grid[" + std::to_string(i) + "] = " + std::to_string(m.grid[i]) +
                       ": CUDA launches at most 65535 CTAs along y and z");
  m.block = dims3(top, "block");
  if (m.block[0] * m.block[1] * m.block[2] > 1024)
    fail("block", "more than 1024 threads per block");
  if (top.has("cluster")) {
    m.cluster = dims3(top, "cluster");
    m.hasCluster = true;
    for (int i = 0; i < 3; ++i)
      if (m.grid[i] % m.cluster[i] != 0)
        fail("cluster", "grid[" + std::to_string(i) + "] = " + std::to_string(m.grid[i]) +
                            " is not a multiple of cluster[" + std::to_string(i) + "] = " +
                            std::to_string(m.cluster[i]));
  }
  m.dynamicSmemBytes = top.integer("dynamic_smem_bytes", 0, kMaxI32);
  m.flops = top.number("flops");
  if (!(m.flops >= 0.0)) fail("flops", "must be a non-negative number");
  if (top.has("problem")) m.problem = top.get("problem");

  // Tensors first: params and the reference refer to them by name.
  const json::Value &tensors = top.array("tensors");
  if (tensors.items().empty()) fail("tensors", "must list at least one tensor");
  std::set<std::string> names;
  for (size_t i = 0; i < tensors.items().size(); ++i) {
    std::string path = "tensors[" + std::to_string(i) + "]";
    TensorSpec t = parseTensor(tensors.items()[i], path, m.warnings);
    if (!names.insert(t.name).second) fail(path + ".name", "duplicate tensor name \"" + t.name + "\"");
    m.tensors.push_back(std::move(t));
  }

  const json::Value &params = top.array("params");
  for (size_t i = 0; i < params.items().size(); ++i)
    m.params.push_back(parseParam(params.items()[i], "params[" + std::to_string(i) + "]", m));

  m.reference = parseReference(top, m);
  if (top.has("peer")) m.peer = parseReference(top, m, "peer");
  if (top.has("timeline")) m.timeline = parseTimelineSpec(top.get("timeline"), m.grid, m.warnings);
  top.reportUnused(m.warnings);

  double expected = referenceFlops(m.peer.kind != ReferenceSpec::Kind::None ? m.peer : m.reference);
  if (expected > 0.0 && std::fabs(m.flops - expected) > 0.01 * expected) {
    std::ostringstream w;
    w << "flops: the manifest says " << m.flops << ", the reference problem counts " << expected
      << " (TFLOP/s uses the manifest's)";
    m.warnings.push_back(w.str());
  }
  return m;
}

std::string bundleFileProblem(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return "a directory, not a file";
  if (!S_ISREG(st.st_mode)) return "not a regular file (a device or a pipe)";
  return "";
}

Manifest loadManifest(const std::string &bundleDir) {
  const std::string path = bundleDir + "/manifest.json";
  if (std::string why = bundleFileProblem(path); !why.empty())
    throw ManifestError("cannot open " + path + ": " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ManifestError("cannot open " + path + ": " + std::strerror(errno));
  constexpr std::streamsize kMaxBytes = 16 << 20;
  std::string text;
  text.resize(size_t(kMaxBytes) + 1);
  in.read(&text[0], kMaxBytes + 1);
  text.resize(size_t(in.gcount()));
  if (text.size() > size_t(kMaxBytes)) throw ManifestError(path + ": larger than 16 MiB, not a manifest");
  Manifest m = parseManifest(text);
  // The kernel's PTX (when the bundle has it) says how many parameters its
  // entry takes: a manifest listing another number would launch it with
  // garbage (or fault), so it is refused here, before any GPU is touched.
  std::ifstream ptx(bundleDir + "/kernel.ptx", std::ios::binary);
  if (ptx) {
    std::string code((std::istreambuf_iterator<char>(ptx)), std::istreambuf_iterator<char>());
    int64_t n = ptxEntryParamCount(code, m.kernel);
    if (n >= 0 && n != int64_t(m.params.size()))
      throw ManifestError(path + ": params: " + std::to_string(m.params.size()) +
                          " listed, but kernel.ptx's entry " + m.kernel + " takes " +
                          std::to_string(n));
  }
  return m;
}

int64_t ptxEntryParamCount(const std::string &ptx, const std::string &kernel) {
  // ".entry NAME(" then the parameters, one ".param" each, up to ")".
  size_t at = 0;
  while ((at = ptx.find(".entry", at)) != std::string::npos) {
    at += 6;
    size_t name = ptx.find_first_not_of(" \t", at);
    if (name == std::string::npos || ptx.compare(name, kernel.size(), kernel) != 0) continue;
    size_t open = name + kernel.size();
    open = ptx.find_first_not_of(" \t\r\n", open);
    if (open == std::string::npos || ptx[open] != '(') continue;
    size_t close = ptx.find(')', open);
    if (close == std::string::npos) return -1;
    int64_t count = 0;
    for (size_t p = ptx.find(".param", open); p != std::string::npos && p < close;
         p = ptx.find(".param", p + 6))
      ++count;
    return count;
  }
  return -1;
}

}  // namespace stagecraft::profiler
