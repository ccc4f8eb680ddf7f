#!/usr/bin/env python3
"""The steady loop of each kernel's consumer in its SASS (cuobjdump -sass): the smallest
backward branch's range that holds wgmma (HGMMA) and no exit or barrier retry, and its
instructions by opcode, register moves (MOV, IMAD.MOV) first.

  bench/timeline/carried-moves/sass_loops.py FILE.kernel.sass...
"""
import collections
import re
import sys


def instructions(path):
    out = []
    for line in open(path):
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m:
            out.append((int(m.group(1), 16), m.group(2).strip()))
    return out


def steady_loop(ins):
    at = {a: i for i, (a, _) in enumerate(ins)}
    best = None
    for i, (a, text) in enumerate(ins):
        m = re.search(r"BRA\s+0x([0-9a-f]+)", text)
        if not m:
            continue
        target = int(m.group(1), 16)
        if target >= a or target not in at:
            continue
        body = ins[at[target]:i + 1]
        if not any("HGMMA" in t for _, t in body):
            continue
        if any("EXIT" in t or "NANOSLEEP" in t for _, t in body):
            continue
        if best is None or len(body) < len(best):
            best = body
    return best


def opcode(text):
    op = re.sub(r"^@!?U?P\w+\s+", "", text).split()[0]
    return "IMAD.MOV" if op.startswith("IMAD.MOV") else op.split(".")[0]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("| kernel | loop instructions | MOV | IMAD.MOV | HGMMA | MUFU | FFMA | FMUL |")
    print("|---|---|---|---|---|---|---|---|")
    for path in sys.argv[1:]:
        body = steady_loop(instructions(path))
        name = path.split("/")[-1].replace(".kernel.sass", "")
        if body is None:
            print(f"| {name} | no steady loop found | | | | | | |")
            continue
        ops = collections.Counter(opcode(t) for _, t in body)
        print(f"| {name} | {len(body)} | {ops['MOV']} | {ops['IMAD.MOV']} | {ops['HGMMA']} | "
              f"{ops['MUFU']} | {ops['FFMA']} | {ops['FMUL']} |")


if __name__ == "__main__":
    main()
