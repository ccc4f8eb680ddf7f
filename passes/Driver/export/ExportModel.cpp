//===- ExportModel.cpp - what an exported package says, read from a bundle ===//
#include "passes/Driver/export/ExportModel.h"
#include "core/Support/Json.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cctype>

using namespace stagecraft;
using namespace stagecraft::exporter;
namespace json = llvm::json;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A JSON reader whose errors say "FILE: path.to.field: problem".
struct Reader {
  std::string file;

  llvm::Error error(const std::string &path, const llvm::Twine &what) const {
    return fail(file + ": " + path + ": " + what);
  }
  llvm::Expected<const json::Object *> object(const json::Value *v,
                                              const std::string &path) const {
    if (!v)
      return error(path, "missing");
    if (const json::Object *o = v->getAsObject())
      return o;
    return error(path, "expected an object");
  }
  llvm::Expected<const json::Array *> array(const json::Object &o, llvm::StringRef key,
                                            const std::string &path) const {
    const json::Value *v = o.get(key);
    if (!v)
      return error(path + key.str(), "missing");
    if (const json::Array *a = v->getAsArray())
      return a;
    return error(path + key.str(), "expected an array");
  }
  llvm::Expected<std::string> string(const json::Object &o, llvm::StringRef key,
                                     const std::string &path) const {
    const json::Value *v = o.get(key);
    if (!v)
      return error(path + key.str(), "missing");
    if (auto s = v->getAsString())
      return s->str();
    return error(path + key.str(), "expected a string");
  }
  llvm::Expected<int64_t> integer(const json::Value *v, const std::string &path) const {
    if (!v)
      return error(path, "missing");
    if (auto i = v->getAsInteger())
      return *i;
    return error(path, "expected an integer");
  }
  llvm::Expected<std::vector<int64_t>> ints(const json::Object &o, llvm::StringRef key,
                                            const std::string &path) const {
    auto a = array(o, key, path);
    if (!a)
      return a.takeError();
    std::vector<int64_t> out;
    for (size_t i = 0; i < (*a)->size(); ++i) {
      auto v = integer(&(**a)[i], path + key.str() + "[" + std::to_string(i) + "]");
      if (!v)
        return v.takeError();
      out.push_back(*v);
    }
    return out;
  }
};

llvm::Expected<json::Value> parseFile(const std::map<std::string, std::string> &files,
                                      const std::string &name, const std::string &bundle) {
  auto it = files.find(name);
  if (it == files.end())
    return fail(bundle + "/" + name + ": missing" +
                (name == "signature.json"
                     ? " (the bundle was written by an older stagecraft-compile: compile it again)"
                     : ""));
  llvm::Expected<json::Value> v = stagecraft::parseJson(it->second);
  if (!v)
    return fail(bundle + "/" + name + ": " + llvm::toString(v.takeError()));
  return v;
}

llvm::Expected<Expr> parseExpr(const json::Value &v, const Reader &r, const std::string &path,
                               const std::map<std::string, std::string> &sizeIdent) {
  const json::Object *o = v.getAsObject();
  if (!o)
    return r.error(path, "expected an expression object");
  Expr e;
  if (auto s = o->getString("size")) {
    auto it = sizeIdent.find(s->str());
    if (it == sizeIdent.end())
      return r.error(path + ".size", "\"" + s->str() + "\" is not a kernel size");
    e.kind = Expr::Kind::Size;
    e.size = it->second;
    return e;
  }
  if (const json::Value *c = o->get("const")) {
    auto i = r.integer(c, path + ".const");
    if (!i)
      return i.takeError();
    e.value = *i;
    return e;
  }
  auto op = r.string(*o, "op", path + ".");
  if (!op)
    return op.takeError();
  static const std::map<std::string, Expr::Kind> kinds = {
      {"add", Expr::Kind::Add},           {"mul", Expr::Kind::Mul},
      {"floordiv", Expr::Kind::FloorDiv}, {"ceildiv", Expr::Kind::CeilDiv},
      {"mod", Expr::Kind::Mod}};
  auto k = kinds.find(*op);
  if (k == kinds.end())
    return r.error(path + ".op", "unknown operator \"" + *op + "\"");
  e.kind = k->second;
  const json::Value *l = o->get("lhs"), *rh = o->get("rhs");
  if (!l || !rh)
    return r.error(path, "an operator needs lhs and rhs");
  auto lhs = parseExpr(*l, r, path + ".lhs", sizeIdent);
  if (!lhs)
    return lhs.takeError();
  auto rhs = parseExpr(*rh, r, path + ".rhs", sizeIdent);
  if (!rhs)
    return rhs.takeError();
  if ((e.kind == Expr::Kind::FloorDiv || e.kind == Expr::Kind::CeilDiv ||
       e.kind == Expr::Kind::Mod) &&
      !(rhs->kind == Expr::Kind::Const && rhs->value > 0))
    return r.error(path, "a division needs a positive constant divisor");
  e.lhs = std::make_shared<Expr>(std::move(*lhs));
  e.rhs = std::make_shared<Expr>(std::move(*rhs));
  return e;
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::string fmtShape(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

const char *kKeywords[] = {
    // C++
    "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char",
    "class", "const", "constexpr", "continue", "default", "delete", "do", "double", "else",
    "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
    "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "nullptr",
    "operator", "or", "private", "protected", "public", "register", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true",
    "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
    "volatile", "while", "xor",
    // Python
    "False", "None", "True", "as", "assert", "async", "await", "def", "del", "elif",
    "except", "finally", "from", "global", "import", "in", "is", "lambda", "nonlocal",
    "pass", "raise", "with", "yield",
    // Names the generated code uses beside the arguments (the launcher's
    // locals: a tensor named `problem` or `params` shadowed them and the
    // header did not compile; Python's module globals: a tensor `_runtime`
    // made run() call it: the ninth sweep's B8).
    "s", "stream", "out", "sizes", "run", "plan", "detail", "shape", "grid", "check",
    "Sizes", "Kernel", "Error", "problem", "device", "maps", "params", "g", "config", "limit",
    "d", "function", "module", "kBlock", "kDynamicSmemBytes", "kernelName", "major", "minor",
    // ... and the types and namespace the header spells, which a parameter
    // of that name would hide (CUdeviceptr, int64_t: the fifteenth sweep's
    // B4); its own locals take names no tensor gets (v_e, not e).
    "std", "CUdeviceptr", "CUresult", "CUstream", "CUtensorMap", "CUfunction", "CUmodule",
    "CUdevice", "CUcontext", "CUlaunchConfig", "CUlaunchAttribute", "CUtensorMapDataType",
    "CUtensorMapSwizzle", "CUtensorMapFloatOOBfill", "CUtensorMapL2promotion",
    "CUtensorMapInterleave", "cuuint32_t", "cuuint64_t", "int8_t", "int16_t", "int32_t", "int64_t",
    "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t"};

/// Prefixes of the generated code's own names: v_A (a tensor's view), p_M (a
/// size's parameter), _runtime, _SPEC, _os (the package's globals).
const char *kReservedPrefixes[] = {"v_", "p_", "_"};

} // namespace

std::string stagecraft::exporter::plainIdentifier(const std::string &name) {
  std::string id;
  for (char c : name)
    id += (isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (id.empty() || isdigit(static_cast<unsigned char>(id[0])))
    id = "_" + id;
  for (const char *k : kKeywords) {
    if (llvm::StringRef(k) == "s")
      break; // the language keywords end here
    if (id == k)
      return id + "_";
  }
  return id;
}

std::string stagecraft::exporter::identifier(const std::string &name) {
  std::string id;
  for (char c : name)
    id += (isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (id.empty() || isdigit(static_cast<unsigned char>(id[0])))
    id = "_" + id;
  for (const char *k : kKeywords)
    if (id == k)
      return id + "_";
  for (const char *prefix : kReservedPrefixes)
    if (llvm::StringRef(id).starts_with(prefix))
      return "t" + id;
  return id;
}

int64_t Expr::eval(const std::map<std::string, int64_t> &sizes) const {
  switch (kind) {
  case Kind::Size: return sizes.at(size);
  case Kind::Const: return value;
  case Kind::Add: return lhs->eval(sizes) + rhs->eval(sizes);
  case Kind::Mul: return lhs->eval(sizes) * rhs->eval(sizes);
  case Kind::FloorDiv: return floorDiv(lhs->eval(sizes), rhs->eval(sizes));
  case Kind::CeilDiv: return -floorDiv(-lhs->eval(sizes), rhs->eval(sizes));
  case Kind::Mod: {
    int64_t b = rhs->eval(sizes);
    return lhs->eval(sizes) - b * floorDiv(lhs->eval(sizes), b);
  }
  }
  return 0;
}

std::string Expr::python() const {
  switch (kind) {
  case Kind::Size: return size;
  case Kind::Const: return value < 0 ? "(" + std::to_string(value) + ")" : std::to_string(value);
  case Kind::Add: return "(" + lhs->python() + " + " + rhs->python() + ")";
  case Kind::Mul: return lhs->python() + " * " + rhs->python();
  case Kind::FloorDiv: return "(" + lhs->python() + ") // " + rhs->python();
  case Kind::CeilDiv: return "-(-(" + lhs->python() + ") // " + rhs->python() + ")";
  case Kind::Mod: return "(" + lhs->python() + ") % " + rhs->python();
  }
  return "0";
}

std::string Expr::cpp(const std::string &prefix, const std::string &helpers) const {
  switch (kind) {
  case Kind::Size: return prefix + size;
  case Kind::Const:
    return value < 0 ? "(int64_t(" + std::to_string(value) + "))"
                     : "int64_t(" + std::to_string(value) + ")";
  case Kind::Add: return "(" + lhs->cpp(prefix, helpers) + " + " + rhs->cpp(prefix, helpers) + ")";
  case Kind::Mul: return "(" + lhs->cpp(prefix, helpers) + " * " + rhs->cpp(prefix, helpers) + ")";
  case Kind::FloorDiv:
    return helpers + "floordiv(" + lhs->cpp(prefix, helpers) + ", " + rhs->cpp(prefix, helpers) + ")";
  case Kind::CeilDiv:
    return helpers + "ceildiv(" + lhs->cpp(prefix, helpers) + ", " + rhs->cpp(prefix, helpers) + ")";
  case Kind::Mod: return helpers + "mod(" + lhs->cpp(prefix, helpers) + ", " + rhs->cpp(prefix, helpers) + ")";
  }
  return "0";
}

std::optional<std::vector<std::string>> Expr::factors() const {
  if (kind == Kind::Size)
    return std::vector<std::string>{size};
  if (kind != Kind::Mul)
    return std::nullopt;
  auto l = lhs->factors(), r = rhs->factors();
  if (!l || !r)
    return std::nullopt;
  l->insert(l->end(), r->begin(), r->end());
  llvm::StringSet<> seen;
  for (const std::string &s : *l)
    if (!seen.insert(s).second)
      return std::nullopt; // B * B is not two dimensions
  return l;
}

std::vector<std::string> TensorArg::naturalText() const {
  std::vector<std::string> out;
  for (size_t d = 0; d < view.size(); ++d) {
    if (factors[d] && factors[d]->size() > 1)
      out.insert(out.end(), factors[d]->begin(), factors[d]->end());
    else
      out.push_back(viewText[d]);
  }
  return out;
}

std::vector<std::string> TensorArg::naturalCpp(const std::string &prefix) const {
  std::vector<std::string> out;
  for (size_t d = 0; d < view.size(); ++d) {
    if (factors[d] && factors[d]->size() > 1)
      for (const std::string &f : *factors[d])
        out.push_back(prefix + f);
    else
      out.push_back(view[d].cpp(prefix));
  }
  return out;
}

int Model::referenceTensor(llvm::StringRef field) const {
  auto name = reference.getString(field);
  if (!name)
    return -1;
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].manifestTensor == *name)
      return int(i);
  return -1;
}

const TensorArg *Model::findTensor(llvm::StringRef manifestName) const {
  for (const TensorArg &t : tensors)
    if (t.manifestTensor == manifestName)
      return &t;
  return nullptr;
}

llvm::Expected<Model> stagecraft::exporter::buildModel(
    const std::map<std::string, std::string> &files, const std::string &bundleDir,
    const std::string &package) {
  Model m;
  m.package = package;
  m.bundleDir = bundleDir;
  auto manifestDoc = parseFile(files, "manifest.json", bundleDir);
  if (!manifestDoc)
    return manifestDoc.takeError();
  auto signatureDoc = parseFile(files, "signature.json", bundleDir);
  if (!signatureDoc)
    return signatureDoc.takeError();
  Reader mr{bundleDir + "/manifest.json"}, sr{bundleDir + "/signature.json"};
  auto manifestObj = mr.object(&*manifestDoc, "(top level)");
  if (!manifestObj)
    return manifestObj.takeError();
  auto signatureObj = sr.object(&*signatureDoc, "(top level)");
  if (!signatureObj)
    return signatureObj.takeError();
  const json::Object &man = **manifestObj, &sig = **signatureObj;

  auto kernel = mr.string(man, "kernel", "");
  if (!kernel)
    return kernel.takeError();
  auto sigKernel = sr.string(sig, "kernel", "");
  if (!sigKernel)
    return sigKernel.takeError();
  if (*kernel != *sigKernel)
    return mr.error("kernel", "\"" + *kernel + "\" but signature.json describes \"" +
                                  *sigKernel + "\"");
  m.kernel = *kernel;

  // Sizes.
  auto sizesArr = sr.array(sig, "sizes", "");
  if (!sizesArr)
    return sizesArr.takeError();
  std::map<std::string, std::string> sizeIdent;
  llvm::StringSet<> idents;
  for (size_t i = 0; i < (*sizesArr)->size(); ++i) {
    std::string path = "sizes[" + std::to_string(i) + "].";
    auto o = sr.object(&(**sizesArr)[i], path);
    if (!o)
      return o.takeError();
    auto name = sr.string(**o, "name", path);
    if (!name)
      return name.takeError();
    auto def = sr.integer((*o)->get("default"), path + "default");
    if (!def)
      return def.takeError();
    SizeInfo s;
    s.name = *name;
    s.ident = identifier(*name);
    if (!idents.insert(s.ident).second)
      return sr.error(path + "name", "size \"" + *name + "\" clashes with another size as "
                                         "an identifier (" + s.ident + ")");
    s.defaultValue = *def;
    if (const llvm::json::Value *mult = (*o)->get("multiple_of")) {
      auto v = sr.integer(mult, path + "multiple_of");
      if (!v)
        return v.takeError();
      if (*v < 1)
        return sr.error(path + "multiple_of", "must be at least 1");
      s.multipleOf = *v;
    }
    sizeIdent[*name] = s.ident;
    m.sizes.push_back(s);
  }

  // Parameters: manifest params[i] is the kernel's parameter i, which is the
  // tile kernel's argument i (signature args[i]).
  auto params = mr.array(man, "params", "");
  if (!params)
    return params.takeError();
  auto args = sr.array(sig, "args", "");
  if (!args)
    return args.takeError();
  if ((*params)->size() != (*args)->size())
    return mr.error("params", llvm::formatv("{0} parameters, but the kernel's signature has {1} "
                                            "arguments; the exporter fills only the signature's",
                                            (*params)->size(), (*args)->size())
                                  .str());
  // Tensor names share Python's keyword namespace with the sizes (run(q, S=...)).
  llvm::StringSet<> tensorIdents;
  for (const SizeInfo &s : m.sizes)
    tensorIdents.insert(s.ident);
  for (size_t i = 0; i < (*params)->size(); ++i) {
    std::string ppath = "params[" + std::to_string(i) + "].";
    std::string apath = "args[" + std::to_string(i) + "].";
    auto p = mr.object(&(**params)[i], ppath);
    if (!p)
      return p.takeError();
    auto a = sr.object(&(**args)[i], apath);
    if (!a)
      return a.takeError();
    auto pkind = mr.string(**p, "kind", ppath);
    if (!pkind)
      return pkind.takeError();
    auto akind = sr.string(**a, "kind", apath);
    if (!akind)
      return akind.takeError();
    if (*akind == "size") {
      auto name = sr.string(**a, "name", apath);
      if (!name)
        return name.takeError();
      auto it = sizeIdent.find(*name);
      if (it == sizeIdent.end())
        return sr.error(apath + "name", "\"" + *name + "\" is not a kernel size");
      if (*pkind != "scalar")
        return mr.error(ppath + "kind", "\"" + *pkind + "\", but the kernel's argument " +
                                            std::to_string(i) + " is the size " + *name);
      auto dtype = mr.string(**p, "dtype", ppath);
      if (!dtype)
        return dtype.takeError();
      if (*dtype != "i32" && *dtype != "i64")
        return mr.error(ppath + "dtype", "a size is passed as i32 or i64, not " + *dtype);
      auto value = mr.integer((*p)->get("value"), ppath + "value");
      if (!value)
        return value.takeError();
      int index = 0;
      for (size_t k = 0; k < m.sizes.size(); ++k)
        if (m.sizes[k].name == *name)
          index = int(k);
      m.sizes[index].compiled = *value;
      m.sizes[index].dtype = *dtype;
      m.params.push_back({Param::Kind::Size, index});
      continue;
    }
    if (*akind != "tensor")
      return sr.error(apath + "kind", "\"" + *akind + "\": the exporter knows tensor and "
                                          "size arguments");
    if (*pkind != "tensormap" && *pkind != "pointer")
      return mr.error(ppath + "kind", "\"" + *pkind + "\", but the kernel's argument " +
                                          std::to_string(i) + " is a tensor");
    TensorArg t;
    t.access = *pkind;
    auto manTensor = mr.string(**p, "tensor", ppath);
    if (!manTensor)
      return manTensor.takeError();
    t.manifestTensor = *manTensor;
    auto name = sr.string(**a, "name", apath);
    if (!name)
      return name.takeError();
    t.name = name->empty() ? *manTensor : *name;
    t.ident = identifier(t.name);
    while (!tensorIdents.insert(t.ident).second)
      t.ident += "_";
    auto role = sr.string(**a, "role", apath);
    if (!role)
      return role.takeError();
    t.role = *role;
    auto dtype = sr.string(**a, "dtype", apath);
    if (!dtype)
      return dtype.takeError();
    t.dtype = *dtype;
    static const std::map<std::string, int64_t> bytes = {
        {"bf16", 2}, {"f16", 2}, {"f32", 4}, {"i32", 4},
        {"e4m3", 1}, {"e5m2", 1}, {"e8m0", 1}};
    if (!bytes.count(t.dtype))
      return sr.error(apath + "dtype", "\"" + t.dtype + "\" cannot be exported (bf16, f16, "
                                                         "f32, i32, e4m3, e5m2 or e8m0)");
    t.elemBytes = bytes.at(t.dtype);
    auto shape = sr.array(**a, "shape", apath);
    if (!shape)
      return shape.takeError();
    auto texts = sr.array(**a, "shape_text", apath);
    if (!texts)
      return texts.takeError();
    if ((*texts)->size() != (*shape)->size())
      return sr.error(apath + "shape_text", "has a different length than shape");
    for (size_t d = 0; d < (*shape)->size(); ++d) {
      auto e = parseExpr((**shape)[d], sr, apath + "shape[" + std::to_string(d) + "]",
                         sizeIdent);
      if (!e)
        return e.takeError();
      t.factors.push_back(e->factors());
      t.view.push_back(std::move(*e));
      auto text = (**texts)[d].getAsString();
      t.viewText.push_back(text ? text->str() : "?");
    }
    // Optional: the range the kernel needs its elements in (tile.init).
    if (const json::Array *init = (*a)->getArray("init_text"); init && init->size() == 2)
      for (const json::Value &v : *init)
        t.initText.push_back(v.getAsString() ? v.getAsString()->str() : "?");
    t.indexed = (*a)->getBoolean("indexed").value_or(false);
    if (const json::Array *range = (*a)->getArray("init_range"); range && range->size() == 2)
      if (auto lo = (*range)[0].getAsNumber(), hi = (*range)[1].getAsNumber(); lo && hi)
        t.initRange = std::make_pair(*lo, *hi);
    if (const json::Array *bounds = (*a)->getArray("init_bounds"); bounds && bounds->size() == 2) {
      auto lo = parseExpr((*bounds)[0], sr, apath + "init_bounds[0]", sizeIdent);
      if (!lo)
        return lo.takeError();
      auto hi = parseExpr((*bounds)[1], sr, apath + "init_bounds[1]", sizeIdent);
      if (!hi)
        return hi.takeError();
      t.initBounds = std::make_pair(std::move(*lo), std::move(*hi));
    }
    if (t.access == "tensormap") {
      auto mdtype = mr.string(**p, "dtype", ppath);
      if (!mdtype)
        return mdtype.takeError();
      if (*mdtype != t.dtype)
        return mr.error(ppath + "dtype", "\"" + *mdtype + "\" but the kernel's argument is " +
                                             t.dtype);
      auto box = mr.ints(**p, "box", ppath);
      if (!box)
        return box.takeError();
      if (box->size() != t.view.size())
        return mr.error(ppath + "box", llvm::formatv("rank {0}, the tensor's shape has rank {1}",
                                                     box->size(), t.view.size())
                                           .str());
      t.box = *box;
      if ((*p)->get("element_strides")) {
        auto es = mr.ints(**p, "element_strides", ppath);
        if (!es)
          return es.takeError();
        t.elementStrides = *es;
      } else {
        t.elementStrides.assign(t.box.size(), 1);
      }
      for (auto [key, field, allowed] :
           {std::tuple<const char *, std::string *, std::vector<std::string>>{
                "swizzle", &t.swizzle, {"none", "32B", "64B", "128B"}},
            {"l2_promotion", &t.l2Promotion, {"none", "64B", "128B", "256B"}},
            {"oob_fill", &t.oobFill, {"zero", "nan"}}}) {
        auto v = mr.string(**p, key, ppath);
        if (!v)
          return v.takeError();
        if (std::find(allowed.begin(), allowed.end(), *v) == allowed.end())
          return mr.error(ppath + key, "unknown value \"" + *v + "\"");
        *field = *v;
      }
    }
    m.params.push_back({Param::Kind::Tensor, int(m.tensors.size())});
    m.tensors.push_back(std::move(t));
  }
  for (const SizeInfo &s : m.sizes)
    if (s.compiled == 0)
      return sr.error("sizes", "size " + s.name + " is not a kernel parameter");

  // The view shapes at the compiled sizes must be the manifest's.
  std::map<std::string, int64_t> compiled;
  for (const SizeInfo &s : m.sizes)
    compiled[s.ident] = s.compiled;
  for (size_t i = 0, t = 0; i < m.params.size(); ++i) {
    if (m.params[i].kind != Param::Kind::Tensor)
      continue;
    const TensorArg &arg = m.tensors[t++];
    if (arg.access != "tensormap")
      continue;
    const json::Object *p = (**params)[i].getAsObject();
    auto shape = mr.ints(*p, "global_shape", "params[" + std::to_string(i) + "].");
    if (!shape)
      return shape.takeError();
    std::vector<int64_t> view;
    for (const Expr &e : arg.view)
      view.push_back(e.eval(compiled));
    if (view != *shape)
      return mr.error("params[" + std::to_string(i) + "].global_shape",
                      fmtShape(*shape) + ", but signature.json's shape of " + arg.name +
                          " gives " + fmtShape(view) + " at the compiled sizes");
  }

  // Grid and launch facts.
  auto grid = sr.array(sig, "grid", "");
  if (!grid)
    return grid.takeError();
  auto gridTexts = sr.array(sig, "grid_text", "");
  if (!gridTexts)
    return gridTexts.takeError();
  for (size_t d = 0; d < (*grid)->size(); ++d) {
    auto e = parseExpr((**grid)[d], sr, "grid[" + std::to_string(d) + "]", sizeIdent);
    if (!e)
      return e.takeError();
    m.grid.push_back(std::move(*e));
    auto text = d < (*gridTexts)->size() ? (**gridTexts)[d].getAsString() : std::nullopt;
    m.gridText.push_back(text ? text->str() : "?");
  }
  if (m.grid.empty() || m.grid.size() > 3)
    return sr.error("grid", "needs 1 to 3 expressions");
  auto manGrid = mr.ints(man, "grid", "");
  if (!manGrid)
    return manGrid.takeError();
  std::vector<int64_t> gridAt;
  for (const Expr &e : m.grid)
    gridAt.push_back(e.eval(compiled));
  while (gridAt.size() < 3)
    gridAt.push_back(1);
  if (gridAt != *manGrid)
    return mr.error("grid", fmtShape(*manGrid) + ", but signature.json's grid gives " +
                                fmtShape(gridAt) + " at the compiled sizes");
  auto block = mr.ints(man, "block", "");
  if (!block)
    return block.takeError();
  if (block->size() != 3)
    return mr.error("block", "expected three integers");
  for (int d = 0; d < 3; ++d)
    m.block[d] = (*block)[d];
  auto smem = mr.integer(man.get("dynamic_smem_bytes"), "dynamic_smem_bytes");
  if (!smem)
    return smem.takeError();
  m.dynamicSmem = *smem;
  if (man.get("cluster")) {
    auto cluster = mr.ints(man, "cluster", "");
    if (!cluster)
      return cluster.takeError();
    if (cluster->size() != 3)
      return mr.error("cluster", "expected three integers");
    if (*cluster != std::vector<int64_t>{1, 1, 1})
      m.cluster = *cluster;
  }
  if (auto f = man.getNumber("flops"))
    m.flops = *f;
  // What the kernel computes, in words and as a CPU check, comes from its
  // peer (a GEMM, the attention forward pass) when its math is exactly
  // theirs; any other kernel is checked by the runner against its IR
  // reference.
  const json::Object *ref = man.getObject("peer");
  if (!ref)
    ref = man.getObject("reference");
  if (ref) {
    m.reference = *ref;
    if (auto kind = ref->getString("kind"))
      m.referenceKind = kind->str();
  }

  if (auto s = sig.getString("source"))
    m.source = s->str();
  // What the schedule made of the loop.
  if (auto s = sig.getString("steady_state"))
    m.steadyState = s->str();
  if (auto s = sig.getString("schedule_summary"))
    m.scheduleSummary = s->str();
  if (auto s = sig.getInteger("stages"))
    m.stages = *s;
  if (auto it = files.find("schedule.json"); it != files.end()) {
    if (auto doc = stagecraft::parseJson(it->second)) {
      if (const json::Object *o = doc->getAsObject())
        if (const json::Array *entries = o->getArray("ops"))
          for (const json::Value &e : *entries)
            if (const json::Object *eo = e.getAsObject()) {
              ScheduleRow row;
              row.name = eo->getString("name").value_or("?").str();
              row.stage = eo->getInteger("stage").value_or(0);
              row.order = eo->getInteger("order").value_or(0);
              row.group = eo->getInteger("group").value_or(0);
              row.wait = eo->getInteger("wait").value_or(0);
              m.schedule.push_back(row);
            }
    } else {
      llvm::consumeError(doc.takeError());
    }
  }
  if (auto it = files.find("ptxas.txt"); it != files.end()) {
    m.ptxasText = it->second;
    llvm::StringRef text(it->second);
    size_t used = text.find("Used ");
    if (used != llvm::StringRef::npos) {
      llvm::StringRef rest = text.drop_front(used + 5);
      int regs = 0;
      if (!rest.consumeInteger(10, regs))
        m.registers = regs;
    }
    for (const char *what : {" bytes spill stores", " bytes spill loads"}) {
      size_t at = text.find(what);
      if (at == llvm::StringRef::npos)
        continue;
      size_t start = text.rfind(' ', at - 1);
      int bytes = 0;
      if (start != llvm::StringRef::npos &&
          !text.slice(start + 1, at).getAsInteger(10, bytes))
        m.spillBytes += bytes;
    }
  }
  return m;
}
