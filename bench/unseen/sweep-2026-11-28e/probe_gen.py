import sys
sys.path.insert(0, '.')
import gen
gen.OUT = '/tmp/sweep5/probe'
import os; os.makedirs(gen.OUT, exist_ok=True)
from gen import *
def E_plain(odt):
    def f(e):
        x = e.op("arith.mulf", "%acc", e.const("2.0"))
        e.store("C", x, odt); return x
    return f
for bn in (24, 40, 56):
    gemm(f"n{bn}_bf16", 128, bn, E_plain("bf16"), defaults=(2048, bn*16, 1024))
