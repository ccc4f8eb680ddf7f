"""Several exported packages in one Python process against the mock driver (same parameter layout:
5 tensor maps + 2 i32, which MOCK_CUDA_PARAMS must describe): l01 (BH=2 T=1000), l01s (the same kernel,
another schedule, compiled at BH=64 T=4096), nm_builtins (l01 with tensors print/len/id).
Checks: each package loads its own cubin once, launches with its own grid/smem, and repeated calls
reuse plans per package. usage: side_by_side.py EXPORTS NAMES_DIR"""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake import load, tensors
log = os.environ["MOCK_CUDA_LOG"]
pk = [load(os.path.join(sys.argv[1], "l01")), load(os.path.join(sys.argv[1], "l01s")), load(os.path.join(sys.argv[2], "nm_builtins"))]
for rnd in range(2):
    for (pkg, rt), sizes in zip(pk, ({}, {}, dict(BH=3, T=512))):
        ins, outs, full = tensors(pkg, rt, sizes)
        pkg.run(*ins, out=outs, stream=4096)
L = [json.loads(l) for l in open(log) if l.strip()]
print("cuModuleLoadData:", sum(c["call"] == "cuModuleLoadData" for c in L),
      "| functions:", [c["name"] for c in L if c["call"] == "cuModuleGetFunction"],
      "| encodes:", sum(c["call"] == "cuTensorMapEncodeTiled" for c in L))
for c in L:
    if c["call"].startswith("cuLaunch"):
        print(" launch grid", c["grid"], "smem", c["smem"], "scalars", [p for p in c["params"] if "i32" in p])
print("modules:", sorted(m for m in sys.modules if m.endswith("_runtime")),
      "| distinct runtime objects:", len({id(sys.modules[m]) for m in sys.modules if m.endswith("._runtime")}))
