#!/usr/bin/env python3
"""Checks a measured trace from stagecraft-run on a GPU host.

  check_trace.py RESULT.json TRACE.json [--max-overhead 0.05]

RESULT.json is the runner's JSON line for `stagecraft-run BUNDLE --trace TRACE.json` (or a
--serve reply with "trace": true, then TRACE.json may be "-": only the inline events are
checked). Verifies: the run is ok and verified; its "trace" object has the overhead, one entry
per sampled CTA with an SM, on distinct SMs, and events whose durations are positive and whose
iterations rise per (warp group, unit); the Chrome trace-event JSON has a process per CTA named
"CTA c (SM m)", named threads, one complete event per inline event, and otherData naming the
kernel and listing the units, warp groups and (when the bundle has schedule.json) the schedule,
as the result's trace does. Prints a summary
(overhead, events, the %globaltimer granularity seen) and exits non-zero on a failed check.
"""
import argparse
import json
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("result")
    ap.add_argument("trace")
    ap.add_argument("--max-overhead", type=float, default=None,
                    help="fail when the overhead is above this (default: report only)")
    a = ap.parse_args()
    r = json.loads(open(a.result).read().strip().splitlines()[-1])
    if r.get("status") != "ok":
        fail(f"status {r.get('status')}: {r.get('error')}")
    if not r.get("verified"):
        fail("the output was not verified")
    t = r.get("trace")
    if not isinstance(t, dict) or "error" in t:
        fail(f"no trace: {t}")
    overhead = t["overhead"]
    units = {u["id"]: u["name"] for u in t["units"]}
    wgs = {w["id"]: w["name"] for w in t["warp_groups"]}
    sms = [c["sm"] for c in t["ctas"] if c["sm"] is not None]
    if len(sms) != len(t["ctas"]):
        fail("a sampled CTA recorded nothing: " + json.dumps([c["cta"] for c in t["ctas"] if c["sm"] is None]))
    if len(set(sms)) != len(sms):
        print(f"note: sampled CTAs share SMs: {sms}")
    total = 0
    granularity = None
    for c in t["ctas"]:
        last = {}
        stamps = {}
        for wg, unit, it, start, dur in c["events"]:
            total += 1
            if wg not in wgs or unit not in units:
                fail(f"CTA {c['cta']}: event names warp group {wg} / unit {unit} not in the lists")
            if dur < 0:
                fail(f"CTA {c['cta']}: negative duration")
            key = (wg, unit)
            if key in last and it < last[key]:
                fail(f"CTA {c['cta']} {wgs[wg]} {units[unit]}: iteration {it} after {last[key]}")
            last[key] = it
            stamps.setdefault(wg, []).extend([start, start + dur])
        for wg, s in stamps.items():
            s = sorted(set(s))
            gaps = [b - a for a, b in zip(s, s[1:]) if b > a]
            if gaps:
                g = min(gaps)
                granularity = g if granularity is None else min(granularity, g)
    if total == 0:
        fail("no events")
    if a.trace != "-":
        doc = json.load(open(a.trace))
        events = doc["traceEvents"]
        procs = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
        threads = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
        complete = [e for e in events if e["ph"] == "X"]
        for e in complete:
            for k in ("name", "ts", "dur", "pid", "tid", "args"):
                if k not in e:
                    fail(f"trace event without {k}: {e}")
            if e["pid"] not in procs or (e["pid"], e["tid"]) not in threads:
                fail(f"trace event on an unnamed process/thread: {e}")
        for c in t["ctas"]:
            name = f"CTA {c['cta']} (SM {c['sm']})"
            if name not in procs.values():
                fail(f"no process named {name!r} in the trace (has {sorted(procs.values())})")
        if len(complete) != total:
            fail(f"the trace has {len(complete)} complete events, the result {total}")
        # What the app checks a loaded trace with (its kernel, units and their schedule groups,
        # warp groups, and the bundle's schedule.json when it had one).
        other = doc.get("otherData", {})
        if other.get("units") != t["units"] or other.get("warp_groups") != t["warp_groups"]:
            fail("the trace's otherData does not list the result's units and warp groups")
        if not other.get("kernel"):
            fail("the trace's otherData does not name its kernel")
        if other.get("schedule") != t.get("schedule"):
            fail("the trace's otherData.schedule differs from the result's trace.schedule")
        if not isinstance(other.get("schedule"), dict):
            print("note: the trace does not carry its schedule (the bundle has no schedule.json)")
    # With an idle launch (the instrumented kernel recording nothing), the overhead's parts.
    split = ""
    if "idle_median_us" in t:
        if a.trace and json.load(open(a.trace)).get("otherData", {}).get("idle_median_us") != t["idle_median_us"]:
            fail("the trace's otherData.idle_median_us differs from the result's")
        split = (f"; of it the code {100 * t['code_overhead']:+.2f}% (idle {t['idle_median_us']:.1f} us), "
                 f"the records {100 * t['recording_overhead']:+.2f}%")
    print(f"ok: {len(t['ctas'])} CTAs on SMs {sms}, {total} events, overhead {100 * overhead:.2f}% "
          f"(plain {t['plain_median_us']:.1f} us, instrumented {t['instrumented_median_us']:.1f} us{split}), "
          f"smallest timestamp step {granularity} ns; warnings: {t['warnings']}")
    if a.max_overhead is not None and overhead > a.max_overhead:
        fail(f"overhead {100 * overhead:.2f}% is over {100 * a.max_overhead:.1f}%" + split)


if __name__ == "__main__":
    main()
