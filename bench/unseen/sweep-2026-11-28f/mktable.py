#!/usr/bin/env python3
"""run-summary.txt -> table.md (last line per tag wins); C75xx notes from each bundle's ptxas.txt."""
import re, os
rows = {}
for l in open("run-summary.txt"):
    f = l.rstrip("\n").split("\t")
    rows[f[0]] = f
out = ["| loop / config | compile | timeline | reference | ptxas regs | spill bytes | note |", "|---|---|---|---|---|---|---|"]
for tag, f in rows.items():
    kv = dict(x.split("=", 1) for x in f[1:] if "=" in x and not x.startswith('"'))
    c = kv.get("compile"); t = kv.get("timeline"); r = kv.get("ref")
    comp = "compiled" if c == "0" else ("CRASH (segfault)" if c == "139" else "refused")
    build = f[8] if len(f) > 8 else ""
    tl = "ok" if t == "0" and "true" in build else ("buildable=false" if t == "0" else f"exit {t}")
    ref = "ok" if r == "0" else f"exit {r}"
    notes = ""
    p = f"/tmp/sweep6/out/{tag}/ptxas.txt"
    if os.path.exists(p):
        n = sorted(set(re.findall(r"C75\d\d", open(p).read())))
        notes = " ".join(n)
    err = kv.get("err", "")
    err = re.sub(r"^\S+\.mlir:\d+:\d+: error: ", "", err)[:110]
    note = (notes + " " + err).strip().replace("|", "/")
    if c == "139": note = "stagecraft-compile segfaults in f32PairToFp8 (writeStagingPanel): see B1"
    out.append(f"| {tag} | {comp} | {tl} | {ref} | {kv.get('regs','')} | {kv.get('spill','')} | {note} |")
open("table.md", "w").write("\n".join(out) + "\n")
print(len(rows), "configurations")
