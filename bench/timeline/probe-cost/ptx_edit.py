"""PTX edits shared by the probe-cost scripts (store-kinds.sh, record-address.sh, one-wave.sh)."""
import re

# One record as the lowering emits it (TimelineProbes::mark): the flag, the record's address, the
# unit's register, the iteration.
RECORD = re.compile(r"\{\n\.reg \.pred p;\n\.reg \.u64 t;\n\.reg \.b32 lo, hi;\n"
                    r"setp\.ne\.b32 p, (%r\d+), 0;\n@p mov\.u64 t, %globaltimer;\n"
                    r"@p mov\.b64 \{lo, hi\}, t;\n"
                    r"@p st\.global\.v4\.b32 \[(%rd\d+)\], \{lo, hi, (%r\d+), ([^}]*)\};\n\}")


def declare(ptx, text):
    """`text` (register declarations, set-up) at the entry, after its .b64 registers."""
    regs = re.search(r"^\t\.reg \.b64 \t%rd<\d+>;\n", ptx, re.M)
    return ptx[:regs.end()] + text + ptx[regs.end():]


def apply(ptx, edits):
    """The PTX with `edits`, (start, end, text) on it, made (from the last back)."""
    for start, end, text in sorted(edits, reverse=True):
        ptx = ptx[:start] + text + ptx[end:]
    return ptx


def buffer_param(ptx):
    """The entry's last .u64 parameter: the instrumented kernel's event buffer."""
    names = re.findall(r"\.param \.u64 [^\n]*?(\w+_param_\d+)", ptx)
    return max(names, key=lambda n: int(n.rsplit("_", 1)[1]))


def with_warp_group_slot(ptx):
    """Defines %bnd0 at the entry: a 64-byte slot of the event buffer per warp group of each CTA
    (one address for all of them made the L2 a hot spot: +100%), made once, so that an edit can
    store there instead of at the record's own address."""
    return declare(ptx, (
        ".reg .u64 %bnd<2>;\n.reg .b32 %bndr<8>;\n"
        f"ld.param.u64 %bnd0, [{buffer_param(ptx)}];\ncvta.to.global.u64 %bnd0, %bnd0;\n"
        "mov.u32 %bndr0, %ctaid.x;\nmov.u32 %bndr1, %ctaid.y;\nmov.u32 %bndr2, %ctaid.z;\n"
        "mov.u32 %bndr3, %nctaid.x;\nmov.u32 %bndr4, %nctaid.y;\n"
        "mad.lo.u32 %bndr5, %bndr2, %bndr4, %bndr1;\nmad.lo.u32 %bndr5, %bndr5, %bndr3, %bndr0;\n"
        "mov.u32 %bndr6, %tid.x;\nshr.u32 %bndr6, %bndr6, 7;\nmad.lo.u32 %bndr5, %bndr5, 4, %bndr6;\n"
        "mul.wide.u32 %bnd1, %bndr5, 64;\nadd.s64 %bnd0, %bnd0, %bnd1;\n"))
