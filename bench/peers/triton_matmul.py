"""A Triton GEMM in the design of Triton's matmul tutorial (03-matrix-multiplication):
one program per C tile, tiles visited in groups of GROUP_M rows of tiles so that
neighbouring programs share A and B tiles in L2, tl.dot over K with the
accumulator in fp32, software pipelining by num_stages. Written here (the
tutorials are not part of the installed triton package).

C[M, N] = A[M, K] @ B[N, K]^T in bf16, the project's GEMM (assets/gemm.mlir).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                   stride_am, stride_ak, stride_bn, stride_bk, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                   GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * tiles_n
    group = pid // per_group
    first_m = group * GROUP_M
    rows_in_group = tl.minimum(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (pid % per_group) % rows_in_group
    tile_n = (pid % per_group) // rows_in_group

    # Rows and columns past the edge wrap around (they read valid memory and their results
    # are not stored), so the loads need no mask in M and N; K is masked. (No contiguity
    # hints on rm/rn: the operands are K-major, and at a wrapped edge they would be false.)
    rm = (tile_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    rn = (tile_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=rk[None, :] < left, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    cm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(cm[:, None] < M) & (cn[None, :] < N))


# (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages): the tutorial's large-tile
# configurations for Hopper-sized shared memory.
CONFIGS = [
    (128, 256, 64, 8, 8, 3),
    (256, 128, 64, 8, 8, 3),
    (128, 128, 64, 8, 4, 4),
    (128, 256, 64, 8, 8, 4),
]


def config_name(cfg):
    bm, bn, bk, g, w, s = cfg
    return f"{bm}x{bn}x{bk} g{g} w{w} s{s}"


def triton_matmul(a, b, cfg):
    """a [M, K], b [N, K] (K-major, like a weight) -> a @ b.T, in a's dtype."""
    M, K = a.shape
    N = b.shape[0]
    bm, bn, bk, g, w, s = cfg
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
    _matmul_kernel[grid](a, b, c, M, N, K,
                         a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                         BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=g, num_warps=w, num_stages=s)
    return c
