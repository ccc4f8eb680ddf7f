"""A size keyword given as a float: what plan() binds and what run() launches (mock driver)."""
import os, sys, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake import load, tensors
E = sys.argv[1]
pkg, rt = load(os.path.join(E, "n04"))
ins, outs, full = tensors(pkg, rt, {})
for kw in (dict(ROFF=3.0, COFF=64, KS=128, MV=1000), dict(ROFF=3, COFF=64, KS=128, MV=999.7),
           dict(ROFF=3, COFF=64.0, KS=128.5, MV=1000), dict(ROFF=float("nan"), COFF=64, KS=128, MV=1000)):
    try:
        p = pkg.plan(*ins, out=outs[0], **kw)
        print("plan", kw, "-> ACCEPT sizes", getattr(p, "sizes", None) if not isinstance(p, dict) else p.get("sizes"))
    except Exception as e:
        print("plan", kw, "-> REFUSE", type(e).__name__, str(e)[:200])
log = os.environ.get("MOCK_CUDA_LOG")
if log:
    open(log, "w").close()
    try:
        pkg.run(*ins, out=outs[0], stream=4096, ROFF=3, COFF=64, KS=128, MV=999.7)
        L = [json.loads(l) for l in open(log) if l.strip()]
        la = [c for c in L if c["call"].startswith("cuLaunchKernel")][-1]
        print("run MV=999.7 -> launched; scalar params:", [p for p in la["params"] if "map" not in p])
    except Exception as e:
        print("run MV=999.7 ->", type(e).__name__, str(e)[:300])
