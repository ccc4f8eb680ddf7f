#!/usr/bin/env bash
# Which kind of store the probes can afford: attention d64 and d128 with every CTA recording,
# their instrumented PTX's record stores rewritten, assembled here by ptxas, run (and verified)
# on the GPU host; the overhead is then each CTA's own cost. The edits rewrite the records as
# the lowering emitted them up to commit e917ddf (a stamp and tag before the unit, three 8-byte
# stores after it): build that commit to repeat them; on a newer build only "full" applies.
#   full    the probes as the lowering emits them: three st.global.u64 a record
#   one     only the first of the three stores (the start stamp)
#   shared  the three stores to shared memory (one scratch slot past the kernel's dynamic
#           shared memory, the manifest's size raised by 64 bytes): what staging would cost
#   nostamp3, nostamp1   every %globaltimer read as 0, with three stores a record or one
#   never   the three stores predicated on a stamp that never matches: the instructions
#           issued, the timers read, no store performed
#   v4      one st.global.v4.u32 of {start lo, end lo, unit, iteration} a record (at the record's
#           address rounded down to 16 bytes: the records overlap, only the cost is measured)
#   clock, clock1, clockv4   full, one and v4 with %clock64 read where %globaltimer was
#   boundary  one record at each unit's start, nothing after it: the start stamp and the tag as
#           one st.global.v4.u32 (to one 64-byte slot of the buffer per warp group and CTA: only
#           the cost is measured), the records' stores deleted (so the end stamps and tags after
#           the units are dead)
# Also the SASS around the records' stores (the GPU host has cuobjdump).
# Build machine:  bash bench/timeline/probe-cost/store-kinds.sh prepare
# GPU host:       [ROUNDS=N] bash bench/timeline/probe-cost/store-kinds.sh run OUT  (carry .dev/store-kinds)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/store-kinds
case ${1:?prepare or run} in
  prepare)
    rm -rf "$DEV" && mkdir -p "$DEV/base"
    # Every CTA recording, 4096 CTAs each (a d64 launch of 8192 recording CTAs makes a trace
    # the runner takes minutes to write).
    for a in attention_fwd_d64:4096:B=2,H=32,S=8192 attention_fwd_d128:4096:B=4,H=16,S=8192; do
      IFS=: read -r name n sizes <<< "$a"
      args=$(echo "$sizes" | tr ',' '\n' | sed 's/^/--size=/' | tr '\n' ' ')
      # shellcheck disable=SC2086
      "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/assets/$name.mlir" "$DEV/base/$name--all" $args \
        --with-timeline --timeline-ctas="$n" --timeline-capacity=640
    done
    for b in "$DEV"/base/*/; do
      for v in ${VARIANTS:-full one shared nostamp3 nostamp1 never v4}; do
        d=$DEV/$(basename "$b")--$v
        cp -r "$b" "$d"
        python3 - "$d" "$v" "$ROOT/bench/timeline/probe-cost" <<'PY'
import json, re, sys
sys.path.insert(0, sys.argv[3])
import ptx_edit
d, v = sys.argv[1], sys.argv[2]
ptx = open(f"{d}/timeline.ptx").read()
block = re.compile(r"\{\n\.reg \.pred p;\n\.reg \.u64 t;\nsetp\.ne\.b32 p, (%r\d+), 0;\n"
                   r"@p mov\.u64 t, %globaltimer;\n"
                   r"@p st\.global\.u64 \[(%rd\d+)\], (%rd\d+);\n@p st\.global\.u64 \[\2\+8\], t;\n"
                   r"@p st\.global\.u64 \[\2\+16\], (%rd\d+);\n\}")
man = json.load(open(f"{d}/manifest.json"))
s = man["dynamic_smem_bytes"]
def edit(m):
    flag, a, start, tag = m.groups()
    head = f"{{\n.reg .pred p;\n.reg .u64 t;\nsetp.ne.b32 p, {flag}, 0;\n@p mov.u64 t, %globaltimer;\n"
    if v in ("one", "nostamp1", "clock1"):
        return head + f"@p st.global.u64 [{a}], {start};\n}}"
    if v == "shared":
        return head + (f"@p st.shared.u64 [stagecraft_dynamic_smem+{s}], {start};\n"
                       f"@p st.shared.u64 [stagecraft_dynamic_smem+{s + 8}], t;\n"
                       f"@p st.shared.u64 [stagecraft_dynamic_smem+{s + 16}], {tag};\n}}")
    if v == "never":
        return ("{\n.reg .pred p, q;\n.reg .u64 t;\n" + head[2:].split("\n", 2)[2] +
                "setp.eq.u64 q, t, 1;\nand.pred q, q, p;\n"
                f"@q st.global.u64 [{a}], {start};\n@q st.global.u64 [{a}+8], t;\n"
                f"@q st.global.u64 [{a}+16], {tag};\n}}")
    if v in ("v4", "clockv4"):
        return (f"{{\n.reg .pred p;\n.reg .u64 t, a;\n.reg .b32 s0, s1, e0, e1, u0, u1;\n"
                f"setp.ne.b32 p, {flag}, 0;\n@p mov.u64 t, %globaltimer;\n"
                f"mov.b64 {{s0, s1}}, {start};\nmov.b64 {{e0, e1}}, t;\nmov.b64 {{u0, u1}}, {tag};\n"
                f"and.b64 a, {a}, -16;\n@p st.global.v4.u32 [a], {{s0, e0, u0, u1}};\n}}")
    return m.group(0)
if v == "boundary":
    stamp = re.compile(r"mov\.u64 (%rd\d+), 0;\n@p mov\.u64 \1, %globaltimer;")
    tag = re.compile(r"mov\.b64 (%rd\d+), \{(%r\d+), (%r\d+)\};")
    out, last, pos = [], None, 0
    for m in re.finditer(f"{stamp.pattern}|{tag.pattern}", ptx):
        if m.group(1):
            last = m.group(1)
            continue
        t, u, i = m.group(2), m.group(3), m.group(4)
        out.append(ptx[pos:m.start()])
        out.append(f"{{\n.reg .pred p;\n.reg .b32 s0, s1;\nmov.b64 {t}, {{{u}, {i}}};\n"
                   f"setp.ne.u64 p, {last}, 0;\n"
                   f"mov.b64 {{s0, s1}}, {last};\n@p st.global.v4.u32 [%bnd0], {{s0, s1, {u}, {i}}};\n}}")
        pos = m.end()
    ptx = "".join(out) + ptx[pos:]
    ptx = ptx_edit.with_warp_group_slot(ptx)
    def edit(m):
        return "{\n}"
ptx, n = block.subn(edit, ptx)
assert n > 0 or v == "full", "no record stores of the old layout found (see the header)"
if v.startswith("nostamp"):
    ptx = ptx.replace("%globaltimer", "0")
if v.startswith("clock"):
    ptx = ptx.replace("%globaltimer", "%clock64")
open(f"{d}/timeline.ptx", "w").write(ptx)
if v == "shared":
    man["dynamic_smem_bytes"] = s + 64
    json.dump(man, open(f"{d}/manifest.json", "w"), indent=1)
print(d, v, n, "records edited")
PY
        "${PTXAS:-/usr/local/cuda/bin/ptxas}" -arch=sm_90a "$d/timeline.ptx" -o "$d/timeline.cubin"
      done
    done
    rm -rf "$DEV/base"
    cp "$ROOT/build/bin/stagecraft-run" "$DEV/" ;;
  run)
    OUT=${2:?OUT}
    mkdir -p "$OUT"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
    for b in "$DEV"/*--full/; do
      cuobjdump -sass "$b/timeline.cubin" | grep -n -B12 -A6 'STG' > "$OUT/$(basename "$b").stg-sass.txt" || true
    done
    for r in $(seq 1 "${ROUNDS:-1}"); do
      for b in "$DEV"/*/; do
        timeout ${RUN_TIMEOUT:-90} "$DEV/stagecraft-run" "$b" --trace /tmp/sk.trace.json > /tmp/sk.json 2> /tmp/sk.err || true
        echo "$r $(basename "$b") $(grep -o '"overhead":[^,}]*' /tmp/sk.json | head -1)" \
          "$(grep -o '"plain_median_us":[^,}]*' /tmp/sk.json | head -1)" \
          "$(grep -o '"instrumented_median_us":[^,}]*' /tmp/sk.json | head -1)" \
          "$(grep -o '"verified":[a-z]*' /tmp/sk.json | head -1)" "$(head -c 200 /tmp/sk.err)"
      done
    done | tee "$OUT/store-kinds.txt" ;;
esac
