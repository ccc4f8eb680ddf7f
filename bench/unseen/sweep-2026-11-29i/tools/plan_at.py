"""plan() of a package with fake natural-shape tensors at NAME=V sizes; keyword sizes (those no
shape tells) passed. usage: plan_at.py PKG_DIR [NAME=V ...]  -> ACCEPT grid ... / REFUSE Err: msg"""
import sys
sys.path.insert(0, __import__("os").path.dirname(__file__))
from fake import load, tensors
pkg, rt = load(sys.argv[1])
sizes = {k: int(v) for k, v in (a.split("=") for a in sys.argv[2:])}
ins, outs, full = tensors(pkg, rt, sizes)
shown = set()
for ts in pkg._SPEC.tensors:
    for f in ts.factors or ():
        if f and len(f) == 1: shown.add(f[0])
kw = {k: v for k, v in full.items() if k not in shown}
try:
    p = pkg.plan(*ins, out=outs if len(outs) != 1 else outs[0], **kw)
    print("ACCEPT", "grid", p["grid"] if isinstance(p, dict) else getattr(p, "grid", p), "kw", kw)
except Exception as e:
    print("REFUSE", type(e).__name__ + ":", str(e)[:300])
