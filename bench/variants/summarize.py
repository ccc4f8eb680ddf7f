#!/usr/bin/env python3
"""Summarizes stagecraft-run results (one JSON per line) as a Markdown table:
per bundle its status, the worst output's errors against the IR reference and
its tolerance, the peer check, and TFLOP/s."""
import json
import os
import sys


def fmt(x, spec=".2e"):
    return "-" if x is None else format(x, spec)


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    print("| bundle | status | verified | vs IR: norm / max (tol) | peer | TFLOP/s | peer TFLOP/s |")
    print("|---|---|---|---|---|---|---|")
    ok = 0
    for r in rows:
        name = os.path.basename(os.path.normpath(r.get("bundle", "?")))
        checks = r.get("checks") or []
        ir = [c for c in checks if c["against"] == "ir"]
        peer = [c for c in checks if c["against"] != "ir"]
        irtxt = "; ".join(f"{c['tensor']} {fmt(c['norm_rel_err'])} / {fmt(c['max_rel_err'])} "
                          f"({fmt(c['norm_rel_tol'], '.1e')})" for c in ir) or "-"
        peertxt = "; ".join(f"{c['against']} {fmt(c['norm_rel_err'])}" + ("" if c["passed"] else " FAIL")
                            for c in peer) or "-"
        ok += bool(r.get("verified"))
        err = r.get("error") or ""
        print(f"| {name} | {r.get('status')}{(': ' + err[:120]) if err else ''} | {r.get('verified')} | "
              f"{irtxt} | {peertxt} | {fmt(r.get('tflops'), '.1f')} | {fmt(r.get('reference_tflops'), '.1f')} |")
    print(f"\n{ok} of {len(rows)} verified")


if __name__ == "__main__":
    main()
