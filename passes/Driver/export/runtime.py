"""Stagecraft export runtime: checks the arguments of an exported kernel and
launches it through the CUDA driver API (ctypes on libcuda.so.1).

The same file is in every exported package; the package's __init__.py holds
the kernel's spec (its tensors, sizes, grid and launch facts) and calls
launch() or plan(). Nothing here compiles anything: the kernel is the
package's kernel.cubin (sm_90a), loaded with cuModuleLoadData.

Errors:
  TypeError           an argument is not a tensor, or has the wrong dtype
  ValueError          a shape, stride, alignment, size or device is wrong
  UnsupportedDevice   the GPU is not sm_90 (the cubin is sm_90a machine code)
  CudaError           a CUDA driver call failed (the message names the call)
Argument checks run before any CUDA call, so a bad argument never reaches
the GPU.

Tensors are duck-typed (dtype, shape, stride(), data_ptr(), device): torch
tensors, or anything that looks like one (the package's tests use plain
Python objects).
"""

import ctypes
import os
import threading

__all__ = ["KernelSpec", "TensorSpec", "ParamSpec", "plan", "launch",
           "CudaError", "UnsupportedDevice"]

# --- The spec (filled by the generated __init__.py) -------------------------

_DTYPES = {  # name: (bytes, torch dtype name, CUtensorMapDataType)
    "bf16": (2, "torch.bfloat16", 9),
    "f16": (2, "torch.float16", 6),
    "f32": (4, "torch.float32", 7),
    "i32": (4, "torch.int32", 3),
    # The 1-byte floats move as bytes (CU_TENSOR_MAP_DATA_TYPE_UINT8).
    "e4m3": (1, "torch.float8_e4m3fn", 0),
    "e5m2": (1, "torch.float8_e5m2", 0),
    "e8m0": (1, "torch.float8_e8m0fnu", 0),
}
_SWIZZLE = {"none": 0, "32B": 1, "64B": 2, "128B": 3}
_L2_PROMOTION = {"none": 0, "64B": 1, "128B": 2, "256B": 3}
_OOB_FILL = {"zero": 0, "nan": 1}

_MAX_I32 = 2**31 - 1
# The kernel's coordinates are 32-bit: a dimension of 2^31 or more is refused by the compiler
# (rows past it would be read or written in the wrong place), so here too (TMA itself takes 2^32).
_MAX_TMA_DIM = 2**31 - 1
_MAX_TMA_STRIDE = 2**40
_MAX_GRID = (2**31 - 1, 65535, 65535)


class TensorSpec:
    """A tensor argument. `view(**sizes)` is the shape the kernel's tensor map
    sees (outermost first); `factors[d]` names the sizes view dimension d
    splits into in the tensor's natural shape (e.g. ("B", "H") for B * H), or
    is None when the dimension is kept as it is."""

    def __init__(self, name, role, dtype, view, view_text, factors, box,
                 swizzle="none", l2_promotion="none", oob_fill="zero",
                 element_strides=None, access="tensormap"):
        self.name = name
        self.role = role            # input | output | inout | unused
        self.dtype = dtype          # bf16 | f16 | f32 | i32 | e4m3 | e5m2 | e8m0
        self.view = view
        self.view_text = tuple(view_text)
        self.factors = tuple(factors)
        self.box = tuple(box)
        self.swizzle = swizzle
        self.l2_promotion = l2_promotion
        self.oob_fill = oob_fill
        self.element_strides = tuple(element_strides or (1,) * len(self.box))
        self.access = access        # tensormap | pointer

    @property
    def elem_bytes(self):
        return _DTYPES[self.dtype][0]

    @property
    def torch_dtype(self):
        return _DTYPES[self.dtype][1]

    def natural_text(self):
        out = []
        for d, f in enumerate(self.factors):
            out.extend(f if f else (self.view_text[d],))
        return tuple(out)

    def has_natural_form(self):
        return any(f is not None and len(f) > 1 for f in self.factors)


class ParamSpec:
    """A kernel parameter, in order: ("tensor", tensor index) or ("size",
    name, dtype)."""

    def __init__(self, kind, ref, dtype=None):
        self.kind = kind
        self.ref = ref
        self.dtype = dtype


class KernelSpec:
    def __init__(self, package, kernel, directory, sizes, tensors, params,
                 grid, grid_text, block, dynamic_smem, cluster=None, size_multiples=None):
        self.package = package
        self.kernel = kernel
        self.directory = directory
        self.sizes = list(sizes)              # [(name, default)]
        self.size_names = [n for n, _ in self.sizes]
        # {name: m}: the size must be a multiple of m (a load's innermost
        # coordinate follows it; TMA starts a copy at a 16-byte unit)
        self.size_multiples = dict(size_multiples or {})
        self.tensors = list(tensors)
        self.params = list(params)
        self.grid = grid
        self.grid_text = tuple(grid_text)
        self.block = tuple(block)
        self.dynamic_smem = int(dynamic_smem)
        self.cluster = tuple(cluster) if cluster else None

    def inputs(self):
        return [t for t in self.tensors if t.role != "output"]

    def outputs(self):
        return [t for t in self.tensors if t.role == "output"]

    def returned(self):
        return [t for t in self.tensors if t.role in ("output", "inout")]


# --- Checks (pure Python: no CUDA) -------------------------------------------

def _fmt(shape):
    return "(" + ", ".join(str(x) for x in shape) + ("," if len(shape) == 1 else "") + ")"


def _is_tensor(x):
    return all(hasattr(x, a) for a in ("dtype", "shape", "stride", "data_ptr", "device"))


def _device_of(t):
    dev = t.device
    kind = getattr(dev, "type", str(dev))
    index = getattr(dev, "index", None)
    return kind, index


def _check_tensor_basics(spec, t, what):
    if not _is_tensor(t):
        raise TypeError(f"{spec.package}: {what} must be a CUDA tensor, got {type(t).__name__}")
    kind, _ = _device_of(t)
    if kind != "cuda":
        raise ValueError(f"{spec.package}: {what} is on the {kind} device; this kernel runs "
                         f"on a CUDA device (sm_90): move it with .cuda()")


def _check_dtype(spec, ts, t, what):
    got = str(t.dtype)
    if got != ts.torch_dtype:
        raise TypeError(f"{spec.package}: {what} has dtype {got}; the kernel reads "
                        f"{ts.name} as {ts.torch_dtype}")


def _form(spec, ts, t, what):
    """'view' or 'natural': which of the two shapes the tensor has (by rank)."""
    rank = len(tuple(t.shape))
    view_rank = len(ts.view_text)
    natural = ts.natural_text()
    if rank == view_rank:
        return "view"
    if ts.has_natural_form() and rank == len(natural):
        return "natural"
    expected = _fmt(ts.view_text)
    if ts.has_natural_form():
        expected = f"{_fmt(natural)} or {expected}"
    raise ValueError(f"{spec.package}: {what} has {rank} dimensions {_fmt(tuple(t.shape))}; "
                     f"{ts.name} is {expected}")


def _bind(spec, bound, source, name, value, where):
    # 0 is a size an offset may take (a K start); a tensor's dimension is at least 1.
    if value < 1 and ".shape[" in where:
        raise ValueError(f"{spec.package}: size {name} = {value} from {where}; sizes must be at least 1")
    if value < 0:
        raise ValueError(f"{spec.package}: size {name} = {value} from {where}; sizes are not negative")
    if name in bound and bound[name] != value:
        raise ValueError(f"{spec.package}: size {name} is {bound[name]} from {source[name]} "
                         f"but {value} from {where}")
    if name not in bound:
        bound[name] = value
        source[name] = where


def _bind_sizes(spec, ts, t, form, what, bound, source):
    shape = tuple(int(x) for x in t.shape)
    pos = 0
    for d, f in enumerate(ts.factors):
        if form == "natural" and f is not None and len(f) > 1:
            for k, name in enumerate(f):
                _bind(spec, bound, source, name, shape[pos + k], f"{what}.shape[{pos + k}]")
            pos += len(f)
            continue
        if f is not None and len(f) == 1:
            _bind(spec, bound, source, f[0], shape[pos], f"{what}.shape[{pos}]")
        pos += 1


def _natural_shape(ts, sizes, view):
    out = []
    for d, f in enumerate(ts.factors):
        if f is not None and len(f) > 1:
            out.extend(sizes[n] for n in f)
        else:
            out.append(view[d])
    return tuple(out)


def _tma_view(spec, ts, t, form, what, sizes):
    """(view shape, view strides in bytes) of a checked tensor."""
    view = tuple(int(x) for x in ts.view(**sizes))
    natural = _natural_shape(ts, sizes, view)
    shape = tuple(int(x) for x in t.shape)
    strides = tuple(int(x) for x in t.stride())
    expected = view if form == "view" else natural
    text = ts.view_text if form == "view" else ts.natural_text()
    if shape != expected:
        raise ValueError(f"{spec.package}: {what} has shape {_fmt(shape)}; {ts.name} must be "
                         f"{_fmt(text)} = {_fmt(expected)} at these sizes")
    for d, v in enumerate(view):
        if v < 1 or v > _MAX_TMA_DIM:
            raise ValueError(f"{spec.package}: {what}: dimension {d} of the kernel's view "
                             f"({ts.view_text[d]} = {v}) is outside 1..2^31-1 (the kernel's "
                             f"coordinates are 32-bit)")
    # Merge the natural dimensions of each view dimension into one stride.
    view_strides = []
    pos = 0
    for d, f in enumerate(ts.factors):
        n = len(f) if (form == "natural" and f is not None and len(f) > 1) else 1
        dims = [k for k in range(pos, pos + n) if shape[k] != 1]
        for a, b in zip(dims, dims[1:]):
            if strides[a] != strides[b] * shape[b]:
                raise ValueError(
                    f"{spec.package}: {what}: dimensions {pos}..{pos + n - 1} "
                    f"({', '.join(f)}) must be contiguous with each other to form the kernel's "
                    f"dimension {ts.view_text[d]}, but the strides are "
                    f"{_fmt(strides[pos:pos + n])}: pass {what}.contiguous()")
        view_strides.append(strides[dims[-1]] if dims else strides[pos + n - 1])
        pos += n
    if view[-1] != 1 and view_strides[-1] != 1:
        raise ValueError(f"{spec.package}: {what}: the innermost dimension must be dense "
                         f"(stride 1), it has stride {view_strides[-1]}: pass {what}.contiguous()")
    elem = ts.elem_bytes
    stride_bytes = tuple(s * elem for s in view_strides)
    for d in range(len(view) - 1):
        s = stride_bytes[d]
        if view[d] == 1:
            continue
        if s <= 0:
            raise ValueError(f"{spec.package}: {what}: dimension {d} has stride {view_strides[d]} "
                             f"(a broadcast or expanded tensor); TMA needs real strides: "
                             f"pass {what}.contiguous()")
        if s % 16 or s >= _MAX_TMA_STRIDE:
            raise ValueError(
                f"{spec.package}: {what}: the stride of dimension {d} is {view_strides[d]} "
                f"elements = {s} bytes; TMA needs a multiple of 16 bytes (below 2^40): "
                f"make the inner dimensions a multiple of {16 // elem if elem < 16 else 1} "
                f"elements, or copy into a padded tensor")
    ptr = int(t.data_ptr())
    if ptr % 16:
        raise ValueError(f"{spec.package}: {what}: the data pointer 0x{ptr:x} is not 16-byte "
                         f"aligned (TMA needs 16); a slice that starts mid-row does this: "
                         f"pass {what}.contiguous()")
    # Rows of size-1 dimensions may have any stride; TMA still wants a
    # positive multiple of 16, and never steps along them.
    fixed = []
    for d in range(len(view) - 1):
        s = stride_bytes[d]
        if view[d] == 1 and (s <= 0 or s % 16 or s >= _MAX_TMA_STRIDE):
            s = max(16, ((view[d + 1] * stride_bytes[d + 1]) + 15) // 16 * 16)
        fixed.append(s)
    fixed.append(elem)
    return view, tuple(fixed), ptr


class Plan:
    """A checked call: sizes, grid, and for each tensor argument its tensor
    map view (shape, strides in bytes, base address)."""

    def __init__(self, sizes, grid, views, device_index, outputs):
        self.sizes = sizes
        self.grid = grid
        self.views = views                # {tensor index: (shape, strides_bytes, ptr)}
        self.device_index = device_index
        self.outputs = outputs            # [(tensor index, natural shape)] still to allocate
        # The launch's parameter buffers (tensor maps encoded once), by device:
        # filled by the first launch of this plan, read by every later one.
        self.params = {}


# Checked calls, by their arguments: a plan depends only on each tensor's
# address, shape, strides, dtype and device and on the sizes given, so a call
# that repeats all of them (a training or decode loop) skips the checks and the
# tensor-map encodings (0.2-0.35 ms a call through ctypes, measured on an H200:
# bench/results/export-h200-2026-11-28). Bounded: the oldest entry goes first.
_PLAN_CACHE_SIZE = 64
_plan_cache = {}
_plan_lock = threading.Lock()


def _call_key(spec, inputs, out, sizes, allocate):
    """The arguments a plan depends on, or None when one is not a tensor (the
    checks then say what is wrong)."""
    def sig(t):
        if t is None:
            return None
        if not _is_tensor(t):
            raise TypeError
        dev = t.device
        return (t.data_ptr(), tuple(t.shape), tuple(t.stride()), str(t.dtype), dev.type, dev.index)
    try:
        outs = None if out is None else (tuple(sig(o) for o in out)
                                         if isinstance(out, (tuple, list)) else (sig(out),))
        return (id(spec), allocate, tuple(sig(t) for t in inputs), outs,
                tuple(sorted((sizes or {}).items())))
    except Exception:  # noqa: BLE001 (anything odd: no key, the checks run)
        return None


def plan(spec, inputs, out=None, sizes=None, allocate=False):
    """Checks the arguments and works out the launch. With allocate=True the
    outputs not given in `out` are left to the caller (Plan.outputs)."""
    key = _call_key(spec, inputs, out, sizes, allocate)
    if key is not None:
        with _plan_lock:
            hit = _plan_cache.get(key)
        if hit is not None:
            return hit
    p = _checked_plan(spec, inputs, out, sizes, allocate)
    if key is not None:
        with _plan_lock:
            if len(_plan_cache) >= _PLAN_CACHE_SIZE:
                _plan_cache.pop(next(iter(_plan_cache)))
            _plan_cache[key] = p
    return p


def _checked_plan(spec, inputs, out=None, sizes=None, allocate=False):
    sizes = dict(sizes or {})
    ins = spec.inputs()
    outs = spec.outputs()
    for name in sizes:
        if name not in spec.size_names:
            raise TypeError(f"{spec.package}.run() got an unknown size {name}=; its sizes are "
                            f"{', '.join(spec.size_names)}")
    if len(inputs) != len(ins):
        raise TypeError(f"{spec.package}.run() takes {len(ins)} tensors "
                        f"({', '.join(t.name for t in ins)}), got {len(inputs)}")
    if out is None:
        given_out = [None] * len(outs)
    else:
        given_out = list(out) if isinstance(out, (tuple, list)) else [out]
        if len(given_out) != len(outs):
            raise TypeError(f"{spec.package}.run(): out= needs {len(outs)} tensors "
                            f"({', '.join(t.name for t in outs)}), got {len(given_out)}")
    if not allocate and any(o is None for o in given_out):
        raise TypeError(f"{spec.package}: outputs must be given (out=) when not allocating")

    args = []  # (tensor spec index, tensor, what)
    for ts, t in zip(ins, inputs):
        args.append((spec.tensors.index(ts), t, ts.name))
    for ts, t in zip(outs, given_out):
        if t is not None:
            args.append((spec.tensors.index(ts), t, f"out {ts.name}"))

    device = None
    for i, t, what in args:
        ts = spec.tensors[i]
        _check_tensor_basics(spec, t, what)
        _check_dtype(spec, ts, t, what)
        _, index = _device_of(t)
        if device is None:
            device = (index, what)
        elif index != device[0]:
            raise ValueError(f"{spec.package}: {what} is on cuda:{index} but {device[1]} is on "
                             f"cuda:{device[0]}; all tensors must be on one device")

    bound = {}
    source = {}
    for name, value in sizes.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{spec.package}: size {name} must be an int, got {type(value).__name__}")
        _bind(spec, bound, source, name, value, f"{name}=")
    forms = {}
    for i, t, what in args:
        ts = spec.tensors[i]
        forms[i, what] = _form(spec, ts, t, what)
        _bind_sizes(spec, ts, t, forms[i, what], what, bound, source)
    missing = [n for n in spec.size_names if n not in bound]
    if missing:
        raise ValueError(f"{spec.package}: cannot tell size(s) {', '.join(missing)} from the "
                         f"tensors' shapes; pass them, e.g. {missing[0]}=...")
    for name, value in bound.items():
        if value > _MAX_I32:
            raise ValueError(f"{spec.package}: size {name} = {value} does not fit the kernel's "
                             f"32-bit size parameter")
        multiple = spec.size_multiples.get(name, 1)
        if value % multiple:
            raise ValueError(f"{spec.package}: size {name} = {value} must be a multiple of "
                             f"{multiple}: a load's innermost coordinate follows it, and TMA "
                             f"starts a copy at a 16-byte unit")

    views = {}
    for i, t, what in args:
        views[i] = _tma_view(spec, spec.tensors[i], t, forms[i, what], what, bound)

    grid = tuple(int(g) for g in spec.grid(**bound)) + (1, 1)
    grid = grid[:3]
    for d, (g, limit) in enumerate(zip(grid, _MAX_GRID)):
        if g < 1 or g > limit:
            raise ValueError(f"{spec.package}: grid dimension {d} ({spec.grid_text[d] if d < len(spec.grid_text) else '1'}"
                             f" = {g}) is outside 1..{limit} at these sizes")
        if spec.cluster and g % spec.cluster[d]:
            raise ValueError(f"{spec.package}: grid dimension {d} ({spec.grid_text[d] if d < len(spec.grid_text) else '1'}"
                             f" = {g}) is not a multiple of the cluster's {spec.cluster[d]} at these "
                             f"sizes: a cluster's CTAs launch together")

    # Outputs written through TMA must not overlap themselves, each other or
    # an input: the kernel's stores race with each other and with its loads
    # (torch refuses such out= for its own ops; these were taken: the
    # fifteenth sweep's M1).
    spans = {}
    for i, t, what in args:
        ts = spec.tensors[i]
        shape = tuple(int(x) for x in t.shape)
        strides = tuple(int(x) for x in t.stride())
        if any(n == 0 for n in shape):
            continue
        if what.startswith("out "):
            inner = 1
            for n, st in sorted(zip(shape, strides), key=lambda d: d[1]):
                if n > 1 and st < inner:
                    raise ValueError(f"{spec.package}: {what} overlaps itself (strides "
                                     f"{_fmt(strides)} for shape {_fmt(shape)}): the kernel "
                                     f"writes each element once")
                inner = max(inner, st * n)
        # The same first element: one tensor passed twice. (Slices of one
        # buffer, side by side, are fine and not told apart here.)
        spans[what] = (int(t.data_ptr()), what.startswith("out "))
    items = list(spans.items())
    for a in range(len(items)):
        for b in range(a + 1, len(items)):
            (wa, (pa, oa)), (wb, (pb, ob)) = items[a], items[b]
            if (oa or ob) and pa == pb:
                raise ValueError(f"{spec.package}: {wa} and {wb} are the same memory; an output "
                                 f"must not alias another tensor (the kernel reads and writes "
                                 f"them at once)")

    pending = []
    for ts, t in zip(outs, given_out):
        if t is None:
            view = tuple(int(x) for x in ts.view(**bound))
            pending.append((spec.tensors.index(ts), _natural_shape(ts, bound, view)))
    return Plan(bound, grid, views, device[0] if device else None, pending)


# --- The CUDA driver (ctypes) ------------------------------------------------

class CudaError(RuntimeError):
    """A CUDA driver call failed."""

    def __init__(self, message, result=None):
        super().__init__(message)
        self.result = result


class UnsupportedDevice(RuntimeError):
    """The GPU cannot run sm_90a machine code."""


_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
_CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14
_CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4


class _LaunchAttribute(ctypes.Structure):
    # CUlaunchAttribute: id, 4 bytes of padding, a 64-byte value union; the
    # cluster dimension is the union's first three unsigned ints.
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4),
                ("x", ctypes.c_uint), ("y", ctypes.c_uint), ("z", ctypes.c_uint),
                ("rest", ctypes.c_char * 52)]


class _LaunchConfig(ctypes.Structure):
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint),
                ("gridDimZ", ctypes.c_uint), ("blockDimX", ctypes.c_uint),
                ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint), ("hStream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(_LaunchAttribute)), ("numAttrs", ctypes.c_uint)]


class _Driver:
    def __init__(self):
        try:
            lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            raise CudaError(f"cannot load the CUDA driver library libcuda.so.1 ({e}); "
                            f"is an NVIDIA driver installed?") from None
        self.lib = lib
        P = ctypes.POINTER
        vp, ci, cu, u64, u32 = (ctypes.c_void_p, ctypes.c_int, ctypes.c_uint,
                                ctypes.c_uint64, ctypes.c_uint32)
        sig = {
            "cuInit": [cu],
            "cuGetErrorName": [ci, P(ctypes.c_char_p)],
            "cuGetErrorString": [ci, P(ctypes.c_char_p)],
            "cuDeviceGet": [P(ci), ci],
            "cuDeviceGetName": [ctypes.c_char_p, ci, ci],
            "cuDeviceGetAttribute": [P(ci), ci, ci],
            "cuDevicePrimaryCtxRetain": [P(vp), ci],
            "cuCtxPushCurrent_v2": [vp],
            "cuCtxPopCurrent_v2": [P(vp)],
            "cuModuleLoadData": [P(vp), ctypes.c_char_p],
            "cuModuleGetFunction": [P(vp), vp, ctypes.c_char_p],
            "cuFuncSetAttribute": [vp, ci, ci],
            "cuTensorMapEncodeTiled": [vp, ci, u32, vp, P(u64), P(u64), P(u32), P(u32),
                                       ci, ci, ci, ci],
            "cuLaunchKernel": [vp, cu, cu, cu, cu, cu, cu, cu, vp, P(vp), P(vp)],
            "cuLaunchKernelEx": [P(_LaunchConfig), vp, P(vp), P(vp)],
        }
        for name, argtypes in sig.items():
            try:
                fn = getattr(lib, name)
            except AttributeError:
                raise CudaError(f"the CUDA driver has no {name}; a driver for CUDA 12 or "
                                f"newer is needed") from None
            fn.argtypes = argtypes
            fn.restype = ci
        self.modules = {}   # device index -> (context, module, function)
        self.lock = threading.Lock()
        self.check(lib.cuInit(0), "cuInit")

    def error_text(self, result):
        name = ctypes.c_char_p()
        text = ctypes.c_char_p()
        self.lib.cuGetErrorName(result, ctypes.byref(name))
        self.lib.cuGetErrorString(result, ctypes.byref(text))
        n = name.value.decode() if name.value else f"CUDA error {result}"
        s = text.value.decode() if text.value else ""
        return f"{n}: {s}" if s else n

    def check(self, result, what):
        if result != 0:
            raise CudaError(f"{what}: {self.error_text(result)}", result)

    def attribute(self, attr, dev):
        v = ctypes.c_int()
        self.check(self.lib.cuDeviceGetAttribute(ctypes.byref(v), attr, dev), "cuDeviceGetAttribute")
        return v.value

    def function(self, spec, device_index):
        """The kernel loaded in device `device_index`'s primary context (the
        one the CUDA runtime, and so torch, uses)."""
        with self.lock:
            if device_index in self.modules:
                return self.modules[device_index]
            lib = self.lib
            dev = ctypes.c_int()
            self.check(lib.cuDeviceGet(ctypes.byref(dev), device_index), f"cuDeviceGet({device_index})")
            major = self.attribute(_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev.value)
            minor = self.attribute(_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev.value)
            if (major, minor) != (9, 0):
                name = ctypes.create_string_buffer(256)
                lib.cuDeviceGetName(name, 256, dev.value)
                raise UnsupportedDevice(
                    f"{spec.package}: cuda:{device_index} ({name.value.decode(errors='replace')}) "
                    f"is sm_{major}{minor}; this kernel is sm_90a machine code (H100, H200)")
            optin = self.attribute(_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev.value)
            if spec.dynamic_smem > optin:
                raise UnsupportedDevice(f"{spec.package}: the kernel needs {spec.dynamic_smem} "
                                        f"bytes of shared memory per block; cuda:{device_index} "
                                        f"allows {optin}")
            ctx = ctypes.c_void_p()
            self.check(lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev.value),
                       "cuDevicePrimaryCtxRetain")
            path = os.path.join(spec.directory, "kernel.cubin")
            try:
                with open(path, "rb") as f:
                    image = f.read()
            except OSError as e:
                raise CudaError(f"{spec.package}: cannot read {path}: {e}") from None
            self.check(lib.cuCtxPushCurrent_v2(ctx), "cuCtxPushCurrent")
            try:
                module = ctypes.c_void_p()
                self.check(lib.cuModuleLoadData(ctypes.byref(module), image),
                           f"loading {path} (cuModuleLoadData)")
                fn = ctypes.c_void_p()
                self.check(lib.cuModuleGetFunction(ctypes.byref(fn), module, spec.kernel.encode()),
                           f"cuModuleGetFunction({spec.kernel})")
                self.check(lib.cuFuncSetAttribute(fn, _CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                  spec.dynamic_smem),
                           f"cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, {spec.dynamic_smem})")
                if spec.cluster and spec.cluster[0] * spec.cluster[1] * spec.cluster[2] > 8:
                    self.check(lib.cuFuncSetAttribute(fn, _CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
                               "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)")
            finally:
                popped = ctypes.c_void_p()
                lib.cuCtxPopCurrent_v2(ctypes.byref(popped))
            self.modules[device_index] = (ctx, module, fn)
            return self.modules[device_index]

    def encode(self, ts, view, strides, ptr, what):
        """A CUtensorMap (128 bytes, 64-byte aligned) for one tensor map view;
        returns (buffer, address): keep the buffer alive until the launch."""
        buf = ctypes.create_string_buffer(128 + 64)
        addr = (ctypes.addressof(buf) + 63) // 64 * 64
        rank = len(view)
        # The driver wants the innermost dimension first and no innermost stride.
        dims = (ctypes.c_uint64 * rank)(*reversed(view))
        gstrides = (ctypes.c_uint64 * max(1, rank - 1))(*reversed(strides[:-1]))
        box = (ctypes.c_uint32 * rank)(*reversed(ts.box))
        estr = (ctypes.c_uint32 * rank)(*reversed(ts.element_strides))
        self.check(self.lib.cuTensorMapEncodeTiled(
            ctypes.c_void_p(addr), _DTYPES[ts.dtype][2], rank, ctypes.c_void_p(ptr), dims, gstrides,
            box, estr, 0, _SWIZZLE[ts.swizzle], _L2_PROMOTION[ts.l2_promotion],
            _OOB_FILL[ts.oob_fill]),
            f"cuTensorMapEncodeTiled for {what} (shape {_fmt(view)}, strides {_fmt(strides)} bytes)")
        return buf, addr

    def launch(self, spec, p, stream):
        ctx, _, fn = self.function(spec, p.device_index)
        lib = self.lib
        self.check(lib.cuCtxPushCurrent_v2(ctx), "cuCtxPushCurrent")
        try:
            # A plan's parameters are the same at every launch (the stream is
            # not one of them): encoded once, kept with the plan.
            cached = p.params.get(p.device_index)
            if cached is None:
                cached = self.parameters(spec, p)
                p.params[p.device_index] = cached
            args = cached[1]
            gx, gy, gz = p.grid
            bx, by, bz = spec.block
            if spec.cluster:
                attr = _LaunchAttribute(id=_CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
                                        x=spec.cluster[0], y=spec.cluster[1], z=spec.cluster[2])
                cfg = _LaunchConfig(gx, gy, gz, bx, by, bz, spec.dynamic_smem,
                                    ctypes.c_void_p(stream), ctypes.pointer(attr), 1)
                self.check(lib.cuLaunchKernelEx(ctypes.byref(cfg), fn, args, None),
                           f"cuLaunchKernelEx({spec.kernel})")
            else:
                self.check(lib.cuLaunchKernel(fn, gx, gy, gz, bx, by, bz, spec.dynamic_smem,
                                              ctypes.c_void_p(stream), args, None),
                           f"cuLaunchKernel({spec.kernel})")
        finally:
            popped = ctypes.c_void_p()
            lib.cuCtxPopCurrent_v2(ctypes.byref(popped))

    def parameters(self, spec, p):
        """The kernel's parameter array for plan `p`: (the buffers it points
        into, to keep alive; the array)."""
        keep = []
        values = []
        for param in spec.params:
            if param.kind == "tensor":
                ts = spec.tensors[param.ref]
                view, strides, ptr = p.views[param.ref]
                if ts.access == "pointer":
                    v = ctypes.c_uint64(ptr)
                    keep.append(v)
                    values.append(ctypes.addressof(v))
                else:
                    buf, addr = self.encode(ts, view, strides, ptr, ts.name)
                    keep.append(buf)
                    values.append(addr)
            else:
                size = p.sizes[param.ref]
                v = ctypes.c_int64(size) if param.dtype == "i64" else ctypes.c_int32(size)
                keep.append(v)
                values.append(ctypes.addressof(v))
        args = (ctypes.c_void_p * max(1, len(values)))(*values)
        return keep, args


_driver = None
_driver_lock = threading.Lock()


def driver():
    global _driver
    with _driver_lock:
        if _driver is None:
            _driver = _Driver()
        return _driver


def _stream_handle(stream, device_index):
    if stream is None:
        import torch
        return int(torch.cuda.current_stream(device_index).cuda_stream)
    if isinstance(stream, int):
        return stream
    handle = getattr(stream, "cuda_stream", None)
    if handle is None:
        raise TypeError(f"stream must be an int handle or a torch.cuda.Stream, got {type(stream).__name__}")
    return int(handle)


def launch(spec, inputs, out=None, stream=None, sizes=None):
    """Checks the arguments, allocates the outputs not given (torch.empty, in
    their natural shape), launches on `stream` (default: torch's current
    stream) and returns the outputs (one tensor, or a tuple)."""
    p = plan(spec, inputs, out, sizes, allocate=True)
    if p.device_index is None:  # no tensor given (a kernel with outputs only)
        import copy
        import torch
        p = copy.copy(p)          # the cached plan stays as it was checked
        p.params = {}
        p.device_index = torch.cuda.current_device()
    given = [] if out is None else (list(out) if isinstance(out, (tuple, list)) else [out])
    results = {}
    outs = spec.outputs()
    for k, ts in enumerate(outs):
        if k < len(given) and given[k] is not None:
            results[spec.tensors.index(ts)] = given[k]
    if p.outputs:
        import torch
        for i, shape in p.outputs:
            ts = spec.tensors[i]
            dtype = getattr(torch, ts.torch_dtype.split(".", 1)[1])
            t = torch.empty(shape, dtype=dtype, device=f"cuda:{p.device_index}")
            results[i] = t
        device_index = p.device_index
        p = plan(spec, inputs, [results[spec.tensors.index(ts)] for ts in outs], sizes)
        if p.device_index != device_index:
            import copy
            p = copy.copy(p)
            p.params = {}
            p.device_index = device_index
    for ts, t in zip(spec.inputs(), inputs):
        if ts.role == "inout":
            results[spec.tensors.index(ts)] = t
    driver().launch(spec, p, _stream_handle(stream, p.device_index))
    ret = [results[spec.tensors.index(ts)] for ts in spec.returned()]
    return ret[0] if len(ret) == 1 else tuple(ret)
