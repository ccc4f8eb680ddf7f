#!/usr/bin/env python3
"""A bundle benchmark's table: per bundle, the median TFLOP/s over the rounds (verified runs
only), cuBLAS's median in the same processes, and the median of the per-round ratios.

  python3 bench/lib/table.py OUT/results.jsonl
"""
import json
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[r["bundle"]].append(r)
print("| bundle | verified | TFLOP/s (median) | cuBLAS same runs | ratio (median per round) | max rel err |")
print("|---|---|---|---|---|---|")
for b in sorted(runs):
    rs = runs[b]
    ok = [r for r in rs if r.get("status") == "ok" and r.get("verified")]
    if not ok:
        why = "; ".join(sorted({str(r.get("status")) + ": " + str(r.get("error", ""))[:120] for r in rs}))
        print(f"| {b} | 0/{len(rs)} | FAIL ({why}) | | | |")
        continue
    t = statistics.median(r["tflops"] for r in ok)
    peer = [r.get("reference_tflops") for r in ok if r.get("reference_tflops")]
    p = statistics.median(peer) if peer else None
    ratio = statistics.median(r["tflops"] / r["reference_tflops"] for r in ok if r.get("reference_tflops")) if peer else None
    err = max(r.get("max_rel_err", 0) for r in ok)
    print(f"| {b} | {len(ok)}/{len(rs)} | {t:.1f} | {p:.1f} | {ratio:.3f} | {err:.2e} |" if p else
          f"| {b} | {len(ok)}/{len(rs)} | {t:.1f} | - | - | {err:.2e} |")
