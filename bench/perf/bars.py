#!/usr/bin/env python3
"""The issue's bars from bench/perf/bars-on-gpu.sh's output: per problem, each of our bundles'
median TFLOP/s over the rounds (verified runs only) and the median of its per-round ratios to
the peer timed in the same round (cuDNN, Triton: OUT/peers-R/peers.jsonl; cuBLAS: in the
runner's own process).

  python3 bench/perf/bars.py OUT_DIR
"""
import collections
import json
import os
import re
import statistics
import sys

ATTN = {  # bundle -> peers' problem label
    "attn_d128": "B4 H16 S8192 D128 full", "attn_d128_cp_dot1_s3": "B4 H16 S8192 D128 full",
    "attn_d128_176keys_cp_near": "B4 H16 S8192 D128 full",
    "attn_d128_causal_cp_dot1_s3": "B4 H16 S8192 D128 causal",
    "attn_d128_causal_176keys_cp_near": "B4 H16 S8192 D128 causal",
    "attn_d64": "B4 H32 S8192 D64 full", "attn_d64_192rows": "B4 H32 S8192 D64 full",
    "attn_d64_192rows_ahead2": "B4 H32 S8192 D64 full",
    "attn_d64_causal": "B4 H32 S8192 D64 causal", "attn_d64_causal_192rows": "B4 H32 S8192 D64 causal",
    "attn_d64_causal_192rows_ahead2": "B4 H32 S8192 D64 causal",
    "attn_d128_176keys_early_near": "B4 H16 S8192 D128 full",
    "attn_d128_causal_176keys_early_near": "B4 H16 S8192 D128 causal",
    "attn_d64_early": "B4 H32 S8192 D64 full",
}
BARS = {"B4 H16 S8192 D128 full": 0.95, "B4 H16 S8192 D128 causal": 0.95,
        "B4 H32 S8192 D64 full": 0.95, "B4 H32 S8192 D64 causal": 0.95,
        "8192": 1.0, "4096": 0.97, "8000x8064x4000": 0.95}


def main():
    out = sys.argv[1]
    runs = collections.defaultdict(dict)  # bundle -> round -> result
    for line in open(os.path.join(out, "results.jsonl")):
        r = json.loads(line)
        name = r.get("bundle", "?").rstrip("/").split("/")[-1]
        runs[name][r["round"]] = r
    peers = collections.defaultdict(dict)  # (label, peer) -> round -> tflops
    for d in sorted(os.listdir(out)):
        if d.startswith("peers-") and os.path.isdir(os.path.join(out, d)):
            rnd = int(d.split("-")[1])
            for line in open(os.path.join(out, d, "peers.jsonl")):
                p = json.loads(line)
                if p.get("method") == "cupti" and p.get("status") == "ok":
                    peers[(p["label"], p["peer"])][rnd] = p["tflops"]
        elif re.fullmatch(r"peers-\d+\.log", d) and not os.path.isdir(os.path.join(out, d[:-4])):
            # Only the log came back (the device tool returns a limited number of files): its
            # lines "LABEL PEER cupti T TFLOP/s" are what peers.jsonl holds for verified peers.
            rnd = int(d[len("peers-"):-len(".log")])
            for line in open(os.path.join(out, d)):
                m = re.match(r"(B\d+ H\d+ S\d+ D\d+ \w+)\s+(\w+)\s+cupti\s+([\d.]+) TFLOP/s", line)
                if m:
                    peers[(m.group(1), m.group(2))][rnd] = float(m.group(3))
    lines = ["| problem | bundle | rounds verified | TFLOP/s (median) | peer | peer TFLOP/s (median) | "
             "ratio (median of rounds) | bar | vs Triton |", "|---|---|---|---|---|---|---|---|---|"]
    for name, rounds in sorted(runs.items()):
        ok = {k: r for k, r in rounds.items() if r.get("status") == "ok" and r.get("verified")}
        tf = statistics.median(r["tflops"] for r in ok.values()) if ok else None
        if name in ATTN:
            label, peer = ATTN[name], "cudnn"
            pt = peers[(label, peer)]
            ratios = [ok[k]["tflops"] / pt[k] for k in ok if k in pt]
            tri = peers[(label, "triton")]
            vs_tri = [ok[k]["tflops"] / tri[k] for k in ok if k in tri]
            ptf = statistics.median(pt.values()) if pt else None
        elif "-" in name:
            label = name.split("-", 1)[1]
            peer = "cublas"
            ratios = [r["ratio_to_reference"] for r in ok.values() if r.get("ratio_to_reference")]
            ptf = statistics.median(r["reference_tflops"] for r in ok.values()) if ok else None
            vs_tri = []
        else:
            continue  # a bundle this table has no peer for
        ratio = statistics.median(ratios) if ratios else None
        bar = BARS.get(label)
        verdict = "" if ratio is None or bar is None else ("met" if ratio >= bar else "NOT met")
        fmt = lambda x, f="%.1f": "-" if x is None else f % x
        lines.append(f"| {label} | {name} | {len(ok)}/{len(rounds)} | {fmt(tf)} | {peer} | {fmt(ptf)} | "
                     f"{fmt(ratio, '%.3f')} | {bar} {verdict} | "
                     f"{fmt(statistics.median(vs_tri) if vs_tri else None, '%.2fx')} |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
