// The runner's own GPU kernels: input initialisation, conversion to fp32, the error reduction
// and the softmax step of the attention reference.
//
// Compiled by nvcc into a fatbin at build time and embedded in stagecraft-run (see
// CMakeLists.txt), then loaded with cuModuleLoadData: the runner uses the driver API only, so it
// needs no CUDA runtime and no CUDA language support in the CMake project. Entry points are
// extern "C" so the host looks them up by plain name; the argument layouts must match
// runner_kernels.cpp.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <stdint.h>

// Must match dtypeCode in runner_kernels.cpp.
enum : int { kBF16 = 0, kF16 = 1, kF32 = 2, kI32 = 3, kE4M3 = 4, kE5M2 = 5, kE8M0 = 6 };

// e8m0: a bare exponent byte, 2^(b - 127); 0 is 2^-127 (an f32 subnormal), 255 is NaN.
__device__ __forceinline__ float e8m0ToFloat(uint8_t b) {
  if (b == 0xFF) return __int_as_float(0x7FC00000);
  return b == 0 ? __int_as_float(0x00400000) : __int_as_float(int(b) << 23);
}

__device__ __forceinline__ float fp8ToFloat(uint8_t b, __nv_fp8_interpretation_t kind) {
  return __half2float(__half(__nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t(b), kind)));
}

// Must match ErrorStatsDevice in runner_kernels.h.
struct ErrorStats {
  double sumSqDiff;
  double sumSqRef;
  unsigned int maxAbsDiffBits;  // non-negative floats order like their bit patterns
  unsigned int maxAbsRefBits;
  unsigned long long nonfinite;
  unsigned long long nonfiniteRef;
  unsigned long long excluded;
  unsigned long long unwritten;
};

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A uniform float in (0, 1) from (seed, counter): counter-based, so any element can be generated
// independently and the result does not depend on the launch shape.
__device__ __forceinline__ float uniformOpen01(uint64_t seed, uint64_t counter) {
  uint64_t h = splitmix64(seed ^ splitmix64(counter));
  return (float((h >> 40) & 0xFFFFFF) + 0.5f) * (1.0f / 16777216.0f);
}

__device__ __forceinline__ float loadAsFloat(const void *p, int dtype, uint64_t i) {
  switch (dtype) {
  case kBF16: return __bfloat162float(static_cast<const __nv_bfloat16 *>(p)[i]);
  case kF16: return __half2float(static_cast<const __half *>(p)[i]);
  case kF32: return static_cast<const float *>(p)[i];
  case kE4M3: return fp8ToFloat(static_cast<const uint8_t *>(p)[i], __NV_E4M3);
  case kE5M2: return fp8ToFloat(static_cast<const uint8_t *>(p)[i], __NV_E5M2);
  case kE8M0: return e8m0ToFloat(static_cast<const uint8_t *>(p)[i]);
  default: return float(static_cast<const int *>(p)[i]);
  }
}

// normal != 0: Box-Muller with (a, b) = (mean, std); else uniform in [a, b). FP8 values are the
// draws rounded to nearest (saturating to the largest finite value); an e8m0 scale is 2^x for the
// draw x rounded to an integer in -127..127, so uniform in [-2, 2) gives powers of two near 1.
extern "C" __global__ void stagecraft_fill_random(void *p, int dtype, uint64_t n, int normal, float a,
                                                  float b, uint64_t seed) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    float u1 = uniformOpen01(seed, 2 * i);
    float v;
    if (normal) {
      float u2 = uniformOpen01(seed, 2 * i + 1);
      v = a + b * sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);
    } else {
      // [a, b): rounding can land a draw on b itself where b - a is large (a page
      // table over 2^24 pages), an index one past the table.
      // In double: b - a overflows a float for a range near the type's limits
      // ([-3e38, 3e38) drew one value, infinity times u: the eleventh sweep).
      v = float(fmin(double(a) + (double(b) - double(a)) * double(u1), double(nextafterf(b, a))));
    }
    switch (dtype) {
    case kBF16: static_cast<__nv_bfloat16 *>(p)[i] = __float2bfloat16_rn(v); break;
    case kF16: static_cast<__half *>(p)[i] = __float2half_rn(v); break;
    case kF32: static_cast<float *>(p)[i] = v; break;
    case kE4M3: static_cast<uint8_t *>(p)[i] = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3); break;
    case kE5M2: static_cast<uint8_t *>(p)[i] = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E5M2); break;
    case kE8M0: static_cast<uint8_t *>(p)[i] = uint8_t(127 + int(fminf(fmaxf(rintf(v), -127.0f), 127.0f))); break;
    default: static_cast<int *>(p)[i] = int(floorf(v)); break;
    }
  }
}

extern "C" __global__ void stagecraft_to_f32(const void *src, int dtype, float *dst, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x)
    dst[i] = loadAsFloat(src, dtype, i);
}

// Accumulates, over out[i] vs ref[i]: sum (out-ref)^2, sum ref^2, max |out-ref|, max |ref| and
// the count of elements where out or ref is NaN or infinite (those never pass). Sums in double so
// that 2^26 elements lose nothing that matters. Elements that differ by more than `excludeAbove`
// are counted, not summed into the differences (an output's flips: error_metrics.h). Launch with
// 256 threads per block.
extern "C" __global__ void stagecraft_error_stats(const void *out, int dtype, const float *ref,
                                                  uint64_t n, ErrorStats *stats, float excludeAbove) {
  double sumSqDiff = 0.0, sumSqRef = 0.0;
  float maxDiff = 0.0f, maxRef = 0.0f;
  unsigned long long nonfinite = 0, nonfiniteRef = 0, excluded = 0, unwritten = 0;
  // The poison outputs start as (bytes 0xFF: a NaN of every float type), in the kernel's dtype
  // and as the reference's copy reads in fp32: an element both left so is written by no
  // program, in the IR (a store at a column offset leaves the columns before it).
  const unsigned int ones = 0xFFFFFFFFu;
  const bool floatOut = dtype != kI32;
  const unsigned int poisonRef = __float_as_uint(loadAsFloat(&ones, dtype, 0));
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    float o = loadAsFloat(out, dtype, i);
    float r = ref[i];
    if (!isfinite(o) || !isfinite(r)) {
      if (floatOut && __float_as_uint(r) == poisonRef && __float_as_uint(o) == poisonRef) {
        ++unwritten;
        continue;
      }
      ++nonfinite;
      nonfiniteRef += !isfinite(r);
      continue;
    }
    float d = fabsf(o - r);
    sumSqRef += double(r) * r;
    maxRef = fmaxf(maxRef, fabsf(r));
    if (d > excludeAbove) {
      ++excluded;
      continue;
    }
    sumSqDiff += double(d) * d;
    maxDiff = fmaxf(maxDiff, d);
  }
  // Warp, then block reduction.
  for (int off = 16; off > 0; off >>= 1) {
    sumSqDiff += __shfl_down_sync(0xffffffffu, sumSqDiff, off);
    sumSqRef += __shfl_down_sync(0xffffffffu, sumSqRef, off);
    maxDiff = fmaxf(maxDiff, __shfl_down_sync(0xffffffffu, maxDiff, off));
    maxRef = fmaxf(maxRef, __shfl_down_sync(0xffffffffu, maxRef, off));
    nonfinite += __shfl_down_sync(0xffffffffu, nonfinite, off);
    nonfiniteRef += __shfl_down_sync(0xffffffffu, nonfiniteRef, off);
    excluded += __shfl_down_sync(0xffffffffu, excluded, off);
    unwritten += __shfl_down_sync(0xffffffffu, unwritten, off);
  }
  __shared__ double sDiff[32], sRef[32];
  __shared__ float sMaxDiff[32], sMaxRef[32];
  __shared__ unsigned long long sNonfinite[32], sNonfiniteRef[32], sExcluded[32], sUnwritten[32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) {
    sDiff[warp] = sumSqDiff;
    sRef[warp] = sumSqRef;
    sMaxDiff[warp] = maxDiff;
    sMaxRef[warp] = maxRef;
    sNonfinite[warp] = nonfinite;
    sNonfiniteRef[warp] = nonfiniteRef;
    sExcluded[warp] = excluded;
    sUnwritten[warp] = unwritten;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int warps = (blockDim.x + 31) / 32;
    for (int w = 1; w < warps; ++w) {
      sumSqDiff += sDiff[w];
      sumSqRef += sRef[w];
      maxDiff = fmaxf(maxDiff, sMaxDiff[w]);
      maxRef = fmaxf(maxRef, sMaxRef[w]);
      nonfinite += sNonfinite[w];
      nonfiniteRef += sNonfiniteRef[w];
      excluded += sExcluded[w];
      unwritten += sUnwritten[w];
    }
    atomicAdd(&stats->sumSqDiff, sumSqDiff);
    atomicAdd(&stats->sumSqRef, sumSqRef);
    atomicMax(&stats->maxAbsDiffBits, __float_as_uint(maxDiff));
    atomicMax(&stats->maxAbsRefBits, __float_as_uint(maxRef));
    atomicAdd(&stats->nonfinite, nonfinite);
    atomicAdd(&stats->nonfiniteRef, nonfiniteRef);
    atomicAdd(&stats->excluded, excluded);
    atomicAdd(&stats->unwritten, unwritten);
  }
}

// Row-wise softmax in place over scores [rows, cols] (already multiplied by sm_scale). Row r is
// query (queryOffset + r % rowsPerHead); with `causal`, keys with index > query get probability 0.
// One block (256 threads) per row.
extern "C" __global__ void stagecraft_softmax_rows(float *scores, int cols, int rowsPerHead,
                                                   int queryOffset, int causal) {
  __shared__ float sRed[32];
  float *row = scores + uint64_t(blockIdx.x) * cols;
  int query = queryOffset + int(blockIdx.x % rowsPerHead);
  int limit = causal ? min(cols, query + 1) : cols;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;

  float m = -INFINITY;
  for (int j = threadIdx.x; j < limit; j += blockDim.x) m = fmaxf(m, row[j]);
  for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  if (lane == 0) sRed[warp] = m;
  __syncthreads();
  m = sRed[0];
  for (int w = 1; w < warps; ++w) m = fmaxf(m, sRed[w]);
  __syncthreads();

  float sum = 0.0f;
  for (int j = threadIdx.x; j < limit; j += blockDim.x) {
    float e = expf(row[j] - m);
    row[j] = e;
    sum += e;
  }
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
  if (lane == 0) sRed[warp] = sum;
  __syncthreads();
  sum = 0.0f;
  for (int w = 0; w < warps; ++w) sum += sRed[w];

  float inv = 1.0f / sum;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) row[j] = j < limit ? row[j] * inv : 0.0f;
}
