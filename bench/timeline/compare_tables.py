#!/usr/bin/env python3
"""Which calibration groups a model change moves: compares two tables of calibrate.py.

  bench/timeline/compare_tables.py BEFORE.md AFTER.md

BEFORE and AFTER are what `calibrate.py --table` writes (or what it prints: a fit's standard
output holds the same tables), e.g. docs/timeline-calibration.md against a trial's table:

  python3 bench/timeline/calibrate.py --params trial.json --table /tmp/trial.md
  python3 bench/timeline/compare_tables.py docs/timeline-calibration.md /tmp/trial.md

Prints the ranked groups of the current lowering (the bar) whose verdict changed, with their
Spearman and median error on both sides, then both summaries' bar and objective lines.
Exits 2 when a file has no ranked groups (not a calibration table).
"""
import sys

# The bar's table (the current lowering's ranked groups on the H100) and only it has this header.
BAR_HEADER = "| results | kernel | size | schedules | spread | Spearman | median err | bar |"


def ranked_groups(path):
    """{(results, kernel, size): (Spearman, median error, verdict)} of the bar's table."""
    groups, inside = {}, False
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line == BAR_HEADER:
                inside = True
            elif not line.startswith("|"):
                inside = False
            elif inside and not line.startswith("|---"):
                cells = [c.strip() for c in line.strip("|").split("|")]
                verdict = "NOT met" if cells[7].startswith("NOT") else "met"
                groups[(cells[0], cells[1], cells[2])] = (cells[5], cells[6], verdict)
    return groups


def summary_lines(path):
    keep = ("current lowering, H100:", "objective")
    with open(path) as f:
        return [line.strip().lstrip("- ") for line in f if line.strip().lstrip("- ").startswith(keep)]


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    before, after = ranked_groups(argv[1]), ranked_groups(argv[2])
    for path, groups in ((argv[1], before), (argv[2], after)):
        if not groups:
            print(f"{path}: no ranked groups (not a calibrate.py table)", file=sys.stderr)
            return 2
    gained = lost = 0
    for key in sorted(set(before) & set(after)):
        b, a = before[key], after[key]
        if b[2] != a[2]:
            gained += a[2] == "met"
            lost += a[2] != "met"
            print(f"{' '.join(key)}: {b[0]} {b[1]} {b[2]} -> {a[0]} {a[1]} {a[2]}")
    only = set(before) ^ set(after)
    if only:
        print(f"{len(only)} groups in one table only: {', '.join(' '.join(k) for k in sorted(only)[:5])}"
              + (" ..." if len(only) > 5 else ""))
    print(f"gained {gained}, lost {lost}")
    for path in argv[1:]:
        print(f"{path}:")
        for line in summary_lines(path):
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
