"""The instrumented PTX of a bundle rewritten one way (bench/timeline/probe-cost/one-wave.sh says
what each variant is): one_wave_edit.py BUNDLE VARIANT rewrites BUNDLE/timeline.ptx (and, for
cshared, its manifest) in place."""
import json
import re
import sys

import ptx_edit

STORE = re.compile(r"@p st\.global\.v4\.b32 \[%rd\d+\], \{lo, hi, (%r\d+), [^}]*\};\n")
COMMIT = "wgmma.commit_group.sync.aligned;"


class Kernel:
    def __init__(self, bundle):
        self.bundle = bundle
        self.ptx = open(f"{bundle}/timeline.ptx").read()
        self.manifest = json.load(open(f"{bundle}/manifest.json"))
        timeline = self.manifest["timeline"]
        # A record's unit is a register the PTX sets to the unit's id (mov.b32 %rN, ID;).
        self.ids = {m.group(1): int(m.group(2))
                    for m in re.finditer(r"mov\.b32 \t?(%r\d+), (-?\d+);", self.ptx)}
        self.producer = {u["id"] for u in timeline["units"]
                         if timeline["warp_groups"][0]["role"] == "producer" and u["group"] == 0}
        self.epilogue = {u["id"] for u in timeline["units"] if u.get("kind") == "epilogue"}

    def unit(self, register):
        """The unit id a record's register holds; None for an end marker or an unknown one."""
        u = self.ids.get(register)
        return None if u is None or u < 0 else u

    def delete_stores(self, of):
        """The stores of the records whose unit `of` holds for, deleted."""
        out = STORE.sub(lambda m: "" if self.unit(m.group(1)) is not None and of(self.unit(m.group(1)))
                        else m.group(0), self.ptx)
        assert out != self.ptx, "no record deleted"
        return out

    def records(self, of):
        """The record blocks whose unit `of` holds for."""
        return [m for m in ptx_edit.RECORD.finditer(self.ptx)
                if self.unit(m.group(3)) is not None and of(self.unit(m.group(3)))]


def head(flag):
    return f"{{\n.reg .pred p;\n.reg .u64 t;\n.reg .b32 lo, hi;\nsetp.ne.b32 p, {flag}, 0;\n"


def stamp_into(flag, register):
    return f"{{\n.reg .pred p;\nsetp.ne.b32 p, {flag}, 0;\n@p mov.u64 {register}, %globaltimer;\n}}"


def store_from(flag, register, addr, unit, it):
    return (f"{{\n.reg .pred p;\n.reg .b32 lo, hi;\nsetp.ne.b32 p, {flag}, 0;\n"
            f"@p mov.b64 {{lo, hi}}, {register};\n@p st.global.v4.b32 [{addr}], {{lo, hi, {unit}, {it}}};\n}}")


def edit(k, v):
    ptx = k.ptx
    consumer = lambda u: u not in k.producer  # noqa: E731
    if v == "full":
        return ptx
    if v == "prefetch":
        return ptx_edit.declare(ptx, (
            "{\n.reg .u64 b;\n.reg .u32 w;\n.reg .pred p, q;\n"
            f"ld.param.u64 b, [{ptx_edit.buffer_param(ptx)}];\nsetp.ne.u64 p, b, 0;\n"
            "mov.u32 w, %tid.x;\nand.b32 w, w, 127;\nsetp.eq.and.u32 q, w, 0, p;\n"
            "@q prefetch.global.L2 [b];\n}\n"))
    if v == "nostore":
        out, n = STORE.subn("", ptx)
        assert n > 0, "no records found"
        return out
    if v == "noproducer":
        return k.delete_stores(lambda u: u in k.producer)
    if v == "noconsumers":
        return k.delete_stores(consumer)
    if v == "noepilogue":
        return k.delete_stores(lambda u: u in k.epilogue)
    if v == "cshared":
        scratch = k.manifest["dynamic_smem_bytes"]
        k.manifest["dynamic_smem_bytes"] = scratch + 64
        json.dump(k.manifest, open(f"{k.bundle}/manifest.json", "w"), indent=1)
        return ptx_edit.apply(ptx, [
            (m.start(), m.end(), head(m.group(1)) + "@p mov.u64 t, %globaltimer;\n@p mov.b64 {lo, hi}, t;\n"
             f"@p st.shared.v4.b32 [stagecraft_dynamic_smem+{scratch}], {{lo, hi, {m.group(3)}, {m.group(4)}}};\n}}")
            for m in k.records(consumer)])
    if v == "cnotimer":
        return ptx_edit.apply(ptx, [
            (m.start(), m.end(),
             head(m.group(1)) + f"@p st.global.v4.b32 [{m.group(2)}], {{0, 0, {m.group(3)}, {m.group(4)}}};\n}}")
            for m in k.records(consumer)])
    if v in ("cafter", "epilast"):
        # cafter: a consumer unit's store after its wgmma's commit (the next one before the next
        # record: not the epilogue's); epilast: the epilogue's store just before the next record.
        edits, n = [], 0
        for m in k.records(consumer if v == "cafter" else lambda u: u in k.epilogue):
            flag, addr, unit, it = m.groups()
            nxt = ptx.find("@p mov.u64 t, %globaltimer;", m.end())
            if v == "cafter":
                at = ptx.find(COMMIT, m.end())
                if at < 0 or 0 <= nxt < at:
                    continue
                at += len(COMMIT)
                text = "\n" + store_from(flag, f"%cst{n}", addr, unit, it)
            else:
                at = ptx.index("// begin inline asm\n\t{\n.reg .pred p;\n.reg .u64 t;", m.end())
                text = store_from(flag, f"%cst{n}", addr, unit, it) + "\n\t"
            edits += [(m.start(), m.end(), stamp_into(flag, f"%cst{n}")), (at, at, text)]
            n += 1
        assert n > 0, "no records to move"
        return ptx_edit.declare(ptx_edit.apply(ptx, edits), f".reg .u64 %cst<{n}>;\n")
    if v in ("relaxed", "v86"):
        if v == "relaxed":
            ptx, n = re.subn(r"mbarrier\.arrive\.shared\.b64", "mbarrier.arrive.relaxed.cta.shared::cta.b64", ptx)
            assert n > 0, "no plain arrives found"
        return re.sub(r"^\.version \d+\.\d+", ".version 8.6", ptx, count=1, flags=re.M)
    if v in ("cs", "na", "wt"):
        kind = {"cs": "st.global.cs.v4.b32", "na": "st.global.L1::no_allocate.v4.b32",
                "wt": "st.global.wt.v4.b32"}[v]
        out, n = re.subn(r"@p st\.global\.v4\.b32 ", f"@p {kind} ", ptx)
        assert n > 0, "no records found"
        return out
    sys.exit(f"one_wave_edit.py: no variant {v!r}")


if __name__ == "__main__":
    k = Kernel(sys.argv[1])
    out = edit(k, sys.argv[2])
    open(f"{sys.argv[1]}/timeline.ptx", "w").write(out)
