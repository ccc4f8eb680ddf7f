"""Argument probes on fake tensors through plan() (no CUDA): what each exported launcher accepts.
usage: probes.py EXPORTS_DIR. One line per probe: PKG probe -> ACCEPT / REFUSE Type: message."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake import load, tensors, T, D
E = sys.argv[1]
def go(pkg, label, ins, outs, **kw):
    try:
        p = pkg.plan(*ins, out=outs, **kw)
        print(f"{pkg.__name__:5s} {label:58s} -> ACCEPT")
    except Exception as e:
        print(f"{pkg.__name__:5s} {label:58s} -> REFUSE {type(e).__name__}: {str(e)[:230]}")
def base(name, **sizes):
    pkg, rt = load(os.path.join(E, name)); ins, outs, full = tensors(pkg, rt, sizes)
    return pkg, rt, ins, outs, full
def retype(t, dt): return T(t.shape, dt, t._ptr, t._st)

# l01: transposed output Ot [BH, 128, T], f32 state
pkg, rt, ins, outs, full = base("l01")   # BH=2 T=1000
BH, TT = full["BH"], full["T"]
go(pkg, "as README", ins, outs)
go(pkg, "Ot given as (BH, T, 128) (untransposed)", ins, [T((BH, TT, 128), "torch.bfloat16", outs[0]._ptr), outs[1]])
tb = T((BH, 128, TT), "torch.bfloat16", outs[0]._ptr, (128 * TT, 1, 128))
go(pkg, "Ot = buf(BH,T,128).transpose(1,2) (strides T*128,1,128)", ins, [tb, outs[1]])
go(pkg, "Ot rows overlapping: strides (128*T, 8, 1)", ins, [T((BH, 128, TT), "torch.bfloat16", outs[0]._ptr, (128 * TT, 8, 1)), outs[1]])
go(pkg, "Ot batch stride 0 (expanded over BH)", ins, [T((BH, 128, TT), "torch.bfloat16", outs[0]._ptr, (0, TT, 1)), outs[1]])
go(pkg, "Sf at Ot's address (outputs alias)", ins, [outs[0], T(outs[1].shape, "torch.float32", outs[0]._ptr)])
go(pkg, "Ot at Q's address (output aliases input)", ins, [T(outs[0].shape, "torch.bfloat16", ins[0]._ptr), outs[1]])
go(pkg, "Q = slice starting 16 bytes in", [T(ins[0].shape, "torch.bfloat16", ins[0]._ptr + 16)] + ins[1:], outs)
go(pkg, "Q = slice starting 8 bytes in", [T(ins[0].shape, "torch.bfloat16", ins[0]._ptr + 8)] + ins[1:], outs)
go(pkg, "Q rows padded to 136", [T(ins[0].shape, "torch.bfloat16", ins[0]._ptr, (TT * 136, 136, 1))] + ins[1:], outs)
go(pkg, "Q seq-major buffer (T,BH,128).transpose(0,1)", [T(ins[0].shape, "torch.bfloat16", ins[0]._ptr, (128, BH * 128, 1))] + ins[1:], outs)
go(pkg, "Q dtype float16", [retype(ins[0], "torch.float16")] + ins[1:], outs)
go(pkg, "Sf dtype bfloat16", ins, [outs[0], retype(outs[1], "torch.bfloat16")])
go(pkg, "K on cuda:1", [ins[0], T(ins[1].shape, "torch.bfloat16", ins[1]._ptr, device=("cuda", 1)), ins[2]], outs)
go(pkg, "all on cuda:1 (outputs too)", [T(x.shape, x.dtype, x._ptr, device=("cuda", 1)) for x in ins], [T(x.shape, x.dtype, x._ptr, device=("cuda", 1)) for x in outs])
go(pkg, "Q on meta device", [T(ins[0].shape, "torch.bfloat16", 0, device=("meta", None))] + ins[1:], outs)
go(pkg, "T=1000 keyword given (agrees)", ins, outs, T=1000)
go(pkg, "T=2000 keyword given (disagrees)", ins, outs, T=2000)
go(pkg, "T=True keyword", ins, outs, T=True)
go(pkg, "T=1000.0 keyword", ins, outs, T=1000.0)
go(pkg, "out= as tuple", ins, tuple(outs))
go(pkg, "out= only one tensor", ins, outs[0])
go(pkg, "unknown keyword BHT=2", ins, outs, BHT=2)
go(pkg, "V of shape (BH, T, 64)", ins[:2] + [T((BH, TT, 64), "torch.bfloat16", ins[2]._ptr)], outs)

pkg, rt, ins, outs, full = base("l07")
go(pkg, "as README", ins, outs)
go(pkg, "PT int64", ins[:3] + [retype(ins[3], "torch.int64")] + ins[4:], outs)
go(pkg, "PT uint32", ins[:3] + [retype(ins[3], "torch.uint32")] + ins[4:], outs)
go(pkg, "PT float32", ins[:3] + [retype(ins[3], "torch.float32")] + ins[4:], outs)
go(pkg, "PT (BH, 32) (too few pages for T)", ins[:3] + [T((full["BH"], 32), "torch.int32", ins[3]._ptr)] + ins[4:], outs)
go(pkg, "K pool (BH*T/2, 128) (smaller pool)", [ins[0], T((full["BH"] * full["T"] // 2, 128), "torch.bfloat16", ins[1]._ptr), ins[2]] + ins[3:], outs)
pkg, rt, ins, outs, full = base("l07", T=8192, BH=2)
go(pkg, "T=8192 (compiler: extract past the 64-entry tables)", ins, outs)

pkg, rt, ins, outs, full = base("a03")
go(pkg, "as README", ins, outs)
go(pkg, "T table given as (32, 1)", ins[:3] + [T((32, 1), "torch.int32", ins[3]._ptr)] + ins[4:], outs)
pkg, rt, ins, outs, full = base("a03", S=16384, B=1, H=2)
go(pkg, "S=16384 (table of 128 > box 64; compiler refuses)", ins, outs)

pkg, rt, ins, outs, full = base("x01")
go(pkg, "as README", ins, outs)
go(pkg, "SA as uint8 (scale bytes)", [ins[0], retype(ins[1], "torch.uint8")] + ins[2:], outs)
go(pkg, "A as float8_e4m3fnuz", [retype(ins[0], "torch.float8_e4m3fnuz")] + ins[1:], outs)
go(pkg, "A as float8_e5m2 (B's type)", [retype(ins[0], "torch.float8_e5m2")] + ins[1:], outs)
go(pkg, "A as uint8 (raw fp8 bytes)", [retype(ins[0], "torch.uint8")] + ins[1:], outs)
go(pkg, "SA transposed layout (M, K/32)", [ins[0], T((ins[1].shape[1], ins[1].shape[0]), "torch.float8_e8m0fnu", ins[1]._ptr)] + ins[2:], outs)

pkg, rt, ins, outs, full = base("f01")
go(pkg, "as README", ins, outs)
go(pkg, "ID out as int64", ins, [retype(outs[0], "torch.int64")] + outs[1:])
go(pkg, "CNT out (T/128, 64) strides (128, 1) (padded rows)", ins, outs[:2] + [T(outs[2].shape, "torch.int32", outs[2]._ptr, (128, 1))])

pkg, rt, ins, outs, full = base("n04")
kw = dict(ROFF=3, COFF=64, KS=128, MV=1000)
go(pkg, "as README (keywords)", ins, outs, **kw)
go(pkg, "ROFF=-3", ins, outs, **dict(kw, ROFF=-3))
go(pkg, "ROFF=True", ins, outs, **dict(kw, ROFF=True))
go(pkg, "KS=4096 > K (no K steps)", ins, outs, **dict(kw, KS=4096))
go(pkg, "MV=0", ins, outs, **dict(kw, MV=0))
go(pkg, "M=1024 passed too (agrees)", ins, outs, M=1024, **kw)
go(pkg, "M=1000 passed (A rows say M+ROFF=1027)", ins, outs, M=1000, **kw)
go(pkg, "no keywords", ins, outs)

pkg, rt, ins, outs, full = base("z01")
go(pkg, "K0=4096 (= K: zero trips)", ins, outs, K0=4096)
go(pkg, "K0=0", ins, outs, K0=0)
go(pkg, "K0=-8", ins, outs, K0=-8)
go(pkg, "K0=2**31", ins, outs, K0=2**31)
