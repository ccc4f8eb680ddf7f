"""Runs exported packages of this sweep on a GPU with torch and checks them against torch where
the math is known. usage (from this folder, on an H200 with torch):
    python3 gpu_check.py                 # every package in gpu-list.txt
    python3 gpu_check.py attn128 v06     # some
One line per package and size: OK / WRONG / ERROR with the error. Exit 0 when no WRONG or
unexpected ERROR."""
import importlib, math, os, sys, time, traceback
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "exports"))
sys.path.insert(0, os.path.join(HERE, "exports2"))

def gemm_t(t, o):  return t[0].float() @ t[1].float().T
def gemm_nn(t, o): return t[0].float() @ t[1].float()
def fp8(t, o):     return t[2].float()[0] * t[3].float()[0] * (t[0].float() @ t[1].float().T)
def bias_relu(t, o): return torch.relu(t[0].float() @ t[1].float().T + t[2].float())
def packed(t, o):  return torch.einsum("bmk,nk->bmn", t[0].float(), t[1].float())
def attn(causal):
    def f(t, o):
        q, k, v = (x.float() for x in t[:3])
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return f

# package: (reference or None, [sizes dicts]); sizes {} = the compiled sizes
PLAN = {
    "gemm_base": (gemm_t, [{}, dict(M=1000, N=1040, K=520)]),
    "gemm128": (gemm_t, [{}, dict(M=1000, N=1000, K=1000)]),
    "v02": (gemm_t, [{}, dict(M=130, N=260, K=72)]),
    "v04": (gemm_t, [dict(M=1024, N=512, K=256)]),
    "v05": (bias_relu, [{}, dict(M=256, N=128, K=64)]),
    "v06": (packed, [dict(BT=3, M=500, N=384, K=256)]),
    "v07": (gemm_nn, [{}, dict(M=256, N=136, K=72)]),
    "fp8gemm": (fp8, [dict(M=1024, N=512, K=384)]),
    "fp8prom": (fp8, [dict(M=1024, N=512, K=384)]),
    "fp8split": (fp8, [dict(M=1024, N=512, K=384)]),
    "attn128": (attn(False), [dict(B=2, H=4, S=1000)]),
    "attn128c": (attn(True), [dict(B=2, H=4, S=1000)]),
    "attn64c192": (attn(True), [dict(B=2, H=4, S=1000)]),
    "attn128c176": (attn(True), [dict(B=2, H=4, S=1000)]),
    "pattn": (attn(False), [dict(B=2, H=4, S=1000)]),
    "pgemm": (gemm_t, [dict(M=1000, N=1000, K=1000)]),
    "pgemmcl": (gemm_t, [dict(M=1024, N=768, K=512), dict(M=1152, N=768, K=512)]),
    "pgemmgr": (gemm_t, [dict(M=1000, N=1000, K=1000)]),
    "pingpong": (gemm_t, [dict(M=1000, N=1000, K=1000)]),
    "pingpong64": (gemm_t, [dict(M=1000, N=1000, K=1000)]),
    "pgtile": (gemm_t, [dict(M=1000, N=1000, K=1000)]),
    "k16": (gemm_t, [dict(M=1024, N=1024, K=512)]),
    "cl2": (gemm_t, [dict(M=512, N=512, K=128)]),
    "wtl": (gemm_t, [dict(M=256, N=128, K=64)]),
    "twok_b": (gemm_t, [dict(M=256, N=128, K=64)]),
    "v01": ("inout", [dict(M=256, N=128, K=64)]),
    "mxfp8": (None, [dict(M=1024, N=512, K=512)]),
    "mxfp8up": (None, [dict(M=1024, N=512, K=512)]),
    "k03": (None, [{}]), "k04": (None, [dict(BT=3, M=256, N=384, K=128)]),
    "k05": (None, [dict(M=256, N=256, K=1024, KC=256, SPL=4)]), "k14": (None, [{}]),
    "k15": (None, [{}]), "k18": (None, [{}]), "k22": (None, [{}]),
    "a08": (None, [dict(B=1, H=2, SQ=256, SKV=384)]), "a09": (None, [dict(B=1, H=2, S=512, W=128)]),
    "e01": (None, [{}]),
    "v15": (lambda t, o: t[0].float() @ t[1].float()[t[1].shape[0] // 2:].T, [dict(M=256, N=136, K=72)]),
    "n26": (None, [{}]), "n13": (None, [{}]), "p03": (None, [dict(R=4096, N=1000)]),
    "v08": (gemm_t, [dict(M=256, N=128, K=64)]), "v09": (gemm_t, [dict(M=256, N=128, K=64)]),
    "sm100": (gemm_t, [dict(M=256, N=256, K=256)]),   # expected to fail: an sm_100a cubin labelled sm_90a
}

def make(ts, shape):
    dt = getattr(torch, ts.torch_dtype.split(".", 1)[1])
    if ts.dtype == "e8m0":
        return torch.full(shape, 127, dtype=torch.uint8, device="cuda").view(dt)
    if ts.dtype == "i32":
        return torch.zeros(shape, dtype=dt, device="cuda")
    x = torch.rand(shape, device="cuda") * 2 - 1
    return x.to(dt)

def one(name, ref, sizes):
    pkg = importlib.import_module(name)
    rt = sys.modules[name + "._runtime"]
    spec = pkg._SPEC
    full = dict(pkg.SIZES); full.update(sizes)
    ins = []
    for ts in spec.inputs():
        ins.append(make(ts, rt._natural_shape(ts, full, ts.view(**full))))
    # sizes no shape tells (e.g. a window W) are passed as keywords
    kw = {k: v for k, v in full.items()}
    before = [x.clone() for x in ins]
    torch.cuda.synchronize()
    out = pkg.run(*ins, **kw)
    torch.cuda.synchronize()
    t0 = time.time()
    for _ in range(5): pkg.run(*ins, **kw)
    torch.cuda.synchronize()
    us = (time.time() - t0) / 5 * 1e6
    outs = out if isinstance(out, tuple) else (out,)
    finite = all(torch.isfinite(o.float()).all().item() for o in outs)
    if ref is None:
        return ("OK(finite)" if finite else "WRONG(non-finite)"), us, None
    if ref == "inout":  # C += A B^T, launched 6 times in all
        want = before[2].float() + 6 * (before[0].float() @ before[1].float().T)
        got = outs[0].float()
    else:
        want = ref(before, outs).reshape(outs[0].shape)
        got = outs[0].float()
    err = ((got - want).abs().max() / want.abs().max().clamp_min(1e-30)).item()
    return ("OK" if finite and err < 2e-2 else "WRONG"), us, err

def main():
    names = sys.argv[1:] or [l.split()[0].split("/")[-1] for l in open(os.path.join(HERE, "gpu-list.txt"))
                             if l.strip() and not l.startswith("#")]
    bad = 0
    for name in names:
        ref, sizes_list = PLAN.get(name, (None, [{}]))
        for sizes in sizes_list:
            try:
                status, us, err = one(name, ref, sizes)
                print(f"{name:12s} {sizes or 'compiled sizes'}: {status}  max|err|/max|ref|={err}  {us:.1f} us/launch (wall)", flush=True)
                bad += status.startswith("WRONG")
            except Exception as e:
                print(f"{name:12s} {sizes or 'compiled sizes'}: ERROR {type(e).__name__}: {str(e)[:300]}", flush=True)
                bad += name != "sm100"
    sys.exit(1 if bad else 0)

if __name__ == "__main__":
    main()
