"""Run an exported package's run() against the mock libcuda (LD_LIBRARY_PATH) with fake tensors of
the natural shapes, then compare what was encoded/launched with manifest.json (from sweep-2026-11-29c).
usage: mockrun.py PKG_DIR [NAME=V ...]   (no sizes: the compiled sizes, compared to the manifest)
Prints one line: OK ... / MISMATCH ... / RAISED ..."""
import json, os, sys, importlib
pkg_dir = os.path.abspath(sys.argv[1])
sizes_kw = dict(a.split("=") for a in sys.argv[2:])
sizes_kw = {k: int(v) for k, v in sizes_kw.items()}
sys.path.insert(0, os.path.dirname(pkg_dir))
name = os.path.basename(pkg_dir)

class D:
    def __init__(s, n): s.name = n
    def __str__(s): return s.name
class Dev:
    def __init__(s): s.type = "cuda"; s.index = 0
class T:
    def __init__(s, shape, dtype, ptr):
        s.shape = tuple(shape); s.dtype = D(dtype); s.device = Dev(); s._ptr = ptr
        st, acc = [], 1
        for d in reversed(s.shape): st.insert(0, acc); acc *= d
        s._st = tuple(st)
    def stride(s): return s._st
    def data_ptr(s): return s._ptr

pkg = importlib.import_module(name)
spec = pkg._SPEC
rt = sys.modules[name + "._runtime"]
sizes = dict(pkg.SIZES); sizes.update(sizes_kw)
ptr = 0x7f0000000000
ins, outs, ptrs = [], [], {}
for i, ts in enumerate(spec.tensors):
    view = ts.view(**sizes)
    nat = rt._natural_shape(ts, sizes, view)
    t = T(nat, ts.torch_dtype, ptr); ptrs[ts.name] = ptr
    ptr += 1 << 36
    (outs if ts.role == "output" else ins).append(t)
note = ""
try:
    r = pkg.run(*ins, out=outs if len(outs) != 1 else outs[0], stream=4096, **sizes_kw)
except ValueError as e:
    if "cannot tell size" not in str(e) or sizes_kw:
        print(f"RAISED {type(e).__name__}: {e}"); sys.exit(3)
    # sizes no shape tells (README snippets omit them): pass them as keywords and go on
    need = [n for n in spec.size_names if n in str(e).split("size(s)")[1].split("from")[0]]
    note = f" (needed keywords {need}: {e})"
    open(os.environ["MOCK_CUDA_LOG"], "w").close()
    r = pkg.run(*ins, out=outs if len(outs) != 1 else outs[0], stream=4096, **{n: sizes[n] for n in need})
except Exception as e:
    print(f"RAISED {type(e).__name__}: {e}"); sys.exit(3)
log = [json.loads(l) for l in open(os.environ["MOCK_CUDA_LOG"]) if l.strip()]
enc = {c["id"]: c for c in log if c["call"] == "cuTensorMapEncodeTiled"}
launches = [c for c in log if c["call"].startswith("cuLaunchKernel")]
attrs = [c for c in log if c["call"] == "cuFuncSetAttribute"]
man = json.load(open(os.path.join(pkg_dir, "manifest.json")))
DT = {"bf16": 9, "f16": 6, "f32": 7, "i32": 3, "e4m3": 0, "e5m2": 0, "e8m0": 0}
SW = {"none": 0, "32B": 1, "64B": 2, "128B": 3}; L2 = {"none": 0, "64B": 1, "128B": 2, "256B": 3}
errs = []
if len(launches) != 1: errs.append(f"{len(launches)} launches")
L = launches[0]
summary = f"grid={L['grid']} block={L['block']} smem={L['smem']} cluster={L.get('cluster')} call={L['call']}"
if not sizes_kw:
    if L["grid"] != man["grid"]: errs.append(f"grid {L['grid']} vs manifest {man['grid']}")
    if L["block"] != man["block"]: errs.append(f"block {L['block']} vs {man['block']}")
    if L["smem"] != man["dynamic_smem_bytes"]: errs.append(f"smem {L['smem']} vs {man['dynamic_smem_bytes']}")
    mc = man.get("cluster", [1, 1, 1])
    if mc != [1, 1, 1] and L.get("cluster") != mc: errs.append(f"cluster {L.get('cluster')} vs {mc}")
    if mc == [1, 1, 1] and L.get("cluster") not in (None, [1, 1, 1]): errs.append(f"cluster {L.get('cluster')} but manifest none")
    mptr = {}
    for ps, p in zip(spec.params, man["params"]):
        if ps.kind == "tensor" and "tensor" in p:
            mptr[p["tensor"]] = ptrs[spec.tensors[ps.ref].name]
        if ps.kind == "tensor" and p["kind"] not in ("tensormap", "pointer"): errs.append(f"param kind {p['kind']} vs package tensor")
    for i, (p, got) in enumerate(zip(man["params"], L["params"])):
        if p["kind"] == "tensormap":
            e = enc.get(got.get("map"))
            if e is None: errs.append(f"param {i}: no map"); continue
            exp = dict(dims=list(reversed(p["global_shape"])), strides=list(reversed(p["global_strides_bytes"][:-1])),
                       box=list(reversed(p["box"])), estr=list(reversed(p.get("element_strides", [1]*len(p["box"])))),
                       dtype=DT[p["dtype"]], swizzle=SW[p["swizzle"]], l2=L2[p["l2_promotion"]],
                       oob=0 if p["oob_fill"] == "zero" else 1, addr=mptr[p["tensor"]])
            for k, v in exp.items():
                if e[k] != v: errs.append(f"param {i} ({p['tensor']}) {k}: {e[k]} vs manifest {v}")
        elif p["kind"] == "pointer":
            if got.get("u64") != mptr[p["tensor"]]: errs.append(f"param {i} pointer {got} vs {mptr[p['tensor']]}")
        elif p["kind"] == "scalar":
            v = got.get("i32", got.get("u64"))
            if p["dtype"] == "f32":
                import struct
                v = struct.unpack("f", struct.pack("i", got["i32"]))[0]
            if v != p["value"]: errs.append(f"param {i} scalar {v} vs manifest {p['value']}")
    if len(L["params"]) != len(man["params"]): errs.append("param count")
print(("OK " if not errs else "MISMATCH ") + summary + ("" if not errs else " :: " + "; ".join(errs)) + note)
sys.exit(0 if not errs else 1)
