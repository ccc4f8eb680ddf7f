#!/usr/bin/env python3
"""Runs stagecraft-run over the fixture bundles on a GPU host and checks every outcome.

    gpu_checks.py --runner BIN --bundles DIR --out OUT_DIR [--quick]

Writes OUT_DIR/results.jsonl (one line per check: the command, the exit status, the runner's
JSON answers, what was expected and whether it held) and OUT_DIR/summary.md (a table), and
prints the table. Exits non-zero if any expectation failed. Called by bench/run-on-gpu.sh.
"""
import argparse
import json
import os
import select
import subprocess
import sys
import time


def now():
    return time.monotonic()


class Checks:
    def __init__(self, runner, bundles, out):
        self.runner = runner
        self.bundles = bundles
        self.out = out
        self.rows = []
        self.results = open(os.path.join(out, "results.jsonl"), "w")

    def record(self, name, command, rc, answers, expect, ok, note="", seconds=0.0):
        entry = {"check": name, "command": command, "rc": rc, "answers": answers, "expect": expect,
                 "ok": ok, "note": note, "seconds": round(seconds, 2)}
        self.results.write(json.dumps(entry) + "\n")
        self.results.flush()
        self.rows.append(entry)
        status = "PASS" if ok else "FAIL"
        print(f"[{status}] {name}: rc={rc} {note}", flush=True)

    def bundle(self, name):
        return os.path.join(self.bundles, name)

    # --- one-shot runs -------------------------------------------------------------------------

    def run_once(self, name, bundle, args=(), env=None, expect_status="ok", expect_rc=0, timeout=300,
                 expect_verified=None):
        cmd = [self.runner, self.bundle(bundle), *args]
        full_env = dict(os.environ, **(env or {}))
        t0 = now()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=full_env)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            rc, out, err = None, e.stdout or "", e.stderr or ""
        seconds = now() - t0
        lines = [l for l in (out if isinstance(out, str) else out.decode()).splitlines() if l.strip()]
        answers = []
        for l in lines:
            try:
                answers.append(json.loads(l))
            except ValueError:
                answers.append({"unparsed": l})
        problems = []
        if len(answers) != 1:
            problems.append(f"expected exactly one JSON line, got {len(answers)}")
        a = answers[0] if answers else {}
        if a.get("status") != expect_status:
            problems.append(f"status {a.get('status')!r}, expected {expect_status!r}")
        if rc != expect_rc:
            problems.append(f"exit {rc}, expected {expect_rc}")
        if expect_verified is not None and a.get("verified") != expect_verified:
            problems.append(f"verified {a.get('verified')}, expected {expect_verified}")
        untimed = "--untimed" in args
        if a.get("verified") and not a.get("tflops") and not untimed:
            problems.append("verified but no tflops")
        if untimed and (a.get("median_us") is not None or
                        not any(w.startswith("untimed: ") for w in a.get("warnings", []))):
            problems.append("--untimed: timed, or without its warning")
        if not a.get("verified") and a.get("tflops") is not None:
            problems.append("tflops given for an unverified result")
        note = "; ".join(problems) if problems else describe(a)
        if err.strip():
            sys.stderr.write(f"--- stderr of {name}:\n{err[-2000:]}\n")
        env_prefix = " ".join(f"{k}={v}" for k, v in (env or {}).items())
        self.record(name, (env_prefix + " " if env_prefix else "") + " ".join(cmd), rc, answers,
                    {"status": expect_status, "rc": expect_rc}, not problems, note, seconds)
        return a

    # --- --serve sessions ----------------------------------------------------------------------

    def serve(self, name, requests, expect, expect_rc, timeout=300):
        """Sends requests one at a time; `expect` lists the expected status per request (None:
        no answer expected, the process must have exited)."""
        cmd = [self.runner, "--serve"]
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             bufsize=1)
        answers, problems = [], []
        t0 = now()
        for req, want in zip(requests, expect):
            line = req if isinstance(req, str) else json.dumps(req)
            try:
                p.stdin.write(line + "\n")
                p.stdin.flush()
            except (BrokenPipeError, OSError):
                if want is not None:
                    problems.append(f"could not send {line[:60]}: the server is gone")
                answers.append(None)
                continue
            ready, _, _ = select.select([p.stdout], [], [], timeout)
            reply = p.stdout.readline() if ready else ""
            if not reply:
                answers.append(None)
                if want is not None:
                    problems.append(f"no answer to {line[:60]}")
                continue
            try:
                a = json.loads(reply)
            except ValueError:
                a = {"unparsed": reply}
            answers.append(a)
            if want is None:
                problems.append(f"unexpected answer to {line[:60]}")
            elif a.get("status") != want:
                problems.append(f"{line[:50]}: status {a.get('status')!r}, expected {want!r} ({a.get('error')})")
        try:
            p.stdin.close()
        except OSError:
            pass
        try:
            rc = p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            rc = None
            problems.append("server did not exit after its input closed")
            p.kill()  # our own child
            p.wait()
        err = p.stderr.read()
        if err.strip():
            sys.stderr.write(f"--- stderr of {name}:\n{err[-2000:]}\n")
        if rc != expect_rc:
            problems.append(f"exit {rc}, expected {expect_rc}")
        # The process must be gone (no stuck runner holding the GPU).
        if os.path.exists(f"/proc/{p.pid}"):
            problems.append(f"process {p.pid} still exists")
        ids = [a.get("id") if isinstance(a, dict) else None for a in answers]
        note = "; ".join(problems) if problems else f"answers {[a.get('status') if a else None for a in answers]} ids {ids}"
        self.record(name, " ".join(cmd) + "  < " + json.dumps(requests), rc, answers,
                    {"statuses": expect, "rc": expect_rc}, not problems, note, now() - t0)

    def finish(self):
        self.results.close()
        lines = ["| check | ok | status | verified | norm_rel_err | max_rel_err | median_us | TFLOP/s | cuBLAS TFLOP/s | ratio | rc |",
                 "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in self.rows:
            answers = [a for a in r["answers"] if isinstance(a, dict)]
            a = answers[0] if len(answers) == 1 else {}
            if len(answers) > 1:
                status = ",".join(str(x.get("status")) for x in answers)
            else:
                status = a.get("status", "-")

            def f(key, fmt):
                v = a.get(key)
                return fmt.format(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else "-"
            lines.append(f"| {r['check']} | {'yes' if r['ok'] else '**NO**'} | {status} | {a.get('verified', '-')} | "
                         f"{f('norm_rel_err', '{:.2e}')} | {f('max_rel_err', '{:.2e}')} | {f('median_us', '{:.1f}')} | "
                         f"{f('tflops', '{:.1f}')} | {f('reference_tflops', '{:.1f}')} | {f('ratio_to_reference', '{:.3f}')} | "
                         f"{r['rc']} |")
        table = "\n".join(lines)
        with open(os.path.join(self.out, "summary.md"), "w") as f:
            f.write(table + "\n")
        print(table)
        return all(r["ok"] for r in self.rows)


def describe(a):
    parts = [f"status={a.get('status')}"]
    for k in ("verified", "norm_rel_err", "median_us", "tflops", "reference_tflops", "ratio_to_reference", "error"):
        if a.get(k) is not None:
            v = a[k]
            parts.append(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={str(v)[:120]}")
    return " ".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runner", required=True)
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--skip-large", action="store_true", help="skip the 8192 GEMM and the large attention shapes")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    c = Checks(os.path.abspath(args.runner), os.path.abspath(args.bundles), args.out)

    # Correct kernels: verified and timed, GEMMs against cuBLAS in the same run.
    c.run_once("gemm 1000x520x200 (edges, OOB fill)", "gemm_1000x520x200")
    c.run_once("gemm 4096^3", "gemm_4096x4096x4096")
    c.run_once("gemm 4096^3 again (run-to-run spread)", "gemm_4096x4096x4096")
    c.run_once("gemm 4096^3 from PTX (driver JIT)", "gemm_4096_ptx")
    c.run_once("gemm 4096^3 with 2x1x1 clusters", "gemm_4096_cluster2")
    # A kernel.cubin that is there but empty: the PTX through the JIT, said in the warnings.
    import shutil
    empty = os.path.join(c.bundles, "gemm_4096_empty_cubin")
    shutil.rmtree(empty, ignore_errors=True)
    shutil.copytree(c.bundle("gemm_4096x4096x4096"), empty)
    open(os.path.join(empty, "kernel.cubin"), "wb").close()
    a = c.run_once("gemm 4096^3, kernel.cubin empty -> PTX with a warning", "gemm_4096_empty_cubin")
    warned = a.get("module") == "ptx" and any("kernel.cubin is empty" in w for w in a.get("warnings", []))
    c.record("  ... and the warning says so", "(the answer above)", 0, [], {"module": "ptx"}, warned,
             "module %s, warnings %s" % (a.get("module"), a.get("warnings")))
    if not args.skip_large:
        c.run_once("gemm 8192^3", "gemm_8192x8192x8192", timeout=400)
    # Wrong, faulting and hanging kernels.
    c.run_once("wrong gemm -> verify_failed", "gemm_wrong_4096", expect_status="verify_failed", expect_rc=1,
               expect_verified=False)
    c.run_once("--no-verify: timed, no TFLOP/s", "gemm_4096x4096x4096", args=["--no-verify", "--reps", "5"],
               expect_status="ok", expect_rc=1, expect_verified=False)
    c.run_once("--untimed: verified, launched untimed, CUPTI not loaded", "gemm_4096x4096x4096",
               args=["--untimed", "--reps", "3"], expect_status="ok", expect_rc=0, expect_verified=True)
    c.run_once("fault -> status fault, exit 3", "fault", expect_status="fault", expect_rc=3)
    c.run_once("hang -> watchdog timeout, exit 4", "hang", args=["--watchdog", "5"], expect_status="timeout",
               expect_rc=4, timeout=60)
    # Attention against the fp32 reference.
    c.run_once("attention B1 H2 S256 D64 causal", "attn_b1h2s256d64_causal")
    c.run_once("attention B1 H2 S256 D64 causal, reference in 64 KiB chunks", "attn_b1h2s256d64_causal",
               env={"STAGECRAFT_ATTENTION_CHUNK_BYTES": "65536"})
    c.run_once("attention B2 H3 S200 D128", "attn_b2h3s200d128")
    if not args.skip_large:
        c.run_once("attention B4 H16 S8192 D128 causal", "attn_b4h16s8192d128_causal",
                   args=["--warmup", "1", "--reps", "3"], timeout=400)
        c.run_once("attention B4 H32 S8192 D64", "attn_b4h32s8192d64", args=["--warmup", "1", "--reps", "3"],
                   timeout=400)

    # --serve: answers in order, keeps going after bad requests, exits after a fault.
    b = c.bundle
    c.serve("serve: ping, runs, bad requests, wrong kernel, then a fault ends it", [
        {"id": 1, "cmd": "ping"},
        {"id": 2, "bundle": b("gemm_1000x520x200"), "warmup": 2, "reps": 10},
        "this is not json",
        {"id": 4, "bundle": b("gemm_1000x520x200"), "reps": 0},
        {"id": 5, "bundle": b("gemm_1000x520x200"), "colour": "blue"},
        {"id": 6, "bundle": "/nonexistent/bundle"},
        {"id": "seven", "bundle": b("gemm_wrong_4096")},
        {"id": 8, "bundle": b("gemm_4096x4096x4096"), "warmup": 3, "reps": 20},
        {"id": 9, "bundle": b("fault")},
        {"id": 10, "bundle": b("gemm_1000x520x200")},
    ], ["ok", "ok", "error", "error", "error", "error", "verify_failed", "ok", "fault", None], expect_rc=3)
    c.serve("serve: a run, then a hang cut off by the watchdog", [
        {"id": 1, "bundle": b("gemm_1000x520x200"), "reps": 5},
        {"id": 2, "bundle": b("hang"), "watchdog_s": 3},
        {"id": 3, "cmd": "ping"},
    ], ["ok", "timeout", None], expect_rc=4, timeout=60)

    ok = c.finish()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
