"""Fake torch tensors (enough for the launchers: dtype, shape, stride(), data_ptr(), device), as in
test/export/test_export.py, and helpers to build a package's inputs at given sizes."""
import importlib, os, sys

class D:
    def __init__(s, n): s.name = n
    def __str__(s): return s.name
class Dev:
    def __init__(s, t="cuda", i=0): s.type = t; s.index = i
class T:
    def __init__(s, shape, dtype, ptr=0x7f0000000000, strides=None, device=("cuda", 0)):
        s.shape = tuple(shape); s.dtype = D(dtype) if isinstance(dtype, str) else dtype
        s.device = Dev(*device); s._ptr = ptr
        if strides is None:
            st, acc = [], 1
            for d in reversed(s.shape): st.insert(0, acc); acc *= d
            strides = st
        s._st = tuple(strides)
    def stride(s, i=None): return s._st if i is None else s._st[i]
    def data_ptr(s): return s._ptr
    def dim(s): return len(s.shape)
    def __repr__(s): return f"T{s.shape}{s._st}"

def load(pkg_dir):
    pkg_dir = os.path.abspath(pkg_dir)
    sys.path.insert(0, os.path.dirname(pkg_dir))
    name = os.path.basename(pkg_dir)
    pkg = importlib.import_module(name)
    return pkg, sys.modules[name + "._runtime"]

def tensors(pkg, rt, sizes, merged=False):
    """natural-shape (or view-shape) fake tensors for every tensor of the package, in order"""
    full = dict(pkg.SIZES); full.update(sizes)
    ptr = 0x7f0000000000
    ins, outs = [], []
    for ts in pkg._SPEC.tensors:
        view = ts.view(**full)
        shape = view if merged else rt._natural_shape(ts, full, view)
        t = T(shape, ts.torch_dtype, ptr); ptr += 1 << 40
        (outs if ts.role == "output" else ins).append(t)
    return ins, outs, full
