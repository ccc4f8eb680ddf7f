// The SM clock a short launch runs at: each of 132 CTAs (one an SM) reads %clock64 and
// %globaltimer, spins on dependent integer work for `spin` cycles, reads both again; the clock
// is cycles / ns. Launched as the runner times a kernel (a burst of launches, each synchronized,
// from an idle GPU), then back to back for about a second, it tells what clock a burst of
// short kernels sees against a long run's.
//
//   nvcc -arch=sm_90a -O3 -o clock_ramp clock_ramp.cu && ./clock_ramp [SPIN_CYCLES] [IDLE_MS]
//
// Prints per launch the median clock over the CTAs (MHz) and the launch's span in us.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

__device__ __forceinline__ uint64_t globaltimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin(long long cycles, unsigned long long *out, unsigned *sink) {
  if (threadIdx.x != 0)
    return;
  uint64_t t0 = globaltimer();
  long long c0 = clock64();
  unsigned x = blockIdx.x;
  while (clock64() - c0 < cycles)
    x = x * 1664525u + 1013904223u;
  long long c1 = clock64();
  uint64_t t1 = globaltimer();
  out[2 * blockIdx.x] = (unsigned long long)(c1 - c0);
  out[2 * blockIdx.x + 1] = t1 - t0;
  if (x == 0x12345678u)
    *sink = x; // keeps the loop
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  long long cycles = argc > 1 ? std::atoll(argv[1]) : 30000; // about 16 us at 1.9 GHz
  int idleMs = argc > 2 ? std::atoi(argv[2]) : 3000;
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
  unsigned long long *out;
  unsigned *sink;
  check(cudaMalloc(&out, 2 * sms * sizeof(unsigned long long)), "malloc");
  check(cudaMalloc(&sink, sizeof(unsigned)), "malloc");
  std::vector<unsigned long long> host(2 * sms);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto launch = [&](const char *phase, int i, bool print) {
    cudaEventRecord(a);
    spin<<<sms, 32>>>(cycles, out, sink);
    cudaEventRecord(b);
    check(cudaEventSynchronize(b), "launch");
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    check(cudaMemcpy(host.data(), out, host.size() * sizeof(host[0]), cudaMemcpyDeviceToHost), "copy");
    std::vector<double> mhz;
    for (int s = 0; s < sms; ++s)
      mhz.push_back(1e3 * double(host[2 * s]) / double(host[2 * s + 1]));
    std::sort(mhz.begin(), mhz.end());
    if (print)
      std::printf("%s %3d: %6.0f MHz (CTAs %0.f-%0.f), launch %7.1f us\n", phase, i, mhz[mhz.size() / 2],
                  mhz.front(), mhz.back(), 1e3 * ms);
    return mhz[mhz.size() / 2];
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(idleMs)); // from idle
  for (int i = 0; i < 25; ++i) // the runner's burst: 5 warm-up and 20 timed launches
    launch("burst", i, true);
  std::vector<double> sustained;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; std::chrono::steady_clock::now() - start < std::chrono::seconds(1); ++i)
    sustained.push_back(launch("sustained", i, false));
  std::sort(sustained.begin(), sustained.end());
  std::printf("sustained: %zu launches over 1 s, median %0.f MHz (%0.f-%0.f)\n", sustained.size(),
              sustained[sustained.size() / 2], sustained.front(), sustained.back());
  return 0;
}
