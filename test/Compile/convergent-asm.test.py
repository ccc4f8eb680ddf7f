"""Checks of convergent-asm.test on a bundle: kernel.ll, kernel.ptx and the MLIR handed to LLVM."""
import os
import re
import sys

bundle = sys.argv[1]
ll = open(os.path.join(bundle, "kernel.ll")).read()
ptx = open(os.path.join(bundle, "kernel.ptx")).read()
ir_dir = os.path.join(bundle, "ir")
mlir = open(os.path.join(ir_dir, sorted(os.listdir(ir_dir))[-1])).read()

# Every inline-asm call of an .aligned or .sync instruction carries a convergent attribute group.
groups = {m.group(1): m.group(2) for m in re.finditer(r"^attributes #(\d+) = \{([^}]*)\}", ll, re.M)}
calls = re.findall(r'call [^\n]*asm sideeffect "([^"]*)"[^\n]*?#(\d+)\s*$', ll, re.M)
synchronous = [(text, group) for text, group in calls if ".aligned" in text or ".sync" in text]
assert synchronous, "no warp-synchronous inline asm in kernel.ll"
for text, group in synchronous:
    assert "convergent" in groups.get(group, ""), (text, groups.get(group))
# Per-thread asm stays free to move (the hold's clock read).
for text, group in calls:
    if "%globaltimer" in text:
        assert "convergent" not in groups.get(group, ""), text

# LLVM made no copies: the PTX has no more group waits than the MLIR it was given.
def waits(text):
    return len(re.findall(r"wgmma\.wait[._]group", text))

assert waits(ptx) <= waits(mlir), (waits(ptx), waits(mlir))
