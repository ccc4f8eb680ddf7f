"""Prints a GEMM kernel whose row offset is computed through N chained index
additions: make-deep-chain.py GEMM.mlir N (for deep-chain.test)."""
import sys

text = open(sys.argv[1]).read()
n = int(sys.argv[2])
anchor = "    %m0 = arith.muli %pm, %c128 : index\n"
assert anchor in text, "the gemm asset changed: update make-deep-chain.py"
chain = "".join(f"    %x{i + 1} = arith.addi %x{i}, %c0 : index\n" for i in range(n))
sys.stdout.write(text.replace(
    anchor,
    "    %x0 = arith.muli %pm, %c128 : index\n" + chain +
    f"    %m0 = arith.addi %x{n}, %c0 : index\n"))
