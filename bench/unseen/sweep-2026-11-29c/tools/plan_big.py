import sys, os
sys.path.insert(0, "exports")
sys.path.insert(0, "tools")
import k14
class D:
    def __init__(s, n): s.name = n
    def __str__(s): return s.name
class Dev: type = "cuda"; index = 0
class T:
    def __init__(s, shape, dtype, ptr=0x7f0000000000):
        s.shape = tuple(shape); s.dtype = D(dtype); s.device = Dev(); s._ptr = ptr
        st, a = [], 1
        for d in reversed(s.shape): st.insert(0, a); a *= d
        s._st = tuple(st)
    def stride(s): return s._st
    def data_ptr(s): return s._ptr
E, N, K, Tn, NB = 16, 2**27, 8, 1024, 8
p = k14.plan(T((Tn, K), "torch.bfloat16"), T((E, N, K), "torch.bfloat16"), T((NB,), "torch.int32"), T((NB,), "torch.int32"), out=T((Tn, N), "torch.bfloat16"))
print("k14.plan accepted: sizes", p.sizes, "grid", p.grid, "W view", p.views[1][0])
