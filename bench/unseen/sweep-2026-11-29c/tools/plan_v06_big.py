# The exported packed-rows GEMM (v06) at BT=2, M=1610612736, N=8, K=8: the compiler refuses these
# sizes (a dimension of 2^31 or more cannot be addressed with 32-bit coordinates); does the package?
import sys
sys.path.insert(0, "exports")
import v06
class D:
    def __init__(s, n): s.name = n
    def __str__(s): return s.name
class Dev: type = "cuda"; index = 0
class T:
    def __init__(s, shape, ptr):
        s.shape = tuple(shape); s.dtype = D("torch.bfloat16"); s.device = Dev(); s._ptr = ptr
        st, a = [], 1
        for d in reversed(s.shape): st.insert(0, a); a *= d
        s._st = tuple(st)
    def stride(s): return s._st
    def data_ptr(s): return s._ptr
BT, M, N, K = 2, 1610612736, 8, 8
p = v06.plan(T((BT, M, K), 0x10000000000), T((N, K), 0x20000000000), out=T((BT, M, N), 0x30000000000))
print("python plan accepted: grid", p.grid, "A view", p.views[0][0], "C view", p.views[2][0])
