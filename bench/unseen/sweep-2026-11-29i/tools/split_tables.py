"""i01's IDX/CNT ((B * H) * (S ceildiv 128), 64): the README says a product of sizes may be passed
split or merged. What does plan() take? And l07's K pool (BH * T, 128) split as (BH, T, 128)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake import load, tensors, T
E = sys.argv[1]
pkg, rt = load(os.path.join(E, "i01")); ins, outs, f = tensors(pkg, rt, {})
B, H, S = f["B"], f["H"], f["S"]; NQ = -(-S // 128)
print("i01 natural shape used for IDX:", ins[3].shape, "factors:", pkg._SPEC.tensors[3].factors)
for label, shp in (("IDX (B*H*NQ, 64)", (B * H * NQ, 64)), ("IDX (B, H, NQ, 64)", (B, H, NQ, 64)), ("IDX (B*H, NQ, 64)", (B * H, NQ, 64))):
    x = T(shp, "torch.int32", ins[3]._ptr)
    try: pkg.plan(*ins[:3], x, ins[4], out=outs); print(f"i01 {label}: ACCEPT")
    except Exception as e: print(f"i01 {label}: REFUSE {type(e).__name__}: {str(e)[:200]}")
pkg, rt = load(os.path.join(E, "l07")); ins, outs, f = tensors(pkg, rt, {})
for label, shp in (("K (BH*T, 128)", (f["BH"] * f["T"], 128)), ("K (BH, T, 128)", (f["BH"], f["T"], 128))):
    x = T(shp, "torch.bfloat16", ins[1]._ptr)
    try: pkg.plan(ins[0], x, *ins[2:], out=outs); print(f"l07 {label}: ACCEPT")
    except Exception as e: print(f"l07 {label}: REFUSE {type(e).__name__}: {str(e)[:200]}")
