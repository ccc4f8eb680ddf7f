// The SM clock over the first microseconds of a launch that keeps its SMs busy: 132 CTAs (one
// an SM) of 256 threads run dependent exp2 and FMA chains; thread 0 of each CTA samples
// (%clock64, %globaltimer) every `step` rounds, kSamples times. Per sample, the median clock
// over the CTAs (MHz) between it and the one before, and the time since the launch's first
// sample: what clock the first ~10 us of a heavy launch run at, against its later samples.
//
//   nvcc -arch=sm_90a -O3 -o clock_inside clock_inside.cu && ./clock_inside [STEP] [LAUNCHES]
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
  float x = threadIdx.x * 1e-3f, y = 1.0f;
  for (int s = 0; s < kSamples; ++s) {
    if (threadIdx.x == 0) {
      out[(blockIdx.x * kSamples + s) * 2] = clock64();
      out[(blockIdx.x * kSamples + s) * 2 + 1] = globaltimer();
    }
    for (int i = 0; i < step; ++i) {
      x = exp2f(x * 0.5f - 1.0f); // MUFU
      y = fmaf(y, 0.999f, x);     // FMA
    }
  }
  if (x == 12345.f && y == 0.f)
    sink[0] = x + y;
}

int main(int argc, char **argv) {
  int step = argc > 1 ? std::atoi(argv[1]) : 200;
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
    busy<<<sms, 256>>>(step, out, sink);
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
      std::vector<double> mhz, at;
      for (int c = 0; c < sms; ++c) {
        auto *a = &h[(c * kSamples + s - 1) * 2], *b = &h[(c * kSamples + s) * 2];
        mhz.push_back(1e3 * double(b[0] - a[0]) / double(b[1] - a[1]));
        at.push_back(1e-3 * double(b[1] - t0));
      }
      std::sort(mhz.begin(), mhz.end());
      std::sort(at.begin(), at.end());
      std::printf("  sample %2d at %7.2f us: %5.0f MHz (CTAs %4.0f-%4.0f)\n", s, at[at.size() / 2],
                  mhz[mhz.size() / 2], mhz.front(), mhz.back());
    }
  }
  return 0;
}
