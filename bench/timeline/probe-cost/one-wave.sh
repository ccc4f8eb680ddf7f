#!/usr/bin/env bash
# Where the records' +5-7% goes in a launch of one wave (bench/results/epilogue-zones-h100-
# 2026-11-27: the partial-tile GEMMs at 1000x1048x528, 40 CTAs, 4 recording, 9 iterations,
# where the slowest CTA sets the launch's time and a recording CTA is). The instrumented PTX of
# the 128x256 GEMM and the SwiGLU dual GEMM at that size, default 4 recording CTAs, rewritten:
#   full      as the lowering emits it
#   prefetch  every thread 0 of a warp group prefetches the event buffer's first line at the
#             entry (when the buffer is not null): the buffer's address translated before the
#             first record's store, which is the first access of this SM to that allocation
#   nostore   the records' stores deleted (the stamps' reads and the counters kept): the
#             instructions without the memory traffic
#   noproducer, noconsumers   only the producer's (its units' records), only the consumers'
#             records' stores deleted: whose records cost the launch
#   cshared   the consumers' records stored to a 16-byte scratch slot of shared memory past
#             the kernel's (the manifest's dynamic shared memory raised by 64 bytes)
#   cnotimer  the consumers' records store 0 for the stamp (no %globaltimer read)
#   cafter    the consumers' stamps read where they are, their stores moved after the unit's
#             wgmma.commit_group (the next one in the PTX, before the next record; the
#             epilogue's record, which has none, as it is)
#   relaxed   every plain mbarrier.arrive (the consumers' releases of a stage) made
#             .relaxed.cta instead of the default .release: whether the releases wait for
#             the records' global stores before them (an experiment only: a relaxed release
#             does not order a consumer's generic reads of the stage before the next load;
#             the PTX's .version raised to 8.6 for it)
#   v86       full with only the .version raised to 8.6 (relaxed's control)
#   noepilogue  only the epilogue records' stores deleted
#   cs, na, wt  every record stored with st.global.cs (streaming), .L1::no_allocate, .wt
#   epilast   the epilogue record's stamp read where it is, its store moved to just before the
#             next record (the end marker after the epilogue's stores): the epilogue's
#             fence.proxy.async (MEMBAR.ALL.CTA in the SASS) then has no record store to wait for
# Build machine:  bash bench/timeline/probe-cost/one-wave.sh prepare
# GPU host:       bash bench/timeline/probe-cost/ab-overhead.sh .dev/one-wave/bundles \
#                   .dev/one-wave/stagecraft-run OUT 4                 (carry .dev/one-wave)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/one-wave
case ${1:?prepare} in
  prepare)
    rm -rf "$DEV" && mkdir -p "$DEV/base" "$DEV/bundles"
    sizes=(--size=M=1000 --size=N=1048 --size=K=528)
    bash "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/assets/gemm.mlir" "$DEV/base/gemm" \
      "${sizes[@]}" --with-timeline
    bash "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/bench/unseen/swiglu_dual_gemm.mlir" \
      "$DEV/base/swiglu" "${sizes[@]}" --with-timeline
    for b in "$DEV"/base/*/; do
      for v in ${VARIANTS:-full prefetch nostore}; do
        d=$DEV/bundles/$(basename "$b")--$v
        cp -r "$b" "$d"
        python3 - "$d" "$v" "$ROOT/bench/timeline/probe-cost" <<'PY'
import json, re, sys
sys.path.insert(0, sys.argv[3])
import ptx_edit
d, v = sys.argv[1], sys.argv[2]
ptx = open(f"{d}/timeline.ptx").read()
record = re.compile(r"@p st\.global\.v4\.b32 \[%rd\d+\], \{lo, hi, (%r\d+), [^}]*\};\n")
# A record's unit is a register the PTX sets to the unit's id (mov.b32 %rN, ID;).
ids = {m.group(1): int(m.group(2)) for m in re.finditer(r"mov\.b32 \t?(%r\d+), (-?\d+);", ptx)}
man = json.load(open(f"{d}/manifest.json"))["timeline"]
producer = {u["id"] for u in man["units"]
            if man["warp_groups"][0]["role"] == "producer" and u["group"] == 0}
def delete_if(keep_unit):
    def edit(m):
        unit = ids.get(m.group(1))
        return m.group(0) if unit is None or unit < 0 or keep_unit(unit) else ""
    out, n = record.subn(edit, ptx)
    assert out != ptx, "no record deleted"
    return out
if v == "prefetch":
    buf = ptx_edit.buffer_param(ptx)
    regs = re.search(r"^\t\.reg \.b64 \t%rd<\d+>;\n", ptx, re.M)
    ptx = ptx[:regs.end()] + (
        "{\n.reg .u64 b;\n.reg .u32 w;\n.reg .pred p, q;\n"
        f"ld.param.u64 b, [{buf}];\nsetp.ne.u64 p, b, 0;\n"
        "mov.u32 w, %tid.x;\nand.b32 w, w, 127;\nsetp.eq.and.u32 q, w, 0, p;\n"
        "@q prefetch.global.L2 [b];\n}\n") + ptx[regs.end():]
elif v == "nostore":
    ptx, n = record.subn("", ptx)
    assert n > 0, "no records found"
elif v in ("cshared", "cnotimer", "cafter"):
    block = re.compile(r"\{\n\.reg \.pred p;\n\.reg \.u64 t;\n\.reg \.b32 lo, hi;\n"
                       r"setp\.ne\.b32 p, (%r\d+), 0;\n@p mov\.u64 t, %globaltimer;\n"
                       r"@p mov\.b64 \{lo, hi\}, t;\n"
                       r"@p st\.global\.v4\.b32 \[(%rd\d+)\], \{lo, hi, (%r\d+), ([^}]*)\};\n\}")
    manifest = json.load(open(f"{d}/manifest.json"))
    scratch = manifest["dynamic_smem_bytes"]
    commit = "wgmma.commit_group.sync.aligned;"
    edits = []  # (start, end, text) on the original PTX
    for m in block.finditer(ptx):
        flag, addr, unit, it = m.groups()
        if ids.get(unit) is None or ids[unit] < 0 or ids[unit] in producer:
            continue
        head = f"{{\n.reg .pred p;\n.reg .u64 t;\n.reg .b32 lo, hi;\nsetp.ne.b32 p, {flag}, 0;\n"
        if v == "cshared":
            edits.append((m.start(), m.end(), head + "@p mov.u64 t, %globaltimer;\n"
                          "@p mov.b64 {lo, hi}, t;\n@p st.shared.v4.b32 "
                          f"[stagecraft_dynamic_smem+{scratch}], {{lo, hi, {unit}, {it}}};\n}}"))
        elif v == "cnotimer":
            edits.append((m.start(), m.end(), head + f"@p st.global.v4.b32 [{addr}], {{0, 0, {unit}, {it}}};\n}}"))
        else:
            # Only a unit whose wgmma follows it before the next record (not the epilogue).
            nxt = ptx.find("@p mov.u64 t, %globaltimer;", m.end())
            at = ptx.find(commit, m.end())
            if at < 0 or (0 <= nxt < at):
                continue
            k = len(edits) // 2
            edits.append((m.start(), m.end(), "{\n.reg .pred p;\n"
                          f"setp.ne.b32 p, {flag}, 0;\n@p mov.u64 %cst{k}, %globaltimer;\n}}"))
            at += len(commit)
            edits.append((at, at, "\n" + head + f"@p mov.b64 {{lo, hi}}, %cst{k};\n"
                          f"@p st.global.v4.b32 [{addr}], {{lo, hi, {unit}, {it}}};\n}}"))
    assert edits, "no consumer records found"
    for start, end, text in sorted(edits, reverse=True):
        ptx = ptx[:start] + text + ptx[end:]
    if v == "cafter":
        regs = re.search(r"^\t\.reg \.b64 \t%rd<\d+>;\n", ptx, re.M)
        ptx = ptx[:regs.end()] + f".reg .u64 %cst<{len(edits) // 2}>;\n" + ptx[regs.end():]
    if v == "cshared":
        manifest["dynamic_smem_bytes"] = scratch + 64
        json.dump(manifest, open(f"{d}/manifest.json", "w"), indent=1)
elif v in ("relaxed", "v86"):
    if v == "relaxed":
        ptx, n = re.subn(r"mbarrier\.arrive\.shared\.b64", "mbarrier.arrive.relaxed.cta.shared::cta.b64", ptx)
        assert n > 0, "no plain arrives found"
    ptx = re.sub(r"^\.version \d+\.\d+", ".version 8.6", ptx, count=1, flags=re.M)
elif v in ("cs", "na", "wt"):
    kind = {"cs": "st.global.cs.v4.b32", "na": "st.global.L1::no_allocate.v4.b32",
            "wt": "st.global.wt.v4.b32"}[v]
    ptx, n = re.subn(r"@p st\.global\.v4\.b32 ", f"@p {kind} ", ptx)
    assert n > 0, "no records found"
elif v == "noepilogue":
    epilogue = {u["id"] for u in man["units"] if u.get("kind") == "epilogue"}
    ptx = delete_if(lambda unit: unit not in epilogue)
elif v == "epilast":
    epilogue = {u["id"] for u in man["units"] if u.get("kind") == "epilogue"}
    block = re.compile(r"\{\n\.reg \.pred p;\n\.reg \.u64 t;\n\.reg \.b32 lo, hi;\n"
                       r"setp\.ne\.b32 p, (%r\d+), 0;\n@p mov\.u64 t, %globaltimer;\n"
                       r"@p mov\.b64 \{lo, hi\}, t;\n"
                       r"@p st\.global\.v4\.b32 \[(%rd\d+)\], \{lo, hi, (%r\d+), ([^}]*)\};\n\}")
    edits = []
    for m in block.finditer(ptx):
        flag, addr, unit, it = m.groups()
        if ids.get(unit) not in epilogue:
            continue
        k = len(edits) // 2
        edits.append((m.start(), m.end(), "{\n.reg .pred p;\n"
                      f"setp.ne.b32 p, {flag}, 0;\n@p mov.u64 %est{k}, %globaltimer;\n}}"))
        at = ptx.index("// begin inline asm\n\t{\n.reg .pred p;\n.reg .u64 t;", m.end())
        edits.append((at, at, "{\n.reg .pred p;\n.reg .b32 lo, hi;\n"
                      f"setp.ne.b32 p, {flag}, 0;\n@p mov.b64 {{lo, hi}}, %est{k};\n"
                      f"@p st.global.v4.b32 [{addr}], {{lo, hi, {unit}, {it}}};\n}}\n\t"))
    assert edits, "no epilogue records found"
    for start, end, text in sorted(edits, reverse=True):
        ptx = ptx[:start] + text + ptx[end:]
    regs = re.search(r"^\t\.reg \.b64 \t%rd<\d+>;\n", ptx, re.M)
    ptx = ptx[:regs.end()] + f".reg .u64 %est<{len(edits) // 2}>;\n" + ptx[regs.end():]
elif v == "noproducer":
    ptx = delete_if(lambda unit: unit not in producer)
elif v == "noconsumers":
    ptx = delete_if(lambda unit: unit in producer)
open(f"{d}/timeline.ptx", "w").write(ptx)
PY
        "${PTXAS:-/usr/local/cuda/bin/ptxas}" -arch=sm_90a "$d/timeline.ptx" -o "$d/timeline.cubin"
      done
    done
    cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
    du -sh "$DEV" ;;
esac
