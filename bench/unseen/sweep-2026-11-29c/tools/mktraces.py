"""Mutated copies of test/Inputs/traces/gemm-ws-h100.trace.json into inputs/bad/trace_*.json."""
import json, copy
d = json.load(open("/work/main/test/Inputs/traces/gemm-ws-h100.trace.json"))
X = [e for e in d["traceEvents"] if e.get("ph") == "X"]
M = [e for e in d["traceEvents"] if e.get("ph") != "X"]
def w(name, dd): json.dump(dd, open(f"inputs/bad/trace_{name}.json", "w"))
def each(f):
    a = copy.deepcopy(d)
    for e in a["traceEvents"]:
        if e.get("ph") == "X": f(e)
    return a
w("negative_dur", each(lambda e: (e.update(dur=-5), e["args"].update(duration_ns=-5000))))
w("huge_iters", each(lambda e: e["args"].update(iteration=2**40, start_ns=2**62)))
w("unknown_pid", each(lambda e: e.update(pid=99, tid=99)))
w("iter_string", each(lambda e: e["args"].update(iteration="x")))
a = copy.deepcopy(d); a["traceEvents"] = M; w("no_events", a)
a = copy.deepcopy(d); ev = []
for i in range(200000):
    e = copy.deepcopy(X[i % len(X)]); e["args"]["iteration"] = i; e["args"]["start_ns"] = i * 100; e["ts"] = i * 0.1; ev.append(e)
a["traceEvents"] = M + ev; w("200k_events", a)
