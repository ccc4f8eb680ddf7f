"""Checks of register-a-hold.test on a bundle's PTX and manifest."""
import json
import os
import re
import sys

STORE = "@p st.global.u32"


def ptx(bundle):
    return open(os.path.join(bundle, "kernel.ptx")).read()


def smem(bundle):
    return json.load(open(os.path.join(bundle, "manifest.json")))["dynamic_smem_bytes"]


mode = sys.argv[1]
if mode == "hold":
    text = ptx(sys.argv[2])
    # One store per kernel loop that runs the softmax before MMA1 retires (the prologue's, the
    # steady state's and the peeled last iteration's), each right before a wait for every group.
    stores = [m.start() for m in re.finditer(re.escape(STORE), text)]
    assert len(stores) == 3, len(stores)
    # Each on a flag read right there (on a flag read once before the loop, ptxas moved the
    # wait past the store: bench/results/register-a-hold-h100-2026-11-27).
    assert text.count("%globaltimer_hi") == 3, text.count("%globaltimer_hi")
    for at in stores:
        before = text[:at]
        assert before.rfind("%globaltimer_hi") > before.rfind("wgmma.wait_group"), before[-400:]
        after = text[at:]
        nxt = re.search(r"wgmma\.wait_group\.sync\.aligned (\d+);", after)
        assert nxt and nxt.group(1) == "0", after[:400]
        # Nothing but the asm's own markers between the store and that wait.
        between = after[len(STORE):nxt.start()]
        assert "ex2" not in between and "wgmma.mma_async" not in between, between
elif mode == "none":
    text = ptx(sys.argv[2])
    assert STORE not in text and "%globaltimer_hi" not in text
elif mode == "same-smem":
    assert smem(sys.argv[2]) == smem(sys.argv[3]), (smem(sys.argv[2]), smem(sys.argv[3]))
else:
    sys.exit("register-a-hold.test.py: unknown mode " + mode)
