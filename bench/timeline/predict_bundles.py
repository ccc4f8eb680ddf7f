#!/usr/bin/env python3
"""The timeline model's prediction of every bundle of a prepare script's folder (build machine),
from the bundle's own schedule.json and problem sizes and its source IR, found by the bundle's
name: sweep-ASSET--... (an asset under bench/gemm/sweep.py's schedules), NAME--LABEL where NAME
is a generated variant (test/variants/make_variants.py), an asset, a bench/unseen loop or a
loop the prepare script wrote into the folder's ir/.

  python3 bench/timeline/predict_bundles.py .dev/l2-rounds [PARAMS.json] > predictions.jsonl

One JSON line a bundle: bundle, pred_tflops, bound, iteration_ns, clock_ghz, waves, dram_tbps,
and whether the model runs its later rounds out of the L2 (l2_rounds). Written before the GPU
run and committed beside the prepare script, it is what a held-out test compares with.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.environ.get("STAGECRAFT_TIMELINE") or os.path.join(ROOT, "build", "bin", "stagecraft-timeline")


def main(argv):
    folder = argv[1]
    with tempfile.TemporaryDirectory() as vars_dir:
        subprocess.run([sys.executable, os.path.join(ROOT, "test", "variants", "make_variants.py"),
                        vars_dir, "--set", "all"], check=True, stdout=subprocess.DEVNULL)
        bundles = os.path.join(folder, "bundles")
        for name in sorted(os.listdir(bundles)):
            b = os.path.join(bundles, name)
            manifest = json.load(open(os.path.join(b, "manifest.json")))
            sizes = {k: v for k, v in manifest["problem"].items() if isinstance(v, int)}
            stem = name[len("sweep-"):].split("--")[0] if name.startswith("sweep-") else name.split("--")[0]
            candidates = [os.path.join(d, stem + ".mlir") for d in
                          (vars_dir, os.path.join(ROOT, "assets"), os.path.join(ROOT, "bench", "unseen"),
                           os.path.join(folder, "ir"))]
            ir = next((c for c in candidates if os.path.exists(c)), None)
            if ir is None:
                raise SystemExit(f"{name}: no IR named {stem} (a generated variant, an asset or a bench/unseen loop)")
            cmd = [TOOL, ir, "--json", "--schedule", os.path.join(b, "schedule.json")]
            cmd += [f"--size={k}={v}" for k, v in sizes.items()]
            if len(argv) > 2:
                cmd += ["--params", argv[2]]
            p = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            notes = p.get("notes", [])
            print(json.dumps({"bundle": name, "pred_tflops": p.get("tflops"), "bound": p.get("bound"),
                              "iteration_ns": p.get("iteration_ns"),
                              "clock_ghz": p.get("sm_clock_ghz"), "waves": p.get("waves"),
                              "dram_tbps": p.get("dram_tbps"),
                              "l2_rounds": any("the L2 holds" in n for n in notes)}))


if __name__ == "__main__":
    main(sys.argv)
