"""What r01's example.cpp feeds a correct kernel: W drawn by its fillUniform (t[0], seed 1) in [-1, 1)
where the README says [-0.05, 0.05); one sequence of h_t = bf16(h_{t-1}) W + x_t (x in [-1,1)) for
T = 512 steps in plain Python (no numpy here). Prints the step where bf16(h) stops being finite."""
import random, struct, math
def fill(n, seed):
    M = 2**64 - 1; x = (seed * 0x9E3779B97F4A7C15 + 1) & M; out = []
    for i in range(n):
        x ^= (x << 13) & M; x ^= x >> 7; x ^= (x << 17) & M
        out.append((x >> 11) / 2.0**53 * 2 - 1)
    return out
def bf16(v):
    if not math.isfinite(v): return v
    try: u = struct.unpack("I", struct.pack("f", v))[0]
    except OverflowError: return math.copysign(math.inf, v)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    if u >> 32: return math.copysign(math.inf, v)
    r = struct.unpack("f", struct.pack("I", u & 0xFFFFFFFF))[0]
    return r
def run(W, label):
    rnd = random.Random(1); h = [0.0] * 128; first = None
    for t in range(512):
        hb = [bf16(x) for x in h]
        h = [sum(hb[k] * W[k][n] for k in range(128)) + bf16(rnd.uniform(-1, 1)) for n in range(128)]
        if first is None and not all(math.isfinite(bf16(x)) for x in h): first = t
        if first is not None and t > first + 3: break
    finite = [abs(x) for x in h if math.isfinite(x)]
    print(f"{label}: first non-finite bf16 h_t at t = {first}; at the end max|h| = {max(finite) if finite else 'none finite'}")
w = fill(128 * 128, 1); run([[bf16(w[k * 128 + n]) for n in range(128)] for k in range(128)], "example.cpp's W in [-1,1)")
r = random.Random(0); run([[bf16(r.uniform(-0.05, 0.05)) for n in range(128)] for k in range(128)], "README's W in [-0.05,0.05)")
