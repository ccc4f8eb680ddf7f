#!/usr/bin/env python3
"""The kernel's argument reduction for math.sin / math.cos (passes/Lowering/patterns/
Elementwise.cpp), emulated in f32 on the build machine: k = rint(f32(x * f32(1/2pi))),
r = fma(-k, hi, x), r = fma(-k, lo, r) with 2pi = hi + lo in two f32 parts. For |x| up to each
magnitude it prints the largest |r| after that step and after a second one (sin.approx / cos.approx are specified on [-pi, pi]) and the
largest error of sin(r) against sin(x) (exact arithmetic on the f32 input), over random inputs.

  python3 bench/math/sincos_reduction.py
"""
import math
import random
import struct
from fractions import Fraction


def f32(x):
    return struct.unpack("f", struct.pack("f", float(x)))[0]


TWO_PI = 2 * math.pi
HI = f32(TWO_PI)
LO = f32(TWO_PI - HI)
INV = f32(1 / TWO_PI)


def reduce_once(x):
    k = float(round(f32(x * INV)))  # Python rounds half to even, as rint
    r = f32(float(Fraction(-k) * Fraction(HI) + Fraction(x)))
    return f32(float(Fraction(-k) * Fraction(LO) + Fraction(r)))


def reduce(x):
    """The kernel's: one step. Twice keeps |r| within pi at every magnitude (the second column
    of the table), measured 12% slower on a sin/cos-bound kernel for little accuracy at 1e7."""
    return reduce_once(x)


def main():
    random.seed(1)
    print("| |x| up to | largest |r|, one step (the kernel's) | largest |r|, two steps | largest |sin(r) - sin(x)|, one step |")
    print("|---|---|---|---|")
    for mag in (1e1, 1e3, 1e5, 1e6, 1e7, 3e7, 1e8, 1e9):
        worst_once = worst_r = worst_err = 0.0
        for _ in range(4000):
            x = f32(random.uniform(-mag, mag))
            r = reduce(x)
            worst_once = max(worst_once, abs(reduce_once(reduce_once(x))))
            worst_r = max(worst_r, abs(r))
            worst_err = max(worst_err, abs(math.sin(r) - math.sin(x)))
        print(f"| {mag:g} | {worst_r:.3f} | {worst_once:.3f} | {worst_err:.1e} |")


if __name__ == "__main__":
    main()
