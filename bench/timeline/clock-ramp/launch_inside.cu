// The SM's pace over the first microseconds of a launch that keeps every SM busy: 132 CTAs (one
// an SM) run dependent chains of one kind of work, and thread 0 of each samples %clock64 and
// %globaltimer every `step` rounds, kSamples times. Per sample, the median over the CTAs of the
// cycles a round took and of the clock (cycles / ns; the %globaltimer steps 32 ns, so over short
// samples the clock moves in steps). Modes:
//   clock   256 threads of exp2 and FMA chains (the MUFU and FMA pipes)
//   tensor  4 warps of eight independent mma.sync m16n8k16 bf16 chains (the tensor cores)
//
//   nvcc -arch=sm_90a -O3 -o launch_inside launch_inside.cu
//   ./launch_inside clock|tensor [STEP] [LAUNCHES]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

constexpr int kSamples = 48;

__device__ __forceinline__ uint64_t globaltimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void sample(unsigned long long *out, int s) {
  if (threadIdx.x == 0) {
    out[(blockIdx.x * kSamples + s) * 2] = clock64();
    out[(blockIdx.x * kSamples + s) * 2 + 1] = globaltimer();
  }
}

__global__ void mufuFma(int step, unsigned long long *out, float *sink) {
  float x = threadIdx.x * 1e-3f, y = 1.0f;
  for (int s = 0; s < kSamples; ++s) {
    sample(out, s);
    for (int i = 0; i < step; ++i) {
      x = exp2f(x * 0.5f - 1.0f); // MUFU
      y = fmaf(y, 0.999f, x);     // FMA
    }
  }
  if (x == 12345.f && y == 0.f)
    sink[0] = x + y;
}

__global__ void tensor(int step, unsigned long long *out, float *sink) {
  unsigned a = 0x3f803f80u ^ threadIdx.x, b = 0x3f803f80u;
  float c[8][4] = {};
  for (int s = 0; s < kSamples; ++s) {
    sample(out, s);
    for (int i = 0; i < step; ++i) {
#pragma unroll
      for (int k = 0; k < 8; ++k)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, "
                     "{%5,%5}, {%0,%1,%2,%3};"
                     : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                     : "r"(a), "r"(b));
    }
  }
  float acc = 0;
  for (int k = 0; k < 8; ++k)
    acc += c[k][0] + c[k][1] + c[k][2] + c[k][3];
  if (acc == 12345.f)
    sink[0] = acc;
}

int main(int argc, char **argv) {
  bool isTensor = argc > 1 && std::strcmp(argv[1], "tensor") == 0;
  if (argc < 2 || (!isTensor && std::strcmp(argv[1], "clock") != 0)) {
    std::fprintf(stderr, "usage: launch_inside clock|tensor [STEP] [LAUNCHES]\n");
    return 2;
  }
  int step = argc > 2 ? std::atoi(argv[2]) : (isTensor ? 16 : 50);
  int launches = argc > 3 ? std::atoi(argv[3]) : 3;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  unsigned long long *out;
  float *sink;
  cudaMalloc(&out, size_t(sms) * kSamples * 2 * sizeof(unsigned long long));
  cudaMalloc(&sink, sizeof(float));
  std::vector<unsigned long long> h(size_t(sms) * kSamples * 2);
  std::this_thread::sleep_for(std::chrono::seconds(3)); // from idle
  for (int l = 0; l < launches; ++l) {
    if (isTensor)
      tensor<<<sms, 128>>>(step, out, sink);
    else
      mufuFma<<<sms, 256>>>(step, out, sink);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      std::fprintf(stderr, "launch failed\n");
      return 1;
    }
    cudaMemcpy(h.data(), out, h.size() * sizeof(h[0]), cudaMemcpyDeviceToHost);
    unsigned long long t0 = ~0ull;
    for (int c = 0; c < sms; ++c)
      t0 = std::min(t0, h[(c * kSamples) * 2 + 1]);
    std::printf("launch %d (%s, step %d):\n", l, argv[1], step);
    for (int s = 1; s < kSamples; ++s) {
      std::vector<double> cyc, mhz, at;
      for (int c = 0; c < sms; ++c) {
        auto *a = &h[(c * kSamples + s - 1) * 2], *b = &h[(c * kSamples + s) * 2];
        cyc.push_back(double(b[0] - a[0]) / step);
        mhz.push_back(1e3 * double(b[0] - a[0]) / double(b[1] - a[1]));
        at.push_back(1e-3 * double(b[1] - t0));
      }
      std::sort(cyc.begin(), cyc.end());
      std::sort(mhz.begin(), mhz.end());
      std::sort(at.begin(), at.end());
      std::printf("  sample %2d at %7.2f us: %6.1f cycles a round (CTAs %6.1f-%6.1f), %5.0f MHz "
                  "(CTAs %4.0f-%4.0f)\n", s, at[at.size() / 2], cyc[cyc.size() / 2], cyc.front(),
                  cyc.back(), mhz[mhz.size() / 2], mhz.front(), mhz.back());
    }
  }
  return 0;
}
