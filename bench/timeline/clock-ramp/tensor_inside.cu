// The tensor cores' pace over the first microseconds of a launch: 132 CTAs (one an SM) of 4
// warps, each warp issuing independent mma.sync m16n8k16 bf16 chains (8 accumulators); thread 0
// of each CTA samples %clock64 and %globaltimer every `step` rounds, kSamples times. Per sample,
// the median over the CTAs of the cycles a round took, and the clock: whether the tensor work
// of a launch's first ~10 us runs slower than its later work (clock_inside.cu: the SM clock
// does not).
//
//   nvcc -arch=sm_90a -O3 -o tensor_inside tensor_inside.cu && ./tensor_inside [STEP] [LAUNCHES]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

constexpr int kSamples = 48;

__device__ __forceinline__ uint64_t globaltimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void busy(int step, unsigned long long *out, float *sink) {
  unsigned a0 = 0x3f803f80u ^ threadIdx.x, a1 = a0, a2 = a0, a3 = a0, b0 = 0x3f803f80u, b1 = b0;
  float c[8][4] = {};
  for (int s = 0; s < kSamples; ++s) {
    if (threadIdx.x == 0) {
      out[(blockIdx.x * kSamples + s) * 2] = clock64();
      out[(blockIdx.x * kSamples + s) * 2 + 1] = globaltimer();
    }
    for (int i = 0; i < step; ++i) {
#pragma unroll
      for (int k = 0; k < 8; ++k)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                     "{%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
  }
  float acc = 0;
  for (int k = 0; k < 8; ++k)
    acc += c[k][0] + c[k][1] + c[k][2] + c[k][3];
  if (acc == 12345.f)
    sink[0] = acc;
}

int main(int argc, char **argv) {
  int step = argc > 1 ? std::atoi(argv[1]) : 100;
  int launches = argc > 2 ? std::atoi(argv[2]) : 3;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  unsigned long long *out;
  float *sink;
  cudaMalloc(&out, size_t(sms) * kSamples * 2 * sizeof(unsigned long long));
  cudaMalloc(&sink, sizeof(float));
  std::vector<unsigned long long> h(size_t(sms) * kSamples * 2);
  std::this_thread::sleep_for(std::chrono::seconds(3)); // from idle
  for (int l = 0; l < launches; ++l) {
    busy<<<sms, 128>>>(step, out, sink);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      std::fprintf(stderr, "launch failed\n");
      return 1;
    }
    cudaMemcpy(h.data(), out, h.size() * sizeof(h[0]), cudaMemcpyDeviceToHost);
    unsigned long long t0 = ~0ull;
    for (int c = 0; c < sms; ++c)
      t0 = std::min(t0, h[(c * kSamples) * 2 + 1]);
    std::printf("launch %d (step %d):\n", l, step);
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
      std::printf("  sample %2d at %7.2f us: %6.1f cycles a round (CTAs %6.1f-%6.1f), %5.0f MHz\n", s,
                  at[at.size() / 2], cyc[cyc.size() / 2], cyc.front(), cyc.back(), mhz[mhz.size() / 2]);
    }
  }
  return 0;
}
