"""Tests of the peer harness (bench/peers) without a GPU or torch.

- the pure parts (peer_timing.py): the rotation count against the runner's cases, the FLOP
  counts, the median, problem specs, SDPA's refusal reasons, the tables;
- kernel samples from a profiler trace given as data, shaped like torch.profiler's Chrome
  trace on an H100 (torch 2.11: kernels linked by `correlation` to cuda_runtime or
  cuda_driver launches, memsets in the windows, one window per repetition);
- the harness's orchestration (best configuration, unavailable, wrong output, errors, the
  old methods) on a fake torch and a fake measure module;
- the command line: --plan, bad problems, no torch;
- with STAGECRAFT_COMPILE: the FLOPs and the input-set bytes of real bundles' manifests
  equal the harness's for the same problem (so a peer's TFLOP/s and a bundle's divide the
  same count, and rotate over the same number of sets).
"""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import types
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PEERS = os.path.join(ROOT, "bench", "peers")
sys.path.insert(0, PEERS)

import peer_timing as pt  # noqa: E402

MiB = 1 << 20
L2_H100 = 50 * MiB


class InputSets(unittest.TestCase):
    def test_the_runners_cases(self):
        # test/profiler/flops_test.cpp, InputSets
        lots = 80 << 30
        self.assertEqual(pt.input_sets_for(64 * MiB, L2_H100, lots), 3)
        self.assertEqual(pt.input_sets_for(256 * MiB, L2_H100, lots), 2)
        self.assertEqual(pt.input_sets_for(128, L2_H100, lots), pt.MAX_INPUT_SETS)
        self.assertEqual(pt.input_sets_for(256 * MiB, L2_H100, 300 * MiB), 1)
        self.assertEqual(pt.input_sets_for(0, L2_H100, lots), 1)

    def test_the_default_problems(self):
        lots = 80 << 30
        # Q, K, V of B4 H16 S8192 D128: 3 x 128 MiB, far beyond 3x L2: the minimum of 2.
        p = pt.parse_attention("4,16,8192,128,causal")
        self.assertEqual(pt.attention_set_bytes(p), 384 * MiB)
        self.assertEqual(pt.input_sets_for(pt.attention_set_bytes(p), L2_H100, lots), 2)
        # 4096^3 GEMM: A and B 32 MiB each; 3 sets make 192 MiB >= 150 MiB.
        g = pt.parse_gemm("4096,4096,4096")
        self.assertEqual(pt.gemm_set_bytes(g), 64 * MiB)
        self.assertEqual(pt.input_sets_for(pt.gemm_set_bytes(g), L2_H100, lots), 3)
        # A smaller attention: 3 x 4 MiB per set -> ceil(150 / 12) = 13 sets.
        small = pt.parse_attention("1,8,4096,64")
        self.assertEqual(pt.attention_set_bytes(small), 12 * MiB)
        self.assertEqual(pt.input_sets_for(pt.attention_set_bytes(small), L2_H100, lots), 13)
        # Tiny: 1.5 MiB per set would want 100 sets; capped at 64.
        tiny = pt.parse_attention("1,4,1024,64")
        self.assertEqual(pt.input_sets_for(pt.attention_set_bytes(tiny), L2_H100, lots), 64)

    def test_at_least_three_l2_when_affordable(self):
        for set_bytes in (1, 1000, MiB, 7 * MiB, 49 * MiB, 51 * MiB, 150 * MiB, 151 * MiB, 1 << 30):
            n = pt.input_sets_for(set_bytes, L2_H100, 80 << 30)
            self.assertGreaterEqual(n, 2)
            self.assertLessEqual(n, pt.MAX_INPUT_SETS)
            if n < pt.MAX_INPUT_SETS:
                self.assertGreaterEqual(n * set_bytes, 3 * L2_H100, set_bytes)
                if n > 2:
                    self.assertLess((n - 1) * set_bytes, 3 * L2_H100, set_bytes)


class Flops(unittest.TestCase):
    def test_attention(self):
        self.assertEqual(pt.attention_flops(4, 16, 8192, 128, False), 4 * 4 * 16 * 8192 * 8192 * 128)
        self.assertEqual(pt.attention_flops(4, 16, 8192, 128, True), 2 * 4 * 16 * 8192 * 8192 * 128)
        # The runner's pair count: S(S+1)/2 pairs under the causal mask.
        self.assertEqual(pt.attention_pair_flops(1, 1, 4, 2, True), 4 * 10 * 2)
        self.assertEqual(pt.attention_pair_flops(1, 1, 4, 2, False), 4 * 16 * 2)
        ratio = pt.attention_pair_flops(4, 16, 8192, 128, True) / pt.attention_flops(4, 16, 8192, 128, True)
        self.assertAlmostEqual(ratio, 8193 / 8192, places=12)

    def test_gemm_and_tflops(self):
        self.assertEqual(pt.gemm_flops(8000, 8064, 4000), 2 * 8000 * 8064 * 4000)
        self.assertAlmostEqual(pt.tflops(2e12, 2e6), 1.0)
        self.assertAlmostEqual(pt.tflops(pt.attention_flops(4, 16, 8192, 128, False), 3168.6), 694.0, delta=0.1)
        self.assertIsNone(pt.tflops(1e12, 0))
        self.assertIsNone(pt.tflops(1e12, None))

    def test_median_like_the_runner(self):
        self.assertEqual(pt.median([3, 1, 2]), 2)
        self.assertEqual(pt.median([4, 1, 3, 2]), 2.5)
        self.assertEqual(pt.median([5.0]), 5.0)
        self.assertEqual(pt.mean([1, 2, 6]), 3)
        with self.assertRaises(ValueError):
            pt.median([])


class Specs(unittest.TestCase):
    def test_good(self):
        self.assertEqual(pt.parse_attention("4,16,8192,128"), {"B": 4, "H": 16, "S": 8192, "D": 128, "causal": False})
        self.assertEqual(pt.parse_attention(" 4, 32,8192,64 ,causal")["causal"], True)
        self.assertEqual(pt.parse_attention("4,32,8192,64,full")["causal"], False)
        self.assertEqual(pt.parse_gemm("8000,8064,4000"), {"M": 8000, "N": 8064, "K": 4000})
        self.assertEqual(pt.attention_label(pt.parse_attention("4,16,8192,128,causal")), "B4 H16 S8192 D128 causal")
        self.assertEqual(pt.gemm_label(pt.parse_gemm("1,2,3")), "1x2x3")

    def test_bad(self):
        for spec, words in [("4,16,8192", "B,H,S,D"), ("4,16,8192,128,yes", "fifth field"),
                            ("4,16,0,128", "S must be a positive integer"), ("4,x,1,1", "H must be"),
                            ("4,16,-3,128", "S must be")]:
            with self.assertRaises(pt.SpecError) as c:
                pt.parse_attention(spec)
            self.assertIn(words, str(c.exception))
            self.assertIn(spec, str(c.exception))
        with self.assertRaises(pt.SpecError):
            pt.parse_gemm("1,2")
        with self.assertRaises(pt.SpecError):
            pt.parse_gemm("1,2,3.5")


# --- Traces ---------------------------------------------------------------------------------

def annotation(i, ts, dur, prefix="stagecraft_rep_"):
    return {"ph": "X", "cat": "user_annotation", "name": f"{prefix}{i}", "pid": 1, "tid": 1, "ts": ts, "dur": dur}


def launch(corr, ts, api="cuda_driver", name="cuLaunchKernelEx"):
    return {"ph": "X", "cat": api, "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": 3.0,
            "args": {"correlation": corr}}


def kernel(name, corr, ts, dur):
    return {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": ts, "dur": dur,
            "args": {"correlation": corr, "device": 0, "stream": 7}}


def memset(corr, ts):
    return {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": ts, "dur": 0.704,
            "args": {"correlation": corr}}


def h100_like_trace(reps=3, kernels_per_rep=1, gap=0.0):
    """Like torch.profiler's trace of cuDNN SDPA on an H100 (torch 2.11, cuDNN 9.19): in each
    window a cudaMemsetAsync and a cuLaunchKernelEx; the GPU runs the memset, then the kernel."""
    ev = [{"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "GPU 0"}}]
    t = 1000.0
    corr = 10
    for i in range(reps):
        ev.append(annotation(i, t, 2000.0))
        ev.append(launch(corr, t + 5, "cuda_runtime", "cudaMemsetAsync"))
        ev.append(memset(corr, t + 20))
        corr += 1
        k0 = t + 30
        for j in range(kernels_per_rep):
            ev.append(launch(corr, t + 10 + j))
            ev.append(kernel(f"cudnn_generated_fort_native_sdpa_sm90_flash_fprop_{j}", corr, k0, 1600.0 + i))
            k0 += 1600.0 + i + gap
            corr += 1
        ev.append({"ph": "s", "cat": "ac2g", "id": corr - 1, "pid": 1, "tid": 1, "ts": t + 10})
        t += 2100.0
    return ev


class Traces(unittest.TestCase):
    def test_one_kernel_per_repetition(self):
        grouped, how = pt.window_kernels(h100_like_trace(3), "stagecraft_rep_")
        self.assertEqual([len(g) for g in grouped], [1, 1, 1])
        self.assertEqual(how, {"correlation": 3, "time": 0})
        s = pt.summarize_windows(grouped)
        self.assertEqual(s["samples_us"], [1600.0, 1601.0, 1602.0])
        self.assertEqual(s["median_us"], 1601.0)
        self.assertEqual(s["min_us"], 1600.0)
        self.assertEqual(s["kernels_per_rep"], 1)
        self.assertEqual(s["kernel_names"], ["cudnn_generated_fort_native_sdpa_sm90_flash_fprop_0"])
        self.assertEqual(s["samples_us"], s["sum_samples_us"])

    def test_several_kernels_span_not_sum(self):
        # Two kernels per call with 50 us between them: the sample is the span (the runner's),
        # the sum of durations is kept beside it.
        grouped, _ = pt.window_kernels(h100_like_trace(2, kernels_per_rep=2, gap=50.0), "stagecraft_rep_")
        s = pt.summarize_windows(grouped)
        self.assertEqual(s["kernels_per_rep"], 2)
        self.assertEqual(s["samples_us"], [3250.0, 3252.0])
        self.assertEqual(s["sum_samples_us"], [3200.0, 3202.0])
        self.assertEqual(len(s["kernel_names"]), 2)

    def test_windows_out_of_order_and_events_shuffled(self):
        ev = h100_like_trace(4)
        ev.reverse()
        grouped, _ = pt.window_kernels(ev, "stagecraft_rep_")
        self.assertEqual([g[0]["end"] - g[0]["start"] for g in grouped], [1600.0, 1601.0, 1602.0, 1603.0])

    def test_kernel_without_launch_is_placed_by_time(self):
        ev = h100_like_trace(3)
        # Drop rep 1's kernel launch: the kernel's GPU interval still lies in window 1.
        launches = [e for e in ev if e.get("cat") == "cuda_driver"]
        ev.remove(launches[1])
        grouped, how = pt.window_kernels(ev, "stagecraft_rep_")
        self.assertEqual(how, {"correlation": 2, "time": 1})
        self.assertEqual(grouped[1][0]["end"] - grouped[1][0]["start"], 1601.0)

    def test_launch_outside_windows_falls_back_to_time(self):
        ev = h100_like_trace(2)
        for e in ev:
            if e.get("cat") == "cuda_driver" and e["args"]["correlation"] == 11:
                e["ts"] = 10.0  # before every window: not a launch of a repetition
        grouped, how = pt.window_kernels(ev, "stagecraft_rep_")
        self.assertEqual(how, {"correlation": 1, "time": 1})

    def test_stray_kernel_is_an_error(self):
        ev = h100_like_trace(2)
        ev.append(kernel("someone_elses_kernel", 999, 50000.0, 10.0))
        with self.assertRaises(pt.TraceError) as c:
            pt.window_kernels(ev, "stagecraft_rep_")
        self.assertIn("someone_elses_kernel", str(c.exception))

    def test_window_without_kernel_is_an_error(self):
        ev = [e for e in h100_like_trace(3) if not (e.get("cat") == "kernel" and e["args"]["correlation"] == 13)]
        with self.assertRaises(pt.TraceError) as c:
            pt.window_kernels(ev, "stagecraft_rep_")
        self.assertIn("stagecraft_rep_1", str(c.exception))

    def test_windows_must_be_complete_and_unique(self):
        with self.assertRaises(pt.TraceError):
            pt.window_kernels([kernel("k", 1, 0.0, 1.0)], "stagecraft_rep_")
        ev = [e for e in h100_like_trace(3) if e.get("name") != "stagecraft_rep_1"]
        with self.assertRaises(pt.TraceError) as c:
            pt.window_kernels(ev, "stagecraft_rep_")
        self.assertIn("not stagecraft_rep_0..", str(c.exception))
        ev = h100_like_trace(2) + [annotation(1, 99999.0, 1.0)]
        with self.assertRaises(pt.TraceError) as c:
            pt.window_kernels(ev, "stagecraft_rep_")
        self.assertIn("twice", str(c.exception))

    def test_other_annotations_are_ignored(self):
        ev = h100_like_trace(2) + [annotation(0, 0.0, 1e9, prefix="other_"),
                                   {"ph": "X", "cat": "user_annotation", "name": "stagecraft_rep_x", "ts": 0, "dur": 1}]
        grouped, _ = pt.window_kernels(ev, "stagecraft_rep_")
        self.assertEqual(len(grouped), 2)

    def test_counts_that_differ_are_listed(self):
        ev = h100_like_trace(2)
        ev.append(launch(500, 1012.0))
        ev.append(kernel("extra", 500, 1700.0, 5.0))
        s = pt.summarize_windows(pt.window_kernels(ev, "stagecraft_rep_")[0])
        self.assertEqual(s["kernels_per_rep"], [2, 1])


class Reasons(unittest.TestCase):
    def test_sdpa_warnings_reduced(self):
        # What torch 2.11 warned when cuDNN attention refused head dim 512 on an H100.
        messages = [
            "Memory efficient kernel not used because: (Triggered internally at /pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:986.)",
            "Memory Efficient attention has been runtime disabled. (Triggered internally at /pytorch/aten/src/ATen/native/transformers/sdp_utils_cpp.h:552.)",
            "Flash attention kernel not used because: (Triggered internally at /pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:988.)",
            "Flash attention has been runtime disabled. (Triggered internally at /pytorch/aten/src/ATen/native/transformers/sdp_utils_cpp.h:540.)",
            "cuDNN attention kernel not used because: (Triggered internally at /pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:990.)",
            "head_dim should be no more than 256 (Triggered internally at /pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:522.)",
            "head_dim should be no more than 256 (Triggered internally at /pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:522.)",
        ]
        self.assertEqual(pt.sdpa_reasons(messages), ["head_dim should be no more than 256"])
        self.assertEqual(pt.sdpa_reasons(["plain reason"]), ["plain reason"])


# --- Tables ---------------------------------------------------------------------------------

def rec(label, peer, method, tflops=None, status="ok", reason=None):
    r = {"label": label, "peer": peer, "method": method, "status": status}
    if tflops is not None:
        r["tflops"] = tflops
    if reason:
        r["reason"] = reason
    return r


class Tables(unittest.TestCase):
    RECORDS = [
        rec("B4 H16 S8192 D128 full", "cudnn", "cupti", 625.0),
        rec("B4 H16 S8192 D128 full", "cudnn", "events", 694.0),
        rec("B4 H16 S8192 D128 full", "flash", "cupti", 351.3),
        rec("B4 H16 S8192 D128 full", "flash", "events", 355.0),
        rec("B4 H16 S8192 D128 full", "triton", "cupti", status="verify_failed", reason="norm 0.2"),
        rec("B8 H16 S2048 D128 full", "cudnn", "cupti", 595.94),
        rec("B8 H16 S2048 D128 full", "flash", "cupti", status="unavailable", reason="no kernel"),
    ]

    def test_peers_table(self):
        t = pt.peers_table(self.RECORDS, "cupti")
        lines = t.splitlines()
        self.assertEqual(lines[0], "| problem | cudnn | flash | triton |")
        self.assertEqual(lines[1], "|---|---|---|---|")
        self.assertEqual(lines[2], "| B4 H16 S8192 D128 full | 625.0 | 351.3 | verify_failed |")
        self.assertEqual(lines[3], "| B8 H16 S2048 D128 full | 595.9 | unavailable | - |")
        self.assertIn("- B4 H16 S8192 D128 full, triton: verify_failed: norm 0.2", t)
        self.assertIn("- B8 H16 S2048 D128 full, flash: unavailable: no kernel", t)

    def test_methods_table(self):
        t = pt.methods_table(self.RECORDS, ["cupti", "events", "do_bench"])
        lines = t.splitlines()
        self.assertEqual(lines[0], "| problem | peer | cupti | events | events / cupti |")
        self.assertEqual(lines[2], "| B4 H16 S8192 D128 full | cudnn | 625.0 | 694.0 | 1.110 |")
        self.assertEqual(lines[3], "| B4 H16 S8192 D128 full | flash | 351.3 | 355.0 | 1.011 |")
        self.assertEqual(len(lines), 4)
        self.assertEqual(pt.methods_table(self.RECORDS, ["cupti", "do_bench"]), "")


# --- The harness on a fake torch ------------------------------------------------------------

class FakeOOM(Exception):
    pass


class FakeUnavailable(Exception):
    pass


def fake_modules(timings, check_errors):
    """A torch with only what the orchestration touches, and a measure module whose timings
    and checks are given: timings[config] = median us, check_errors[config] = norm error."""
    torch = types.ModuleType("torch")
    torch.cuda = types.SimpleNamespace(OutOfMemoryError=FakeOOM, empty_cache=lambda: None,
                                       mem_get_info=lambda: (80 << 30, 80 << 30))
    m = types.ModuleType("measure")
    m.Unavailable = FakeUnavailable
    m.calls = []
    m.configure_precision = lambda: None
    m.device_info = lambda: {"name": "Fake H100", "l2_bytes": L2_H100}

    def call_probing(fn, *args):
        return fn(*args)

    def passes(e):
        return e["nonfinite_count"] == 0 and e["norm_rel_err"] <= 1e-2 and e["max_rel_err"] <= 5e-2

    def timing(name, sets, method, us):
        m.calls.append((name, method, len(sets)))
        return {"samples_us": [us], "median_us": us, "min_us": us, "reported_us": us, "statistic": "median",
                "input_sets": len(sets)}

    m.call_probing = call_probing
    m.passes = passes
    m.time_cupti = lambda fn, sets, warmup, reps: timing(fn.__name__, sets, "cupti", timings[fn.__name__])
    m.time_events = lambda fn, args, warmup, reps: timing(fn.__name__, [args], "events", timings[fn.__name__] * 0.9)
    m.time_do_bench = lambda fn, args: timing(fn.__name__, [args], "do_bench", timings[fn.__name__] * 0.95)
    m.make_input_sets = lambda shapes, count, dist, policy, seed: [(dist, s) for s in range(count)]
    return torch, m


def candidate(name, behaviour):
    def fn(*args):
        if behaviour == "unavailable":
            raise FakeUnavailable(f"{name} refuses this shape")
        if behaviour == "crash":
            raise ZeroDivisionError(f"{name} crashed")
        return name
    fn.__name__ = name
    return fn


class Orchestration(unittest.TestCase):
    def harness(self, timings, norms, methods=("cupti",)):
        torch, measure = fake_modules(timings, norms)
        saved = {k: sys.modules.get(k) for k in ("torch", "measure")}
        sys.modules["torch"], sys.modules["measure"] = torch, measure
        try:
            import attention_peers as ap
            out = tempfile.mkdtemp(prefix="peers-test-")
            self.addCleanup(shutil.rmtree, out, True)
            a = ap.parse_args(["--out", out] + (["--compare"] if len(methods) > 1 else []))
            h = ap.Harness(a)
        finally:
            for k, v in saved.items():
                if v is None:
                    sys.modules.pop(k, None)
                else:
                    sys.modules[k] = v
        h.records = ap.Records(a.out)
        self.addCleanup(h.records.file.close)
        return h, measure, ap

    def check(self, norms):
        def check(out):
            return {"max_rel_err": norms[out], "norm_rel_err": norms[out], "nonfinite_count": 0}
        return check

    def quiet(self):
        return contextlib.redirect_stdout(io.StringIO())

    def test_fastest_passing_configuration_wins(self):
        timings = {"a": 100.0, "b": 80.0, "c": 50.0, "d": 90.0}
        norms = {"a": 2e-3, "b": 2e-3, "c": 0.3, "d": 2e-3}  # c is fastest but wrong
        h, m, _ = self.harness(timings, norms)
        cands = [(n, candidate(n, "ok")) for n in "abcd"]
        with self.quiet():
            h.run_peer({"label": "P", "flops": 1e12}, "triton", cands, [("s0",), ("s1",)], self.check(norms))
        [r] = h.records.all
        self.assertEqual((r["status"], r["config"], r["median_us"]), ("ok", "b", 80.0))
        self.assertEqual(r["configs"]["c"]["status"], "verify_failed")
        self.assertEqual(r["configs"]["a"]["median_us"], 100.0)
        self.assertAlmostEqual(r["tflops"], 1e12 / 80e-6 / 1e12)
        self.assertEqual(r["input_sets"], 2)
        self.assertFalse(h.failed)

    def test_old_methods_on_the_chosen_configuration(self):
        timings = {"a": 100.0, "b": 80.0}
        norms = {"a": 2e-3, "b": 2e-3}
        h, m, ap = self.harness(timings, norms, methods=ap_methods())
        with self.quiet():
            h.run_peer({"label": "P", "flops": 1e12}, "triton", [(n, candidate(n, "ok")) for n in "ab"],
                       [("s0",), ("s1",)], self.check(norms))
        methods = [(r["method"], r["config"], r["reported_us"]) for r in h.records.all]
        self.assertEqual(methods, [("cupti", "b", 80.0), ("cupti-1set", "b", 80.0), ("events", "b", 72.0),
                                   ("do_bench", "b", 76.0)])
        self.assertEqual([c for c in m.calls if c[0] == "b" and c[1] == "cupti"][-1][2], 1)  # cupti-1set: one set

    def test_all_unavailable_is_not_a_failure(self):
        h, _, _ = self.harness({}, {})
        with self.quiet():
            h.run_peer({"label": "P", "flops": 1e12}, "cudnn", [(None, candidate("x", "unavailable"))],
                       [("s0",), ("s1",)], self.check({}))
        [r] = h.records.all
        self.assertEqual(r["status"], "unavailable")
        self.assertIn("refuses this shape", r["reason"])
        self.assertIsNone(r["configs"])
        self.assertFalse(h.failed)

    def test_wrong_output_fails_the_run(self):
        norms = {"x": 0.5}
        h, _, _ = self.harness({"x": 1.0}, norms)
        with self.quiet():
            h.run_peer({"label": "P", "flops": 1e12}, "flash", [(None, candidate("x", "ok"))], [("s0",)],
                       self.check(norms))
        [r] = h.records.all
        self.assertEqual(r["status"], "verify_failed")
        self.assertIn("norm 0.5", r["reason"])
        self.assertNotIn("tflops", r)
        self.assertTrue(h.failed)

    def test_a_crash_is_an_error_and_the_others_still_run(self):
        norms = {"ok": 1e-3}
        h, _, _ = self.harness({"ok": 10.0}, norms)
        cands = [("bad", candidate("bad", "crash")), ("ok", candidate("ok", "ok"))]
        with self.quiet(), contextlib.redirect_stderr(io.StringIO()):
            h.run_peer({"label": "P", "flops": 1e12}, "triton", cands, [("s0",)], self.check(norms))
            h.run_peer({"label": "P", "flops": 1e12}, "triton2", cands[:1], [("s0",)], self.check(norms))
        first, second = h.records.all
        self.assertEqual((first["status"], first["config"]), ("ok", "ok"))
        self.assertIn("ZeroDivisionError", first["configs"]["bad"]["reason"])
        self.assertEqual(second["status"], "error")
        self.assertTrue(h.failed)

    def test_problem_with_normal_inputs_after_the_uniform_pass(self):
        norms = {"x": 1e-3, "y": 1e-3}
        h, m, ap = self.harness({"x": 10.0, "y": 20.0}, norms, methods=ap_methods())
        peers = [("cudnn", lambda: [(None, candidate("x", "ok"))]),
                 ("flash", lambda: (_ for _ in ()).throw(FakeUnavailable("flash is off"))),
                 ("triton", lambda: [(None, candidate("y", "ok"))])]
        with self.quiet():
            h.run_problem({"label": "P", "flops": 1e12}, [(1,)], 400 * MiB, peers, lambda s: self.check(norms))
        got = [(r["peer"], r["method"], r["status"], r.get("input_distribution")) for r in h.records.all]
        self.assertIn(("flash", "cupti", "unavailable", "uniform[-1,1) bf16"), got)
        self.assertEqual([g for g in got if g[1] == "cupti-normal"],
                         [("cudnn", "cupti-normal", "ok", "normal(0,1) bf16"),
                          ("triton", "cupti-normal", "ok", "normal(0,1) bf16")])
        # The normal pass comes after every uniform measurement.
        self.assertEqual([g[1] for g in got][-2:], ["cupti-normal", "cupti-normal"])


def ap_methods():
    import attention_peers as ap
    return ap.METHODS


# --- The command line -----------------------------------------------------------------------

SCRIPT = os.path.join(PEERS, "attention_peers.py")


def run_script(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, env=env, timeout=60)


class CommandLine(unittest.TestCase):
    def test_plan_of_the_defaults(self):
        r = run_script("--plan")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = [json.loads(line) for line in r.stdout.splitlines()[1:]]
        self.assertEqual([x["label"] for x in rows],
                         ["B4 H16 S8192 D128 full", "B4 H16 S8192 D128 causal", "B8 H16 S2048 D128 full",
                          "B4 H32 S8192 D64 full", "B4 H32 S8192 D64 causal",
                          "8192x8192x8192", "4096x4096x4096", "8000x8064x4000"])
        self.assertEqual([x["input_sets"] for x in rows], [2, 2, 2, 2, 2, 2, 3, 2])
        self.assertEqual(rows[0]["peers"], ["cudnn", "flash", "triton"])
        self.assertEqual(rows[5]["peers"], ["torch-matmul", "triton-matmul"])
        self.assertEqual(rows[1]["flops"], pt.attention_flops(4, 16, 8192, 128, True))
        self.assertIn("methods: cupti;", r.stdout.splitlines()[0])

    def test_plan_with_options(self):
        r = run_script("--plan", "--compare", "--no-gemm", "--attention", "1,4,4096,64,causal",
                       "--l2-bytes", str(40 * MiB), "--peers", "cudnn,sdpa-default")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertIn("methods: cupti, cupti-1set, events, do_bench, cupti-normal;", lines[0])
        [row] = [json.loads(x) for x in lines[1:]]
        self.assertEqual(row["input_sets"], 20)  # 3x 40 MiB over 6 MiB per set
        self.assertEqual(row["peers"], ["cudnn", "sdpa-default"])

    def test_bad_arguments(self):
        for args, words in [(["--plan", "--attention", "4,16,8192"], "expected B,H,S,D"),
                            (["--plan", "--gemm", "8192,0,1"], "N must be a positive integer"),
                            (["--plan", "--peers", "cudnn,cublas"], "unknown peer(s) cublas"),
                            (["--plan", "--reps", "0"], "--reps"),
                            ([], "--out DIR is required")]:
            r = run_script(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(words, r.stderr)

    def test_no_torch(self):
        fake = tempfile.mkdtemp(prefix="peers-no-torch-")
        self.addCleanup(shutil.rmtree, fake, True)
        os.makedirs(os.path.join(fake, "torch"))
        with open(os.path.join(fake, "torch", "__init__.py"), "w") as f:
            f.write("raise ImportError('no torch in this test')\n")
        out = os.path.join(fake, "out")
        r = run_script("--out", out, env=dict(os.environ, PYTHONPATH=fake))
        self.assertEqual(r.returncode, 2)
        self.assertIn("torch is not installed", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "peers.jsonl")))


# --- Against real manifests -----------------------------------------------------------------

COMPILE = os.environ.get("STAGECRAFT_COMPILE")
ASSETS = os.path.join(ROOT, "assets")
DTYPE_BYTES = {"bf16": 2, "f16": 2, "f32": 4}


class Manifests(unittest.TestCase):
    def setUp(self):
        if not COMPILE:
            self.fail("set STAGECRAFT_COMPILE to build/bin/stagecraft-compile (ctest does)")

    def bundle(self, asset, *sizes):
        out = tempfile.mkdtemp(prefix="peers-bundle-")
        self.addCleanup(shutil.rmtree, out, True)
        args = [COMPILE, os.path.join(ASSETS, asset), "-o", out, "--no-cubin", "-q"]
        for s in sizes:
            args += ["--size", s]
        r = subprocess.run(args, capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "manifest.json")) as f:
            return json.load(f)

    def input_bytes(self, m):
        # profiler/launch.cpp inputSetBytes: every tensor with role input.
        total = 0
        for t in m["tensors"]:
            if t["role"] == "input":
                n = 1
                for d in t["shape"]:
                    n *= d
                total += n * DTYPE_BYTES[t["dtype"]]
        return total

    def test_attention(self):
        cases = [("attention_fwd_d128.mlir", ()), ("attention_fwd_d128_causal.mlir", ()),
                 ("attention_fwd_d64_causal.mlir", ()), ("attention_fwd_d128_causal.mlir", ("S=1000", "B=2"))]
        for asset, sizes in cases:
            m = self.bundle(asset, *sizes)
            peer = m["peer"]
            self.assertEqual(peer["kind"], "attention")
            p = {"B": peer["batch"], "H": peer["heads"], "S": peer["seq_q"], "D": peer["head_dim"],
                 "causal": peer["causal"]}
            self.assertEqual(m["flops"], pt.attention_flops(**p), (asset, sizes))
            self.assertEqual(self.input_bytes(m), pt.attention_set_bytes(p), (asset, sizes))
            self.assertAlmostEqual(peer["sm_scale"], p["D"] ** -0.5, places=6)

    def test_gemm(self):
        for sizes in [(), ("M=8000", "N=8064", "K=4000")]:
            m = self.bundle("gemm.mlir", *sizes)
            peer = m["peer"]
            self.assertEqual(peer["kind"], "gemm")
            self.assertTrue(peer["transpose_b"])  # C = A B^T, as the harness's peers compute
            p = {"M": peer["M"], "N": peer["N"], "K": peer["K"]}
            self.assertEqual(m["flops"], pt.gemm_flops(**p))
            self.assertEqual(self.input_bytes(m), pt.gemm_set_bytes(p))


if __name__ == "__main__":
    unittest.main()
