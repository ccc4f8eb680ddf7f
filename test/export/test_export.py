"""Tests of exported packages (stagecraft-compile --export), without a GPU.

- the package's files and README;
- the Python launcher's argument checks, on fake tensors (torch is not needed);
- the Python launcher and the C++ header against a mock libcuda.so.1 that
  records every tensor-map encode and launch: at the compiled sizes they must
  be exactly the manifest's (what stagecraft-run verified on a GPU), at other
  sizes what the signature's expressions give;
- example.cpp builds with nvcc and, run against the mock (whose kernels do
  nothing), reports the unwritten output as wrong.

Environment (set by CMake): STAGECRAFT_COMPILE, STAGECRAFT_ASSETS, MOCK_CUDA_DIR,
CUDA_INCLUDE_DIR, NVCC, CXX.
"""

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

COMPILE = os.environ["STAGECRAFT_COMPILE"]
ASSETS = os.environ["STAGECRAFT_ASSETS"]
MOCK_DIR = os.environ["MOCK_CUDA_DIR"]
CUDA_INCLUDE = os.environ["CUDA_INCLUDE_DIR"]
NVCC = os.environ["NVCC"]
CXX = os.environ.get("CXX", "c++")

# Made in setUpModule, not at import: the mock-driver scripts import this module for its fakes,
# and a directory made at import would be left behind by every one of them.
WORK = None


def export(asset, package, *extra):
    out = os.path.join(WORK, package)
    r = subprocess.run([COMPILE, os.path.join(ASSETS, asset), "--export", out, "-q", *extra],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"export of {asset} failed:\n{r.stderr}")
    return out


def read(*path):
    with open(os.path.join(*path)) as f:
        return f.read()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def setUpModule():
    global ATTN, GEMM, WORK
    WORK = tempfile.mkdtemp(prefix="stagecraft-export-test-")
    ATTN = export("attention_fwd_d128.mlir", "attn")
    GEMM = export("gemm.mlir", "gemm")
    sys.path.insert(0, WORK)


def tearDownModule():
    shutil.rmtree(WORK, ignore_errors=True)


def load(package):
    return importlib.import_module(package)


def manifest(pkg_dir):
    with open(os.path.join(pkg_dir, "manifest.json")) as f:
        return json.load(f)


# --- Fake tensors ------------------------------------------------------------

class FakeDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class FakeDevice:
    def __init__(self, type, index=None):
        self.type = type
        self.index = index


BF16 = FakeDtype("torch.bfloat16")
F16 = FakeDtype("torch.float16")


class FakeTensor:
    """Enough of torch.Tensor for the launcher: dtype, shape, stride(), data_ptr(), device."""

    def __init__(self, shape, dtype=BF16, strides=None, ptr=0x7f0000000000, device=("cuda", 0)):
        self.shape = tuple(shape)
        self.dtype = dtype
        if strides is None:
            strides, s = [], 1
            for d in reversed(self.shape):
                strides.insert(0, s)
                s *= d
        self._strides = tuple(strides)
        self._ptr = ptr
        self.device = FakeDevice(*device)

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr


def qkv(B=4, H=16, S=8192, D=128, **kw):
    step = B * H * S * D * 2
    return [FakeTensor((B, H, S, D), ptr=0x7f0000000000 + i * step, **kw) for i in range(3)]


# --- Package contents --------------------------------------------------------

class PackageContents(unittest.TestCase):
    def test_files(self):
        for pkg, name in ((ATTN, "attn"), (GEMM, "gemm")):
            files = set(os.listdir(pkg))
            for f in ("__init__.py", "_runtime.py", f"{name}.h", f"{name}_cubin.h", "example.cpp",
                      "README.md", "kernel.cubin", "kernel.ptx", "manifest.json",
                      "signature.json", "schedule.json", "ptxas.txt", ".stagecraft-export"):
                self.assertIn(f, files, pkg)
            with open(os.path.join(pkg, "kernel.cubin"), "rb") as f:
                self.assertEqual(f.read(4), b"\x7fELF")

    def test_readme_says_what_schedule_and_how(self):
        readme = read(ATTN, "README.md")
        sig = json.loads(read(ATTN, "signature.json"))
        self.assertIn(sig["steady_state"], readme)
        self.assertIn("MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1)", readme)
        self.assertIn("scaled_dot_product_attention", readme)
        self.assertIn("attn.run(q, k, v)", readme)
        self.assertIn("nvcc -std=c++17 -O2 -o example example.cpp -lcuda", readme)
        self.assertIn("Not measured", readme)
        self.assertIn("| loadK | 0 |", readme)
        self.assertIn("`C = A · Bᵀ`", read(GEMM, "README.md"))

    def test_measured_speed_goes_into_the_readme(self):
        result = {"id": None, "status": "ok", "verified": True, "tflops": 612.5,
                  "median_us": 1795.2, "max_rel_err": 0.0021,
                  "device": {"name": "NVIDIA H100 80GB HBM3"},
                  "reference_name": "cublasGemmEx bf16", "reference_tflops": 700.1}
        path = os.path.join(WORK, "result.json")
        with open(path, "w") as f:
            f.write("{\"status\": \"error\"}\n" + json.dumps(result) + "\n")
        out = export("gemm.mlir", "gemm_measured", "--measured", path)
        readme = read(out, "README.md")
        self.assertIn("612.5 TFLOP/s (1795.2 us median) on NVIDIA H100 80GB HBM3", readme)
        self.assertIn("cublasGemmEx bf16 in the same run: 700.1 TFLOP/s", readme)

    def test_a_failed_run_is_not_a_measurement(self):
        path = os.path.join(WORK, "failed.json")
        with open(path, "w") as f:
            f.write(json.dumps({"status": "verify_failed", "verified": False}))
        r = subprocess.run([COMPILE, os.path.join(ASSETS, "gemm.mlir"), "--export",
                            os.path.join(WORK, "gemm_failed"), "--measured", path],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("verify_failed", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(WORK, "gemm_failed")))

    def test_export_refuses_bad_names_and_foreign_directories(self):
        r = subprocess.run([COMPILE, os.path.join(ASSETS, "gemm.mlir"), "--export",
                            os.path.join(WORK, "my-kernel")], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("must be an identifier", r.stderr)
        self.assertIn("my_kernel", r.stderr)
        foreign = os.path.join(WORK, "foreign")
        os.makedirs(foreign)
        write(os.path.join(foreign, "mine.txt"), "keep me")
        r = subprocess.run([COMPILE, os.path.join(ASSETS, "gemm.mlir"), "--export", foreign],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("is not an earlier export", r.stderr)
        self.assertEqual(os.listdir(foreign), ["mine.txt"])
        # Names that would shadow a module the package or its callers import.
        for name in ("torch", "ctypes", "_runtime", "__init__"):
            r = subprocess.run([COMPILE, os.path.join(ASSETS, "gemm.mlir"), "--export",
                                os.path.join(WORK, "shadow", name)], capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0, name)
            self.assertIn("would shadow the module of that name", r.stderr)

    def test_the_ninth_sweeps_packages(self):
        # bench/unseen/sweep-2026-11-29c: names that broke a package, a GEMM whose A and C are
        # viewed as products of sizes, a size no shape shows, results of other runs, sm_100a.
        sweep = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench",
                             "unseen", "sweep-2026-11-29c", "inputs")
        for name, why in (("errno", "would shadow the module"), ("gc", "would shadow the module"),
                          ("linux", "C++ namespace"), ("main", "C++ namespace"),
                          ("cuInit", "C++ namespace"), ("Tensor", "C++ namespace"),
                          ("_mine", "C++ namespace")):
            r = subprocess.run([COMPILE, os.path.join(ASSETS, "gemm_128x128.mlir"), "--export",
                                os.path.join(WORK, "names", name)], capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0, name)
            self.assertIn(why, r.stderr, name)
        export("gemm_128x128.mlir", "cumsum")  # cu, not cuda.h's cuX
        # A [BT, M, K] A viewed as [BT * M, K]: the example's check takes M from the view.
        v06 = export(os.path.join(sweep, "v06_packed_rows_gemm.mlir"), "v06")
        self.assertIn("const int64_t M = (s.BT * s.M), K = s.K, N = s.N;", read(v06, "example.cpp"))
        # Tensors named like the launcher's locals or the package's globals are renamed.
        v11 = export(os.path.join(sweep, "v11_names_problem_maps_config.mlir"), "v11")
        self.assertIn("def run(problem_, maps_,", read(v11, "__init__.py"))
        v13 = export(os.path.join(sweep, "v13_names_runtime_os_pM.mlir"), "v13")
        self.assertIn("def run(t_runtime, t_os,", read(v13, "__init__.py"))
        for pkg, name in ((v11, "v11"), (v13, "v13")):
            r = subprocess.run([CXX, "-std=c++17", "-Wall", "-Wshadow", "-Werror", "-fsyntax-only",
                                "-I", pkg, "-I", CUDA_INCLUDE, os.path.join(pkg, "example.cpp")],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, name + ": " + r.stderr)
        # The ranges the kernel needs its inputs in (tile.init) are in the README.
        k14 = export(os.path.join(sweep, "k14_moe_grouped_gemm_i32_tables.mlir"), "k14")
        self.assertIn("**Input values:** `EXP` in [0, E), `ROW` in [0, T - 127)", read(k14, "README.md"))
        # ... and where the README's snippet and the example draw them (at the compiled sizes,
        # at any sizes): zeros and [-1, 1) made NaN and overflow (the fifteenth sweep's B2).
        readme = read(k14, "README.md")
        # What a kernel of no known kind computes: its IR's leading comment (the fifteenth
        # sweep's M3: only its name).
        self.assertIn("The kernel `moe`, as its IR's leading comment says: MoE grouped GEMM: "
                      "each program owns one 128-row block", readme)
        self.assertRegex(readme, r"EXP = torch\.randint\(0, 8, \(\d+,\), device=\"cuda\", dtype=torch\.int32\)")
        # Tables read by index: checked at the compiled sizes only, and the README says so
        # (it said any sizes work; the launchers took sizes that read past a table: B1).
        self.assertIn("**But** the kernel reads elements of `EXP`, `ROW` by index", readme)
        example = read(k14, "example.cpp")
        self.assertRegex(example, r"fillUniform\(t\[\d\], \d, double\(int64_t\(0\)\), double\(s\.E\)\);  // the IR's tile\.init")
        r = subprocess.run([CXX, "-std=c++17", "-Wall", "-Werror", "-fsyntax-only", "-I", k14, "-I",
                            CUDA_INCLUDE, os.path.join(k14, "example.cpp")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        # A size no input's shape shows is passed in the README's call.
        a09 = export(os.path.join(sweep, "a09_swa_size_W_causal_softcap_lo.mlir"), "a09")
        self.assertIn("a09.run(q, k, v, W=1024)", read(a09, "README.md"))
        # --measured of another kernel, or of other sizes: refused.
        for result, why in (("measured_other.json", 'the run is of kernel "attn_fwd_d128"'),
                            ("measured_other_sizes.json", "another grid")):
            r = subprocess.run([COMPILE, os.path.join(ASSETS, "gemm_128x128.mlir"), "-q", "--export",
                                os.path.join(WORK, "meas"), "--measured",
                                os.path.join(sweep, "bad", result)], capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0, result)
            self.assertIn(why, r.stderr)
        # An sm_100a bundle: the package's launchers are sm_90a's.
        r = subprocess.run([COMPILE, os.path.join(ASSETS, "gemm_128x128.mlir"), "-q", "--target",
                            "sm_100a", "--export", os.path.join(WORK, "sm100")],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("export writes sm_90a packages", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(WORK, "sm100")))

    def test_re_export_replaces_the_package(self):
        out = export("gemm.mlir", "gemm_again")
        # A file of the user's in the earlier export: refused, not deleted with it.
        write(os.path.join(out, "notes.txt"), "mine")
        r = subprocess.run([COMPILE, os.path.join(ASSETS, "gemm.mlir"), "--export", out, "-q"],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("holds files the exporter did not write (notes.txt)", r.stderr)
        self.assertEqual(read(out, "notes.txt"), "mine")
        os.remove(os.path.join(out, "notes.txt"))
        # What Python and the README's build leave there is replaced with it.
        os.makedirs(os.path.join(out, "__pycache__"))
        write(os.path.join(out, "example"), "built")
        export("gemm.mlir", "gemm_again", "--schedule",
               os.path.join(os.path.dirname(__file__), "..", "Inputs", "gemm-ahead1.json"))
        self.assertNotIn("example", os.listdir(out))
        self.assertIn("loadA(i+1)", read(out, "README.md"))
        leftovers = [f for f in os.listdir(WORK) if ".partial-" in f or ".old-" in f]
        self.assertEqual(leftovers, [])

    def test_tensor_names_the_header_spells_compile(self):
        # A tensor named like the header's locals or the CUDA and C types it spells (`e`,
        # `CUdeviceptr`, `int64_t`) exported, and the header did not compile (the fifteenth
        # sweep's B4): the header's locals take names no tensor gets, the types are renamed
        # (only they: `x` and `cu_seqlens` keep their names in Python).
        src = read(ASSETS, "gemm.mlir")
        for name in ("e", "CUdeviceptr", "int64_t", "std"):
            ir = os.path.join(WORK, f"names_{name}.mlir")
            write(ir, re.sub(r"%B\b", "%" + name, src))
            out = os.path.join(WORK, f"names_{name.lower()}")
            shutil.rmtree(out, ignore_errors=True)
            r = subprocess.run([COMPILE, ir, "--export", out, "-q"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            pkg = os.path.basename(out)
            r = subprocess.run([CXX, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                                "-x", "c++", "-I", CUDA_INCLUDE, os.path.join(out, pkg + ".h")],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, name + ": " + r.stderr)
        ir = os.path.join(WORK, "names_keep.mlir")
        write(ir, re.sub(r"%B\b", "%cu_seqlens", re.sub(r"%A\b", "%x", src)))
        out = os.path.join(WORK, "names_keep")
        shutil.rmtree(out, ignore_errors=True)
        r = subprocess.run([COMPILE, ir, "--export", out, "-q"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("def run(x, cu_seqlens,", read(out, "__init__.py"))

    def test_renamed_or_linked_export_is_exported_into(self):
        # The marker lists what the export wrote: a directory renamed since (its files under
        # the old package name) is still an earlier export; a link to one is exported into
        # where it points, and the link stays (the ninth sweep's M3).
        out = export("gemm.mlir", "gemm_before_rename")
        self.assertIn("from " + os.path.join(ASSETS, "gemm.mlir"), read(out, ".stagecraft-export"))
        renamed = os.path.join(WORK, "gemm_renamed")
        shutil.rmtree(renamed, ignore_errors=True)
        os.rename(out, renamed)
        export("gemm.mlir", "gemm_renamed")
        self.assertIn("gemm_renamed.h", os.listdir(renamed))
        self.assertNotIn("gemm_before_rename.h", os.listdir(renamed))
        link = os.path.join(WORK, "gemm_link")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(renamed, link)
        export("gemm.mlir", "gemm_link")
        self.assertTrue(os.path.islink(link))
        self.assertIn("gemm_link.h", os.listdir(renamed))

    def test_cpp_check_refuses_an_output_aliasing_an_input(self):
        # C written over A: the stores would race with the loads (run() refuses it too).
        src = os.path.join(WORK, "alias_check.cpp")
        with open(src, "w") as f:
            f.write('#include "gemm.h"\n#include <cstdio>\nint main() {\n'
                    '  gemm::Sizes s{8192, 8192, 8192};\n'
                    '  std::string same = gemm::check(CUdeviceptr(1 << 20), CUdeviceptr(1 << 30), '
                    'CUdeviceptr(1 << 20), s);\n'
                    '  std::string apart = gemm::check(CUdeviceptr(1 << 20), CUdeviceptr(1ull << 32), '
                    'CUdeviceptr(1ull << 34), s);\n'
                    '  std::printf("%s|%s\\n", same.c_str(), apart.c_str());\n}\n')
        exe = os.path.join(WORK, "alias_check")
        r = subprocess.run([CXX, "-std=c++17", "-I", GEMM, "-I", CUDA_INCLUDE, src, "-o", exe],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = subprocess.run([exe], capture_output=True, text=True).stdout
        self.assertEqual(out.strip(), "A and C are the same memory; an output must not alias another tensor|")

    def test_header_compiles_alone(self):
        # With the C++ compiler, and with clang++ where there is one: g++ let an alignas weaker
        # than CUtensorMap's own 128 bytes pass, clang++ refused every header (the ninth sweep).
        compilers = [CXX] + [c for c in ("clang++",) if shutil.which(c) and c != CXX]
        fp8 = export("fp8_gemm.mlir", "fp8_header")  # constant shapes (its scales' (1))
        for pkg, name in ((ATTN, "attn"), (GEMM, "gemm"), (fp8, "fp8_header")):
            src = os.path.join(WORK, f"inc_{name}.cpp")
            with open(src, "w") as f:
                f.write(f'#include "{name}.h"\n#include "{name}_cubin.h"\nint main() {{ return 0; }}\n')
            for cxx in compilers:
                r = subprocess.run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                                    "-I", pkg, "-I", CUDA_INCLUDE, src], capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, cxx + ": " + r.stderr)


# --- Python argument checks (fake tensors, no CUDA) --------------------------

class PythonChecks(unittest.TestCase):
    def setUp(self):
        self.attn = load("attn")
        self.gemm = load("gemm")

    def test_outputs_that_overlap_are_refused(self):
        # out= tensors the kernel's stores would race through: one whose rows overlap (a
        # stride below the row's length), one passed as an input too (the fifteenth sweep's M1).
        q, k, v = qkv()
        with self.assertRaisesRegex(ValueError, r"out O overlaps itself"):
            self.attn.plan(q, k, v, out=FakeTensor((4, 16, 8192, 128), strides=(16 * 8192 * 128, 8192 * 128, 64, 1),
                                                    ptr=0x7f1000000000))
        with self.assertRaisesRegex(ValueError, r"Q and out O are the same memory"):
            self.attn.plan(q, k, v, out=FakeTensor((4, 16, 8192, 128), ptr=q.data_ptr()))

    def test_attention_plan_at_the_compiled_sizes_is_the_manifest(self):
        q, k, v = qkv()
        p = self.attn.plan(q, k, v)
        self.assertEqual(p.sizes, {"B": 4, "H": 16, "S": 8192})
        man = manifest(ATTN)
        self.assertEqual(list(p.grid), man["grid"])
        for i in range(3):
            shape, strides, ptr = p.views[i]
            self.assertEqual(list(shape), man["params"][i]["global_shape"])
            self.assertEqual(list(strides), man["params"][i]["global_strides_bytes"])
        self.assertEqual(p.outputs, [(3, (4, 16, 8192, 128))])

    def test_merged_view_form_needs_the_split_sizes(self):
        q, k, v = (FakeTensor((64, 8192, 128), ptr=0x7f0000000000) for _ in range(3))
        with self.assertRaisesRegex(ValueError, r"cannot tell size\(s\) B, H .*B=\.\.\."):
            self.attn.plan(q, k, v)
        p = self.attn.plan(q, k, v, B=4, H=16)
        self.assertEqual(p.grid, (64, 64, 1))
        with self.assertRaisesRegex(ValueError, r"Q has shape \(64, 8192, 128\); Q must be "
                                                r"\(B \* H, S, 128\) = \(32, 8192, 128\)"):
            self.attn.plan(q, k, v, B=2, H=16)

    def test_wrong_dtype_names_the_argument(self):
        q, k, v = qkv()
        k.dtype = F16
        with self.assertRaisesRegex(TypeError, r"K has dtype torch.float16; the kernel reads K "
                                               r"as torch.bfloat16"):
            self.attn.plan(q, k, v)

    def test_cpu_tensor_and_non_tensor(self):
        q, k, v = qkv()
        v.device = FakeDevice("cpu")
        with self.assertRaisesRegex(ValueError, r"V is on the cpu device.*\.cuda\(\)"):
            self.attn.plan(q, k, v)
        with self.assertRaisesRegex(TypeError, r"Q must be a CUDA tensor, got list"):
            self.attn.plan([1, 2], k, v)

    def test_mixed_devices(self):
        q, k, v = qkv()
        v.device = FakeDevice("cuda", 1)
        with self.assertRaisesRegex(ValueError, r"V is on cuda:1 but Q is on cuda:0"):
            self.attn.plan(q, k, v)

    def test_sizes_must_agree(self):
        q, k, v = qkv()
        k2 = FakeTensor((4, 16, 4096, 128))
        with self.assertRaisesRegex(ValueError, r"size S is 8192 from Q.shape\[2\] but 4096 from "
                                                r"K.shape\[2\]"):
            self.attn.plan(q, k2, v)
        with self.assertRaisesRegex(ValueError, r"size S is 1000 from S= but 8192 from Q.shape\[2\]"):
            self.attn.plan(q, k, v, S=1000)
        with self.assertRaisesRegex(TypeError, r"unknown size D=; its sizes are B, H, S"):
            self.attn.plan(q, k, v, D=128)

    def test_wrong_rank_and_head_dim(self):
        q, k, v = qkv()
        with self.assertRaisesRegex(ValueError, r"Q has 2 dimensions \(8192, 128\); Q is "
                                                r"\(B, H, S, 128\) or \(B \* H, S, 128\)"):
            self.attn.plan(FakeTensor((8192, 128)), k, v)
        with self.assertRaisesRegex(ValueError, r"V has shape \(4, 16, 8192, 64\)"):
            self.attn.plan(q, k, FakeTensor((4, 16, 8192, 64)))

    def test_misaligned_and_non_contiguous(self):
        q, k, v = qkv()
        q._ptr += 2
        with self.assertRaisesRegex(ValueError, r"Q: the data pointer 0x[0-9a-f]+ is not 16-byte "
                                                r"aligned"):
            self.attn.plan(q, k, v)
        q, k, v = qkv()
        # A [B, S, H, D] buffer seen as [B, H, S, D] (q.transpose(1, 2)): B and H do not merge.
        k = FakeTensor((4, 16, 8192, 128), strides=(8192 * 16 * 128, 128, 16 * 128, 1))
        with self.assertRaisesRegex(ValueError, r"K: dimensions 0..1 \(B, H\) must be contiguous"):
            self.attn.plan(q, k, v)
        v = FakeTensor((4, 16, 8192, 128), strides=(16 * 8192 * 256, 8192 * 256, 256, 2))
        with self.assertRaisesRegex(ValueError, r"V: the innermost dimension must be dense"):
            self.attn.plan(q, qkv()[1], v)

    def test_strided_views_that_tma_can_read_are_accepted(self):
        # Every other head of a [4, 32, S, D] buffer, and rows padded to 136 elements.
        q = FakeTensor((4, 16, 1000, 128), strides=(32 * 1000 * 136, 1000 * 136, 136, 1))
        k, v = (FakeTensor((4, 16, 1000, 128)) for _ in range(2))
        with self.assertRaisesRegex(ValueError, r"dimensions 0..1 \(B, H\) must be contiguous"):
            self.attn.plan(q, k, v)
        q = FakeTensor((64, 1000, 128), strides=(1000 * 136, 136, 1))
        p = self.attn.plan(q, k, v, B=4, H=16)
        self.assertEqual(p.views[0][1], (1000 * 136 * 2, 272, 2))
        self.assertEqual(p.grid, (8, 64, 1))

    def test_gemm_shapes_strides_and_output(self):
        a = FakeTensor((8000, 4000))
        b = FakeTensor((8064, 4000), ptr=0x7f0100000000)
        p = self.gemm.plan(a, b)
        self.assertEqual(p.sizes, {"M": 8000, "N": 8064, "K": 4000})
        self.assertEqual(p.grid, (63, 32, 1))
        self.assertEqual(p.outputs, [(2, (8000, 8064))])
        with self.assertRaisesRegex(ValueError, r"A: the stride of dimension 0 is 4001 elements = "
                                                r"8002 bytes; TMA needs a multiple of 16 bytes"):
            self.gemm.plan(FakeTensor((8000, 4001)), FakeTensor((8064, 4001)))
        with self.assertRaisesRegex(ValueError, r"size K is 4000 from A.shape\[1\] but 4096 from "
                                                r"B.shape\[1\]"):
            self.gemm.plan(a, FakeTensor((8064, 4096)))
        with self.assertRaisesRegex(ValueError, r"size M = 0 from A.shape\[0\]; sizes must be at "
                                                r"least 1"):
            self.gemm.plan(FakeTensor((0, 4000)), b)
        with self.assertRaisesRegex(TypeError, r"run\(\) takes 2 positional arguments"):
            self.gemm.run(a, b, a)
        spec = sys.modules["gemm"]._SPEC
        with self.assertRaisesRegex(TypeError, r"gemm.run\(\) takes 2 tensors \(A, B\), got 3"):
            sys.modules["gemm._runtime"].plan(spec, (a, b, a))
        with self.assertRaisesRegex(ValueError, r"size N is 8064 from B.shape\[0\] but 8000 from "
                                                r"out C.shape\[1\]"):
            self.gemm.plan(a, b, out=FakeTensor((8000, 8000)))
        with self.assertRaisesRegex(ValueError, r"out C has 3 dimensions \(8000, 8064, 1\); C is "
                                                r"\(M, N\)"):
            self.gemm.plan(a, b, out=FakeTensor((8000, 8064, 1)))

    def test_a_size_a_load_coordinate_follows_must_keep_it_aligned(self):
        # The loop starts at K0: its loads' K coordinates are K0 + 64 i, aligned (16 bytes, 8
        # bf16) only where K0 is; the compiler checked K0 = 1024, the export checks others.
        out = os.path.join(WORK, "partial_k")
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs", "unseen",
                              "partial-k-start.mlir")
        r = subprocess.run([COMPILE, source, "--export", out, "-q"], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        pk = load("partial_k")
        a = FakeTensor((4096, 4096))
        b = FakeTensor((4096, 4096), ptr=0x7f0100000000)
        self.assertEqual(pk.plan(a, b, K0=1032).sizes["K0"], 1032)
        with self.assertRaisesRegex(ValueError, r"size K0 = 1020 must be a multiple of 8: a "
                                                r"load's innermost coordinate follows it"):
            pk.plan(a, b, K0=1020)
        self.assertIn('if (s.K0 % 8 != 0) return "size K0 = " + std::to_string(s.K0) + " must '
                      'be a multiple of 8', read(out, "partial_k.h"))
        # A size no coordinate follows is free (the GEMM's K = 4000 above).
        self.assertNotIn("must be a multiple of", read(GEMM, "gemm.h"))

    def test_a_cluster_needs_whole_clusters_of_ctas(self):
        # Clusters of 2 along the grid's M tiles: 63 tiles (M = 8000) do not make whole
        # clusters, which the driver would refuse at launch; 64 (M = 8192) do.
        out = export("gemm.mlir", "gemm_c2", "--cluster=2")
        pk = load("gemm_c2")
        b = FakeTensor((4096, 4096), ptr=0x7f0100000000)
        self.assertEqual(pk.plan(FakeTensor((8192, 4096)), b).grid, (64, 16, 1))
        with self.assertRaisesRegex(ValueError, r"grid dimension 0 \(M ceildiv 128 = 63\) is not a "
                                                r"multiple of the cluster's 2 at these sizes"):
            pk.plan(FakeTensor((8000, 4096)), b)
        self.assertIn("not a multiple of the cluster's", read(out, "gemm_c2.h"))

    def test_checks_come_before_the_driver(self):
        # A bad argument fails the same with no CUDA at all (run() checks first).
        q, k, v = qkv()
        k.dtype = F16
        with self.assertRaises(TypeError):
            self.attn.run(q, k, v, out=FakeTensor((4, 16, 8192, 128)), stream=0)
        self.assertIsNone(sys.modules["attn._runtime"]._driver)


# --- Against the mock driver -------------------------------------------------

MOCK_SCRIPT = textwrap.dedent("""
    import sys, json
    sys.path.insert(0, {work!r})
    sys.path.insert(0, {here!r})
    from test_export import FakeTensor, FakeDevice, FakeDtype
    import {package} as pkg
    args = json.loads(sys.argv[1])
    def fake(t):
        return FakeTensor(tuple(t["shape"]), ptr=t["ptr"],
                          dtype=FakeDtype(t.get("dtype", "torch.bfloat16")))
    tensors = [fake(t) for t in args["inputs"]]
    out = [fake(t) for t in args["outputs"]]
    out2 = [fake(t) for t in args.get("outputs2", args["outputs"])]
    try:
        pkg.run(*tensors, out=out, stream=args["stream"], **args["sizes"])
        pkg.run(*tensors, out=out2, stream=args["stream"], **args["sizes"])
        print("launched")
    except Exception as e:
        print(type(e).__name__ + ": " + str(e))
""")


def run_with_mock(extra_env, cmd):
    log = tempfile.mktemp(prefix="mock-cuda-", suffix=".log", dir=WORK)
    env = dict(os.environ, LD_LIBRARY_PATH=MOCK_DIR, MOCK_CUDA_LOG=log)
    env.update(extra_env or {})
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    calls = []
    if os.path.exists(log):
        with open(log) as f:
            calls = [json.loads(line) for line in f if line.strip()]
    return r, calls


def param_sizes(man):
    sizes = []
    for p in man["params"]:
        if p["kind"] == "tensormap":
            sizes.append("128")
        elif p["kind"] == "pointer" or p.get("dtype") == "i64":
            sizes.append("8")
        else:
            sizes.append("4")
    return ",".join(sizes)


SWIZZLE = {"none": 0, "32B": 1, "64B": 2, "128B": 3}
L2 = {"none": 0, "64B": 1, "128B": 2, "256B": 3}
DTYPE = {"bf16": 9, "f16": 6, "f32": 7, "e4m3": 0, "e5m2": 0, "e8m0": 0}


_fp8 = []


def fp8_package():
    """The FP8 GEMM asset exported (once, for the tests that need it)."""
    if not _fp8:
        _fp8.append(export("fp8_gemm.mlir", "fp8gemm"))
    return _fp8[0]


class MockDriver(unittest.TestCase):
    def python_launch(self, package, inputs, outputs, sizes=None, env=None, outputs2=None):
        """Two calls of pkg.run: the same arguments, or (outputs2) other outputs the second
        time."""
        script = os.path.join(WORK, f"mock_{package}.py")
        with open(script, "w") as f:
            f.write(MOCK_SCRIPT.format(work=WORK, here=os.path.dirname(os.path.abspath(__file__)),
                                       package=package))
        args = {"inputs": inputs, "outputs": outputs, "sizes": sizes or {}, "stream": 4096}
        if outputs2 is not None:
            args["outputs2"] = outputs2
        man = manifest(os.path.join(WORK, package))
        e = {"MOCK_CUDA_PARAMS": param_sizes(man)}
        e.update(env or {})
        return run_with_mock(e, cmd=[sys.executable, script, json.dumps(args)])

    def check_encodes(self, calls, man, views, ptrs, launches=2, plans=1):
        """The launches' tensor maps are the manifest's views of `ptrs`; `plans` distinct
        calls were encoded (a call repeating another's arguments reuses its maps)."""
        encodes = [c for c in calls if c["call"] == "cuTensorMapEncodeTiled"]
        launched = [c for c in calls if c["call"] == "cuLaunchKernel"]
        self.assertEqual(len(launched), launches)
        maps = [p for p in man["params"] if p["kind"] == "tensormap"]
        self.assertEqual(len(encodes), len(maps) * plans)
        by_id = {c["id"]: c for c in encodes}
        for launch in launched:
            self.assertEqual(launch["block"], man["block"])
            self.assertEqual(launch["smem"], man["dynamic_smem_bytes"])
            self.assertEqual(launch["stream"], 4096)
            for i, (p, got) in enumerate(zip(man["params"], launch["params"])):
                if p["kind"] != "tensormap":
                    continue
                enc = by_id[got["map"]]
                shape, strides = views[i]
                self.assertEqual(enc["dims"], list(reversed(shape)), p["tensor"])
                self.assertEqual(enc["strides"], list(reversed(strides[:-1])), p["tensor"])
                self.assertEqual(enc["box"], list(reversed(p["box"])), p["tensor"])
                self.assertEqual(enc["estr"], [1] * len(p["box"]))
                self.assertEqual(enc["dtype"], DTYPE[p["dtype"]])
                self.assertEqual(enc["swizzle"], SWIZZLE[p["swizzle"]], p["tensor"])
                self.assertEqual(enc["l2"], L2[p["l2_promotion"]])
                self.assertEqual(enc["oob"], 0 if p["oob_fill"] == "zero" else 1)
                self.assertEqual(enc["interleave"], 0)
                self.assertEqual(enc["addr"], ptrs[i])
        return launched

    def test_gemm_at_the_compiled_sizes_launches_what_the_manifest_says(self):
        man = manifest(GEMM)
        base = 0x7f0000000000
        ptrs = [base, base + 2**28, base + 2**29]
        r, calls = self.python_launch("gemm", [{"shape": [8192, 8192], "ptr": ptrs[0]},
                                               {"shape": [8192, 8192], "ptr": ptrs[1]}],
                                      [{"shape": [8192, 8192], "ptr": ptrs[2]}])
        self.assertEqual(r.stdout.strip(), "launched", r.stdout + r.stderr)
        self.assertEqual(calls[0]["call"], "cuModuleLoadData")
        self.assertEqual(calls[1], {"call": "cuModuleGetFunction", "name": "gemm"})
        self.assertEqual(calls[2], {"call": "cuFuncSetAttribute", "attr": 8,
                                    "value": man["dynamic_smem_bytes"]})
        # The module is loaded once for two launches.
        self.assertEqual(sum(c["call"] == "cuModuleLoadData" for c in calls), 1)
        views = [(p["global_shape"], p["global_strides_bytes"]) for p in man["params"][:3]]
        launched = self.check_encodes(calls, man, views, ptrs)
        for launch in launched:
            self.assertEqual(launch["grid"], man["grid"])
            self.assertEqual([p["i32"] for p in launch["params"][3:]],
                             [p["value"] for p in man["params"][3:]])

    def test_a_repeated_call_reuses_its_plan(self):
        # The same arguments again: no checks, no encodings (0.26 ms a call down to 0.02 in
        # Python). Another output address: planned and encoded anew, that address in its map.
        man = manifest(GEMM)
        base = 0x7f0000000000
        ptrs = [base, base + 2**28, base + 2**29]
        ins = [{"shape": [8192, 8192], "ptr": ptrs[0]}, {"shape": [8192, 8192], "ptr": ptrs[1]}]
        r, calls = self.python_launch("gemm", ins, [{"shape": [8192, 8192], "ptr": ptrs[2]}],
                                      outputs2=[{"shape": [8192, 8192], "ptr": ptrs[2] + 2**28}])
        self.assertEqual(r.stdout.strip(), "launched", r.stdout + r.stderr)
        encodes = [c for c in calls if c["call"] == "cuTensorMapEncodeTiled"]
        self.assertEqual(len(encodes), 6)
        self.assertEqual([e["addr"] for e in encodes[3:]], [ptrs[0], ptrs[1], ptrs[2] + 2**28])

    def test_attention_at_other_sizes(self):
        man = manifest(ATTN)
        B, H, S = 2, 3, 1000
        base = 0x7f0000000000
        ptrs = [base + i * 2**30 for i in range(4)]
        shape = [B, H, S, 128]
        r, calls = self.python_launch("attn", [{"shape": shape, "ptr": p} for p in ptrs[:3]],
                                      [{"shape": shape, "ptr": ptrs[3]}])
        self.assertEqual(r.stdout.strip(), "launched", r.stdout + r.stderr)
        view = ([B * H, S, 128], [S * 128 * 2, 256, 2])
        launched = self.check_encodes(calls, man, [view] * 4, ptrs)
        for launch in launched:
            self.assertEqual(launch["grid"], [8, 6, 1])
            self.assertEqual([p["i32"] for p in launch["params"][4:]], [B, H, S])

    def test_fp8_operands_move_as_bytes(self):
        # e4m3 A and B: UINT8 tensor maps over their bytes, torch.float8_e4m3fn arguments.
        pkg_dir = fp8_package()
        man = manifest(pkg_dir)
        base = 0x7f0000000000
        ptrs = [base, base + 2**27, base + 2**28, base + 2**28 + 4096, base + 2**29]
        e4m3, f32 = "torch.float8_e4m3fn", "torch.float32"
        r, calls = self.python_launch(
            "fp8gemm", [{"shape": [8192, 8192], "ptr": ptrs[0], "dtype": e4m3},
                        {"shape": [8192, 8192], "ptr": ptrs[1], "dtype": e4m3},
                        {"shape": [1], "ptr": ptrs[2], "dtype": f32},
                        {"shape": [1], "ptr": ptrs[3], "dtype": f32}],
            [{"shape": [8192, 8192], "ptr": ptrs[4]}])
        self.assertEqual(r.stdout.strip(), "launched", r.stdout + r.stderr)
        maps = [p for p in man["params"] if p["kind"] == "tensormap"]
        self.assertEqual([p["dtype"] for p in maps], ["e4m3", "e4m3", "f32", "f32", "bf16"])
        views = [(p["global_shape"], p["global_strides_bytes"]) for p in maps]
        self.assertEqual(views[0], ([8192, 8192], [8192, 1]))
        self.check_encodes(calls, man, views, ptrs)
        # A bf16 tensor where the kernel reads e4m3 bytes: refused, naming both.
        r, _ = self.python_launch(
            "fp8gemm", [{"shape": [8192, 8192], "ptr": ptrs[0]},
                        {"shape": [8192, 8192], "ptr": ptrs[1], "dtype": e4m3},
                        {"shape": [1], "ptr": ptrs[2], "dtype": f32},
                        {"shape": [1], "ptr": ptrs[3], "dtype": f32}],
            [{"shape": [8192, 8192], "ptr": ptrs[4]}])
        self.assertIn("has dtype torch.bfloat16; the kernel reads A as torch.float8_e4m3fn",
                      r.stdout)

    def test_not_an_sm90_gpu(self):
        shape = [8192, 8192]
        r, calls = self.python_launch("gemm", [{"shape": shape, "ptr": 0x7f0000000000}] * 2,
                                      [{"shape": shape, "ptr": 0x7f1000000000}],
                                      env={"MOCK_CUDA_CC": "8.6"})
        self.assertIn("UnsupportedDevice: gemm: cuda:0 (Mock GPU) is sm_86; this kernel is "
                      "sm_90a machine code", r.stdout)
        self.assertFalse([c for c in calls if c["call"].startswith("cuLaunch")])


# --- The C++ header against the mock -----------------------------------------

HARNESS = textwrap.dedent("""
    #include "{pkg}.h"
    #include "{pkg}_cubin.h"
    #include <cstdio>
    #include <cstdlib>
    #include <cstring>
    #include <string>
    #include <vector>

    int main(int argc, char **argv) {{
      std::string mode = argv[1];
      cuInit(0);
      CUdevice dev;
      cuDeviceGet(&dev, 0);
      CUcontext ctx;
      cuDevicePrimaryCtxRetain(&ctx, dev);
      cuCtxSetCurrent(ctx);
      {pkg}::Sizes s;
      {sizes}
      std::vector<CUdeviceptr> p;
      std::vector<std::vector<int64_t>> shapes = {{{shapes}}};
      std::vector<int64_t> bytes = {{{bytes}}};
      for (size_t i = 0; i < shapes.size(); ++i) {{
        int64_t n = {pkg}::shape::elements(shapes[i]) * bytes[i];
        if (mode == "small" && i + 1 == shapes.size()) n -= 16;
        CUdeviceptr d;
        cuMemAlloc(&d, size_t(n));
        p.push_back(d);
      }}
      static char host[4096] __attribute__((aligned(64)));
      if (mode == "misaligned") p[0] += 2;
      if (mode == "host") p[1] = CUdeviceptr(reinterpret_cast<uintptr_t>(host));
      try {{
        {pkg}::Kernel k({pkg}_cubin);
        k.launch({args}, s, reinterpret_cast<CUstream>(uintptr_t(4096)));
        std::printf("launched");
        for (CUdeviceptr x : p) std::printf(" %llu", (unsigned long long)x);
        std::printf("\\n");
      }} catch (const {pkg}::Error &e) {{
        std::printf("Error: %s\\n", e.what());
      }}
      return 0;
    }}
""")


class CppHeader(unittest.TestCase):
    def build(self, pkg_dir, package, sizes, shapes, bytes_):
        src = os.path.join(WORK, f"harness_{package}.cpp")
        n = len(shapes)
        size_code = " ".join(f"s.{k} = {v};" for k, v in sizes.items())
        with open(src, "w") as f:
            f.write(HARNESS.format(
                pkg=package, sizes=size_code,
                shapes=", ".join("{" + ", ".join(str(x) for x in sh) + "}" for sh in shapes),
                bytes=", ".join(str(b) for b in bytes_),
                args=", ".join(f"p[{i}]" for i in range(n))))
        exe = os.path.join(WORK, f"harness_{package}")
        r = subprocess.run([CXX, "-std=c++17", "-O1", "-I", pkg_dir, "-I", CUDA_INCLUDE, src,
                            "-o", exe, "-L", MOCK_DIR, "-l:libcuda.so.1"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return exe

    def run_harness(self, exe, man, mode):
        return run_with_mock({"MOCK_CUDA_PARAMS": param_sizes(man)}, cmd=[exe, mode])

    def test_attention_launch_and_bad_pointers(self):
        man = manifest(ATTN)
        B, H, S = 1, 2, 300
        shape = [B, H, S, 128]
        exe = self.build(ATTN, "attn", {"B": B, "H": H, "S": S}, [shape] * 4, [2] * 4)
        r, calls = self.run_harness(exe, man, "ok")
        self.assertTrue(r.stdout.startswith("launched"), r.stdout + r.stderr)
        ptrs = [int(x) for x in r.stdout.split()[1:]]
        launched = MockDriver.check_encodes(self, [dict(c, call="cuLaunchKernel")
                                                   if c["call"] == "cuLaunchKernelEx" else c
                                                   for c in calls], man,
                                            [([B * H, S, 128], [S * 256, 256, 2])] * 4, ptrs,
                                            launches=1)
        self.assertEqual(launched[0]["grid"], [3, 2, 1])
        self.assertEqual([p["i32"] for p in launched[0]["params"][4:]], [B, H, S])

        r, calls = self.run_harness(exe, man, "misaligned")
        self.assertIn("Error: attn: Q: the pointer is not 16-byte aligned", r.stdout)
        r, calls = self.run_harness(exe, man, "host")
        self.assertIn("Error: K: not CUDA device memory", r.stdout)
        r, calls = self.run_harness(exe, man, "small")
        self.assertIn(f"Error: O: needs {B * H * S * 256} bytes from the pointer, its allocation "
                      f"has {B * H * S * 256 - 16}", r.stdout)
        self.assertFalse([c for c in calls if c["call"].startswith("cuLaunch")])

    def test_gemm_strides_and_sizes(self):
        man = manifest(GEMM)
        exe = self.build(GEMM, "gemm", {"M": 256, "N": 256, "K": 4001},
                         [[256, 4001], [256, 4001], [256, 256]], [2, 2, 2])
        r, calls = self.run_harness(exe, man, "ok")
        self.assertIn("Error: gemm: A: the stride of dimension 0 is 8002 bytes; TMA needs a "
                      "multiple of 16 bytes below 2^40 (make the inner dimensions a multiple of 8 "
                      "elements)", r.stdout)
        exe = self.build(GEMM, "gemm", {"M": 300, "N": 520, "K": 72},
                         [[300, 72], [520, 72], [300, 520]], [2, 2, 2])
        r, calls = self.run_harness(exe, man, "ok")
        self.assertTrue(r.stdout.startswith("launched"), r.stdout + r.stderr)
        ptrs = [int(x) for x in r.stdout.split()[1:]]
        views = [([300, 72], [144, 2]), ([520, 72], [144, 2]), ([300, 520], [1040, 2])]
        launched = MockDriver.check_encodes(
            self, [dict(c, call="cuLaunchKernel") if c["call"] == "cuLaunchKernelEx" else c
                   for c in calls], man, views, ptrs, launches=1)
        self.assertEqual(launched[0]["grid"], [3, 3, 1])
        exe = self.build(GEMM, "gemm", {"M": 0, "N": 520, "K": 72},
                         [[1, 72], [520, 72], [1, 520]], [2, 2, 2])
        r, _ = self.run_harness(exe, man, "ok")
        self.assertIn("Error: gemm: size M = 0 is outside 1..2^31-1", r.stdout)


class CppExample(unittest.TestCase):
    def build_example(self, pkg_dir):
        # The README's command, plus where to find a libcuda to link against.
        stubs = os.path.join(os.path.dirname(os.path.dirname(NVCC)), "lib64", "stubs")
        r = subprocess.run([NVCC, "-std=c++17", "-O2", "-o", "example", "example.cpp", "-lcuda",
                            "-L" + stubs], cwd=pkg_dir, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return os.path.join(pkg_dir, "example")

    def test_example_builds_and_reports_an_unwritten_output(self):
        # The mock's kernels do nothing: the output stays NaN and the CPU check says so.
        exe = self.build_example(GEMM)
        man = manifest(GEMM)
        r, calls = run_with_mock({"MOCK_CUDA_PARAMS": param_sizes(man)},
                                 cmd=[exe, "M=256", "N=256", "K=128"])
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("CPU check of C = A B^T: 256 sampled values", r.stdout)
        self.assertIn("256 not finite: WRONG", r.stdout)
        self.assertEqual(sum(c["call"] == "cuLaunchKernelEx" for c in calls), 21)
        r, _ = run_with_mock({}, cmd=[exe, "K=4001"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("example: A: the stride of dimension 0 is 8002 bytes", r.stderr)
        r, _ = run_with_mock({}, cmd=[exe, "Q=3"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown size Q (sizes: M N K)", r.stderr)
        # "M=" is no size (it was taken as 0: the ninth sweep's M8).
        r, _ = run_with_mock({}, cmd=[exe, "M="])
        self.assertEqual(r.returncode, 2)
        self.assertIn("example: expected NAME=VALUE, got M=", r.stderr)

    def test_fp8_example(self):
        # FP8 inputs drawn and encoded on the host (round to nearest even, saturating), the
        # output checked on the CPU against sa sb A B^T of the decoded bytes: the mock's
        # kernels do nothing, so the output stays NaN and the check says so.
        exe = self.build_example(fp8_package())
        man = manifest(fp8_package())
        r, calls = run_with_mock({"MOCK_CUDA_PARAMS": param_sizes(man)},
                                 cmd=[exe, "M=256", "N=256", "K=256"])
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("CPU check of C = sa sb A B^T (FP8 A and B): 256 sampled values", r.stdout)
        self.assertIn("256 not finite: WRONG", r.stdout)
        encodes = [c for c in calls if c["call"] == "cuTensorMapEncodeTiled"]
        self.assertEqual(encodes[0]["dtype"], 0)

    def test_attention_example(self):
        exe = self.build_example(ATTN)
        man = manifest(ATTN)
        r, _ = run_with_mock({"MOCK_CUDA_PARAMS": param_sizes(man)},
                             cmd=[exe, "B=1", "H=2", "S=256"])
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("CPU check of O = softmax(0.0883883 Q K^T) V", r.stdout)
        self.assertIn("WRONG", r.stdout)


if __name__ == "__main__":
    unittest.main()
