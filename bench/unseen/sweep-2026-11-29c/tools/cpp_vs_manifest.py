"""The C++ header's first launch (example.cpp at the compiled sizes, against the mock) compared with
manifest.json: every tensor map (dims, strides, box, element strides, dtype, swizzle, L2, OOB), grid,
block, smem, cluster and scalars. usage: cpp_vs_manifest.py PKG_DIR MOCK_LOG"""
import json, sys, os
pkg, logp = sys.argv[1], sys.argv[2]
man = json.load(open(os.path.join(pkg, "manifest.json")))
log = [json.loads(l) for l in open(logp) if l.strip()]
enc = {c["id"]: c for c in log if c["call"] == "cuTensorMapEncodeTiled"}
L = [c for c in log if c["call"].startswith("cuLaunchKernel")]
if not L: print("NO LAUNCH"); sys.exit(2)
L = L[0]
DT = {"bf16": 9, "f16": 6, "f32": 7, "i32": 3, "e4m3": 0, "e5m2": 0, "e8m0": 0}
SW = {"none": 0, "32B": 1, "64B": 2, "128B": 3}; L2 = {"none": 0, "64B": 1, "128B": 2, "256B": 3}
errs = []
for k, mk in (("grid", "grid"), ("block", "block"), ("smem", "dynamic_smem_bytes")):
    if L[k] != man[mk]: errs.append(f"{k} {L[k]} vs {man[mk]}")
mc = man.get("cluster", [1, 1, 1])
if mc != [1, 1, 1] and L.get("cluster") != mc: errs.append(f"cluster {L.get('cluster')} vs {mc}")
for i, (p, got) in enumerate(zip(man["params"], L["params"])):
    if p["kind"] == "tensormap":
        e = enc.get(got.get("map"))
        if e is None: errs.append(f"param {i}: no map"); continue
        exp = dict(dims=list(reversed(p["global_shape"])), strides=list(reversed(p["global_strides_bytes"][:-1])),
                   box=list(reversed(p["box"])), estr=list(reversed(p.get("element_strides", [1] * len(p["box"])))),
                   dtype=DT[p["dtype"]], swizzle=SW[p["swizzle"]], l2=L2[p["l2_promotion"]], oob=0 if p["oob_fill"] == "zero" else 1)
        for k, v in exp.items():
            if e[k] != v: errs.append(f"param {i} ({p['tensor']}) {k}: {e[k]} vs {v}")
    elif p["kind"] == "scalar":
        if got.get("i32", got.get("u64")) != p["value"]: errs.append(f"param {i}: {got} vs {p['value']}")
print(("OK " if not errs else "MISMATCH ") + f"grid={L['grid']} cluster={L.get('cluster')}" + ("" if not errs else " :: " + "; ".join(errs)))
