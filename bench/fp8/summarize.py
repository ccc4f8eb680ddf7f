#!/usr/bin/env python3
"""Summarizes bench/fp8 results (stagecraft-run JSON lines) as Markdown: per bundle its status,
the checks (IR reference, cuBLASLt), TFLOP/s, the peer's TFLOP/s and the ratio; then the FP8
GEMM at 8192^3 against cuBLASLt and against the bf16 GEMM of the same run.
Exit status 0 when every bundle verified."""
import json
import os
import sys


def fmt(x, spec=".2e"):
    return "-" if x is None else format(x, spec)


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    print("| bundle | status | verified | vs IR: norm / max (tol) | peer check | TFLOP/s | peer | peer TFLOP/s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    ok = 0
    by_name = {}
    for r in rows:
        name = os.path.basename(os.path.normpath(r.get("bundle", "?")))
        by_name[name] = r
        checks = r.get("checks") or []
        ir = [c for c in checks if c["against"] == "ir"]
        peer = [c for c in checks if c["against"] != "ir"]
        irtxt = "; ".join(f"{c['tensor']} {fmt(c['norm_rel_err'])} / {fmt(c['max_rel_err'])} "
                          f"({fmt(c['norm_rel_tol'], '.1e')})" for c in ir) or "-"
        peertxt = "; ".join(f"{c['against']} {fmt(c['norm_rel_err'])}" + ("" if c["passed"] else " FAIL")
                            for c in peer) or "-"
        ok += bool(r.get("verified"))
        err = r.get("error") or ""
        print(f"| {name} | {r.get('status')}{(': ' + err[:160]) if err else ''} | {r.get('verified')} | "
              f"{irtxt} | {peertxt} | {fmt(r.get('tflops'), '.1f')} | {r.get('reference_name') or '-'} | "
              f"{fmt(r.get('reference_tflops'), '.1f')} | {fmt(r.get('ratio_to_reference'), '.3f')} |")
    print(f"\n{ok} of {len(rows)} verified")
    fp8 = [r for n, r in by_name.items() if n.startswith("fp8_gemm") and not n.endswith("_partial")
           and r.get("verified")]
    if fp8:
        best = max(fp8, key=lambda r: r.get("tflops") or 0)
        name = os.path.basename(os.path.normpath(best["bundle"]))
        print(f"\nFP8 GEMM 8192^3, best schedule `{name}`: {fmt(best.get('tflops'), '.1f')} TFLOP/s, "
              f"cuBLASLt {fmt(best.get('reference_tflops'), '.1f')} in the same run: "
              f"{fmt(best.get('ratio_to_reference'), '.3f')}x (aim 1.0x, at least 0.9x)")
        bf16 = by_name.get("bf16_gemm")
        if bf16 and bf16.get("tflops"):
            print(f"bf16 GEMM (assets/gemm.mlir) same run: {fmt(bf16['tflops'], '.1f')} TFLOP/s: FP8 is "
                  f"{best['tflops'] / bf16['tflops']:.2f}x")
    for n in ("mxfp8_gemm", "mxfp8_gemm_upcast"):
        r = by_name.get(n)
        if r:
            print(f"{n} 8192^3: {r.get('status')}, verified {r.get('verified')}, {fmt(r.get('tflops'), '.1f')} TFLOP/s")
    return 0 if ok == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
