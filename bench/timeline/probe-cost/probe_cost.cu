// What one timeline probe costs on the GPU: cycles per read of %globaltimer against
// %clock64, and per predicated 24-byte record store, measured by one thread (the probes'
// recorder: one thread per warp group) with clock64 around a dependent chain; and what a whole
// event costs when its stores wait for the stamp they write (the probes' case: the end stamp is
// read and stored at once), with %globaltimer stamps against %clock64 stamps.
//
//   nvcc -arch=sm_90a -O3 -o probe_cost probe_cost.cu && ./probe_cost
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

constexpr int kReads = 4096;

__device__ __forceinline__ uint64_t globaltimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ uint64_t clock64v() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
  return t;
}

__global__ void cost(uint64_t *out, uint64_t *sink) {
  if (threadIdx.x != 0)
    return;
  uint64_t acc = 0;
  // 1. %globaltimer: kReads reads, each folded into acc (volatile asm: none removed).
  uint64_t c0 = clock64v();
  for (int i = 0; i < kReads; ++i)
    acc += globaltimer();
  uint64_t c1 = clock64v();
  // 2. %clock64.
  for (int i = 0; i < kReads; ++i)
    acc += clock64v();
  uint64_t c2 = clock64v();
  // 3. a record as the probes write it: three 8-byte stores.
  for (int i = 0; i < kReads; ++i) {
    uint64_t *r = sink + 3 * (i & 255);
    asm volatile("st.global.u64 [%0], %1;\n st.global.u64 [%0+8], %2;\n st.global.u64 [%0+16], %3;"
                 :: "l"(r), "l"(acc), "l"(c2), "l"((uint64_t)i) : "memory");
  }
  uint64_t c3 = clock64v();
  // 3b. the same 24 bytes as one 16-byte and one 8-byte store (a 32-byte-aligned record).
  for (int i = 0; i < kReads; ++i) {
    uint64_t *r = sink + 4 * (i & 127);
    asm volatile("st.global.v2.u64 [%0], {%1, %2};\n st.global.u64 [%0+16], %3;"
                 :: "l"(r), "l"(acc), "l"(c2), "l"((uint64_t)i) : "memory");
  }
  uint64_t c4 = clock64v();
  // 3c. one 16-byte store.
  for (int i = 0; i < kReads; ++i) {
    uint64_t *r = sink + 2 * (i & 255);
    asm volatile("st.global.v2.u64 [%0], {%1, %2};" :: "l"(r), "l"(acc), "l"((uint64_t)i) : "memory");
  }
  uint64_t c5 = clock64v();
  // 4. globaltimer's step: the smallest nonzero difference of successive reads.
  uint64_t step = ~0ull, prev = globaltimer();
  for (int i = 0; i < kReads; ++i) {
    uint64_t t = globaltimer();
    if (t != prev && t - prev < step)
      step = t - prev;
    prev = t;
  }
  // 5. whole events as TimelineProbes::start/record write them: a start stamp, an end stamp,
  //    then the 24-byte record {start, end, tag}; the end stamp's store waits for its read.
  uint64_t c6 = clock64v();
  for (int i = 0; i < kReads; ++i) {
    uint64_t *r = sink + 3 * (i & 255);
    uint64_t s0 = globaltimer(), e0 = globaltimer();
    asm volatile("st.global.u64 [%0], %1;\n st.global.u64 [%0+8], %2;\n st.global.u64 [%0+16], %3;"
                 :: "l"(r), "l"(s0), "l"(e0), "l"((uint64_t)i) : "memory");
  }
  uint64_t c7 = clock64v();
  for (int i = 0; i < kReads; ++i) {
    uint64_t *r = sink + 3 * (i & 255);
    uint64_t s0 = clock64v(), e0 = clock64v();
    asm volatile("st.global.u64 [%0], %1;\n st.global.u64 [%0+8], %2;\n st.global.u64 [%0+16], %3;"
                 :: "l"(r), "l"(s0), "l"(e0), "l"((uint64_t)i) : "memory");
  }
  uint64_t c8 = clock64v();
  // 6. a stamp's latency: read, then store it at once (the store waits for the read).
  for (int i = 0; i < kReads; ++i)
    asm volatile("{\n.reg .u64 t;\nmov.u64 t, %%globaltimer;\nst.global.u64 [%0], t;\n}"
                 :: "l"(sink + (i & 255)) : "memory");
  uint64_t c9 = clock64v();
  for (int i = 0; i < kReads; ++i)
    asm volatile("{\n.reg .u64 t;\nmov.u64 t, %%clock64;\nst.global.u64 [%0], t;\n}"
                 :: "l"(sink + (i & 255)) : "memory");
  uint64_t c10 = clock64v();
  out[7] = c7 - c6;
  out[8] = c8 - c7;
  out[9] = c9 - c8;
  out[10] = c10 - c9;
  out[0] = c1 - c0;
  out[1] = c2 - c1;
  out[2] = c3 - c2;
  out[3] = step;
  out[4] = acc;
  out[5] = c4 - c3;
  out[6] = c5 - c4;
}

int main() {
  uint64_t *out, *sink;
  cudaMalloc(&out, 16 * sizeof(uint64_t));
  cudaMalloc(&sink, 4 * 256 * sizeof(uint64_t));
  cost<<<1, 128>>>(out, sink); // warm-up
  cost<<<1, 128>>>(out, sink);
  uint64_t h[16];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) {
    fprintf(stderr, "probe_cost: %s\n", cudaGetErrorString(err));
    return 1;
  }
  printf("cycles per %%globaltimer read: %.1f\n", double(h[0]) / kReads);
  printf("cycles per %%clock64 read:     %.1f\n", double(h[1]) / kReads);
  printf("cycles per 24-byte record:    %.1f\n", double(h[2]) / kReads);
  printf("cycles per 16+8-byte record:  %.1f\n", double(h[5]) / kReads);
  printf("cycles per 16-byte record:    %.1f\n", double(h[6]) / kReads);
  printf("cycles per event, %%globaltimer stamps: %.1f\n", double(h[7]) / kReads);
  printf("cycles per event, %%clock64 stamps:     %.1f\n", double(h[8]) / kReads);
  printf("cycles per %%globaltimer read + store:  %.1f\n", double(h[9]) / kReads);
  printf("cycles per %%clock64 read + store:      %.1f\n", double(h[10]) / kReads);
  printf("%%globaltimer step:            %llu ns\n", (unsigned long long)h[3]);
  return 0;
}
