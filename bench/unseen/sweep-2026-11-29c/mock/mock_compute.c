/* mock_libcuda.c - a libcuda.so.1 that records what a launcher asks of it.
 *
 * For the export tests on a machine without a GPU: the exported Python
 * module (ctypes on libcuda.so.1) and C++ header (-lcuda) run against this
 * library instead of the driver, and the test compares what they encoded
 * and launched with the bundle's manifest. Device memory is host memory;
 * kernels do not run.
 *
 * Environment:
 *   MOCK_CUDA_LOG     file to append one JSON line per interesting call
 *   MOCK_CUDA_CC      compute capability to report, "9.0" by default
 *   MOCK_CUDA_PARAMS  kernel parameter sizes in bytes, e.g. "128,128,4,4"
 *                     (the mock cannot know them; a launch logs each
 *                     parameter: a tensor map by its encode id, 4 or 8
 *                     bytes as an integer)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;

enum { OK = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, INVALID_IMAGE = 200, NOT_FOUND = 500 };

static int initialized = 0;
static int ctxDepth = 0;
static int mapCounter = 0;
/* sweep-2026-11-29c: a registry of encoded maps, so that a launch can compute a GEMM (MOCK_GEMM). */
struct MapRec { int dtype; unsigned rank; uint64_t addr; uint64_t dims[5]; uint64_t strides[5]; };
static struct MapRec maps[4096];
static const uint64_t kMapMagic = 0x4d41505f4b434f4dull; /* "MOCK_MAP" */

struct Alloc { uint64_t base, size; };
static struct Alloc allocs[256];
static int nallocs = 0;

static FILE *logFile(void) {
  static FILE *f = NULL;
  if (!f) {
    const char *path = getenv("MOCK_CUDA_LOG");
    f = fopen(path && *path ? path : "/dev/null", "a");
  }
  return f;
}

static void logLine(const char *text) {
  FILE *f = logFile();
  if (f) {
    fprintf(f, "%s\n", text);
    fflush(f);
  }
}

CUresult cuInit(unsigned flags) {
  (void)flags;
  initialized = 1;
  return OK;
}
CUresult cuDriverGetVersion(int *v) { *v = 13000; return OK; }

CUresult cuGetErrorName(CUresult r, const char **s) {
  switch (r) {
  case OK: *s = "CUDA_SUCCESS"; break;
  case INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; break;
  case NOT_INITIALIZED: *s = "CUDA_ERROR_NOT_INITIALIZED"; break;
  case INVALID_IMAGE: *s = "CUDA_ERROR_INVALID_IMAGE"; break;
  case NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; break;
  default: *s = "CUDA_ERROR_UNKNOWN"; break;
  }
  return OK;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
  *s = r == OK ? "no error" : "mock driver error";
  return OK;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  if (!initialized) return NOT_INITIALIZED;
  if (ordinal != 0) return INVALID_VALUE;
  *d = 0;
  return OK;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
  (void)d;
  snprintf(name, (size_t)len, "Mock GPU");
  return OK;
}
CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
  (void)d;
  const char *cc = getenv("MOCK_CUDA_CC");
  int major = 9, minor = 0;
  if (cc && *cc) sscanf(cc, "%d.%d", &major, &minor);
  switch (attr) {
  case 75: *v = major; break;           /* COMPUTE_CAPABILITY_MAJOR */
  case 76: *v = minor; break;           /* COMPUTE_CAPABILITY_MINOR */
  case 97: *v = 232448; break;          /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
  default: *v = 0; break;
  }
  return OK;
}

static char primary;
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
  (void)d;
  if (!initialized) return NOT_INITIALIZED;
  *c = &primary;
  return OK;
}
CUresult cuCtxSetCurrent(CUcontext c) { ctxDepth = c ? 1 : 0; return OK; }
CUresult cuCtxPushCurrent_v2(CUcontext c) { (void)c; ++ctxDepth; return OK; }
CUresult cuCtxPopCurrent_v2(CUcontext *c) {
  if (ctxDepth == 0) return INVALID_VALUE;
  --ctxDepth;
  if (c) *c = &primary;
  return OK;
}
CUresult cuCtxGetDevice(CUdevice *d) {
  if (ctxDepth == 0) return 201; /* CUDA_ERROR_INVALID_CONTEXT */
  *d = 0;
  return OK;
}

static char module, function;
CUresult cuModuleLoadData(CUmodule *m, const void *image) {
  const unsigned char *p = (const unsigned char *)image;
  if (ctxDepth == 0) return 201;
  if (!(p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F')) return INVALID_IMAGE;
  *m = &module;
  logLine("{\"call\": \"cuModuleLoadData\"}");
  return OK;
}
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  char line[512];
  (void)m;
  *f = &function;
  snprintf(line, sizeof line, "{\"call\": \"cuModuleGetFunction\", \"name\": \"%s\"}", name);
  logLine(line);
  return OK;
}
CUresult cuModuleUnload(CUmodule m) { (void)m; return OK; }
CUresult cuFuncSetAttribute(CUfunction f, int attr, int value) {
  char line[256];
  (void)f;
  snprintf(line, sizeof line, "{\"call\": \"cuFuncSetAttribute\", \"attr\": %d, \"value\": %d}",
           attr, value);
  logLine(line);
  return OK;
}

static void appendList64(char *buf, size_t cap, const char *key, const uint64_t *v, unsigned n) {
  size_t len = strlen(buf);
  len += (size_t)snprintf(buf + len, cap - len, ", \"%s\": [", key);
  for (unsigned i = 0; i < n; ++i)
    len += (size_t)snprintf(buf + len, cap - len, "%s%llu", i ? ", " : "",
                            (unsigned long long)v[i]);
  snprintf(buf + len, cap - len, "]");
}
static void appendList32(char *buf, size_t cap, const char *key, const uint32_t *v, unsigned n) {
  uint64_t w[8];
  for (unsigned i = 0; i < n && i < 8; ++i) w[i] = v[i];
  appendList64(buf, cap, key, w, n);
}

CUresult cuTensorMapEncodeTiled(void *map, int dtype, uint32_t rank, void *addr,
                                const uint64_t *dims, const uint64_t *strides,
                                const uint32_t *box, const uint32_t *estr, int interleave,
                                int swizzle, int l2, int oob) {
  char line[2048];
  if (((uintptr_t)map) % 64 != 0 || ((uintptr_t)addr) % 16 != 0 || rank < 1 || rank > 5)
    return INVALID_VALUE;
  int id = ++mapCounter;
  if (id < 4096) {
    maps[id].dtype = dtype; maps[id].rank = rank; maps[id].addr = (uint64_t)(uintptr_t)addr;
    for (unsigned i = 0; i < rank; ++i) { maps[id].dims[i] = dims[i]; maps[id].strides[i] = i + 1 < rank ? strides[i] : 0; }
  }
  uint64_t header[3] = {kMapMagic, (uint64_t)id, (uint64_t)(uintptr_t)addr};
  memset(map, 0, 128);
  memcpy(map, header, sizeof header);
  snprintf(line, sizeof line,
           "{\"call\": \"cuTensorMapEncodeTiled\", \"id\": %d, \"dtype\": %d, \"rank\": %u, "
           "\"addr\": %llu, \"interleave\": %d, \"swizzle\": %d, \"l2\": %d, \"oob\": %d",
           id, dtype, rank, (unsigned long long)(uintptr_t)addr, interleave, swizzle, l2, oob);
  appendList64(line, sizeof line, "dims", dims, rank);
  appendList64(line, sizeof line, "strides", strides, rank - 1);
  appendList32(line, sizeof line, "box", box, rank);
  appendList32(line, sizeof line, "estr", estr, rank);
  strncat(line, "}", sizeof line - strlen(line) - 1);
  logLine(line);
  return OK;
}


/* MOCK_GEMM="a,b,c[,t]": on launch, compute C = A B^T (t=1, default) or A B (t=0) on the host from the
 * tensor maps of parameters a, b, c (2-D views: rows x K etc.), bf16/f16/f32 elements, fp32 sums:
 * a "correct kernel", so that example.cpp's CPU check can be checked. */
static int fp8e5m2 = 0;
static float ld(int dtype, uint64_t p) {
  if (dtype == 0) { /* FP8 byte: e4m3fn, or e5m2 with MOCK_GEMM's 7th field */
    uint8_t b = *(const uint8_t *)(uintptr_t)p; int man = fp8e5m2 ? 2 : 3, bias = fp8e5m2 ? 15 : 7;
    int e = (b & 0x7f) >> man, m = b & ((1 << man) - 1); float sg = (b & 0x80) ? -1.0f : 1.0f;
    if (e == 0) return sg * ldexpf((float)m, 1 - bias - man);
    return sg * ldexpf((float)((1 << man) + m), e - bias - man);
  }
  if (dtype == 7) { float f; memcpy(&f, (void *)(uintptr_t)p, 4); return f; }
  uint16_t h; memcpy(&h, (void *)(uintptr_t)p, 2);
  if (dtype == 9) { uint32_t b = (uint32_t)h << 16; float f; memcpy(&f, &b, 4); return f; }
  { uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, b;
    if (e == 0) { float f = (float)m / 16777216.0f; return s ? -f : f; }
    b = s | ((e + 112) << 23) | (m << 13); float f; memcpy(&f, &b, 4); return f; }
}
static void st(int dtype, uint64_t p, float v) {
  if (dtype == 7) { memcpy((void *)(uintptr_t)p, &v, 4); return; }
  uint32_t b; memcpy(&b, &v, 4);
  if (dtype == 9) { uint16_t h = (uint16_t)((b + 0x7fffu + ((b >> 16) & 1u)) >> 16); memcpy((void *)(uintptr_t)p, &h, 2); return; }
  { /* f16, round to nearest, normal range only */
    uint32_t s = (b >> 16) & 0x8000u; int e = (int)((b >> 23) & 0xff) - 112; uint32_t m = b & 0x7fffffu;
    uint16_t h = (uint16_t)(s | (e <= 0 ? 0 : ((uint32_t)e << 10) | ((m + 0x1000u) >> 13)));
    memcpy((void *)(uintptr_t)p, &h, 2); }
}
static void computeGemm(void **params) {
  const char *g = getenv("MOCK_GEMM");
  int ia, ib, ic, t = 1, isa = -1, isb = -1;
  if (!g || sscanf(g, "%d,%d,%d,%d,%d,%d,%d", &ia, &ib, &ic, &t, &isa, &isb, &fp8e5m2) < 3) return;
  uint64_t h[3];
  memcpy(h, params[ia], sizeof h); struct MapRec *A = &maps[h[1]];
  memcpy(h, params[ib], sizeof h); struct MapRec *B = &maps[h[1]];
  memcpy(h, params[ic], sizeof h); struct MapRec *C = &maps[h[1]];
  uint64_t K = A->dims[0], M = A->dims[1], N = C->dims[0];
  int ea = A->dtype == 7 ? 4 : A->dtype == 0 ? 1 : 2, eb = B->dtype == 7 ? 4 : B->dtype == 0 ? 1 : 2, ec = C->dtype == 7 ? 4 : 2;
  float scale = 1.0f;
  if (isa >= 0) { memcpy(h, params[isa], sizeof h); scale *= ld(7, maps[h[1]].addr); }
  if (isb >= 0) { memcpy(h, params[isb], sizeof h); scale *= ld(7, maps[h[1]].addr); }
  for (uint64_t m = 0; m < M; ++m)
    for (uint64_t n = 0; n < N; ++n) {
      float acc = 0;
      for (uint64_t k = 0; k < K; ++k) {
        float a = ld(A->dtype, A->addr + m * A->strides[0] + k * ea);
        float b = t ? ld(B->dtype, B->addr + n * B->strides[0] + k * eb)
                    : ld(B->dtype, B->addr + k * B->strides[0] + n * eb);
        acc += a * b;
      }
      st(C->dtype, C->addr + m * C->strides[0] + n * ec, acc * scale);
    }
}

static void logLaunch(const char *call, const unsigned grid[3], const unsigned block[3],
                      unsigned smem, void *stream, void **params, const unsigned *cluster) {
  char line[4096];
  size_t len = (size_t)snprintf(
      line, sizeof line,
      "{\"call\": \"%s\", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"smem\": %u, "
      "\"stream\": %llu",
      call, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem,
      (unsigned long long)(uintptr_t)stream);
  if (cluster)
    len += (size_t)snprintf(line + len, sizeof line - len, ", \"cluster\": [%u, %u, %u]",
                            cluster[0], cluster[1], cluster[2]);
  len += (size_t)snprintf(line + len, sizeof line - len, ", \"params\": [");
  const char *sizes = getenv("MOCK_CUDA_PARAMS");
  int i = 0;
  for (const char *p = sizes; p && *p; ++i) {
    int bytes = atoi(p);
    const char *sep = i ? ", " : "";
    if (bytes == 128) {
      uint64_t h[3];
      memcpy(h, params[i], sizeof h);
      if (h[0] == kMapMagic)
        len += (size_t)snprintf(line + len, sizeof line - len, "%s{\"map\": %llu}", sep,
                                (unsigned long long)h[1]);
      else
        len += (size_t)snprintf(line + len, sizeof line - len, "%s{\"map\": null}", sep);
    } else if (bytes == 8) {
      uint64_t v;
      memcpy(&v, params[i], 8);
      len += (size_t)snprintf(line + len, sizeof line - len, "%s{\"u64\": %llu}", sep,
                              (unsigned long long)v);
    } else {
      int32_t v;
      memcpy(&v, params[i], 4);
      len += (size_t)snprintf(line + len, sizeof line - len, "%s{\"i32\": %d}", sep, v);
    }
    p = strchr(p, ',');
    if (p) ++p;
  }
  snprintf(line + len, sizeof line - len, "]}");
  logLine(line);
  computeGemm(params);
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream stream, void **params,
                        void **extra) {
  (void)f; (void)extra;
  unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  if (ctxDepth == 0) return 201;
  logLaunch("cuLaunchKernel", grid, block, smem, stream, params, NULL);
  return OK;
}

typedef struct {
  int id;
  char pad[4];
  unsigned value[16];
} MockLaunchAttribute;
typedef struct {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream hStream;
  MockLaunchAttribute *attrs;
  unsigned numAttrs;
} MockLaunchConfig;

CUresult cuLaunchKernelEx(const MockLaunchConfig *c, CUfunction f, void **params, void **extra) {
  (void)f; (void)extra;
  unsigned grid[3] = {c->gridDimX, c->gridDimY, c->gridDimZ};
  unsigned block[3] = {c->blockDimX, c->blockDimY, c->blockDimZ};
  const unsigned *cluster = NULL;
  if (ctxDepth == 0) return 201;
  for (unsigned i = 0; i < c->numAttrs; ++i)
    if (c->attrs[i].id == 4) cluster = c->attrs[i].value;
  logLaunch("cuLaunchKernelEx", grid, block, c->sharedMemBytes, c->hStream, params, cluster);
  return OK;
}

/* Memory: host memory standing in for device memory. */
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) {
  void *m = NULL;
  if (nallocs == 256 || posix_memalign(&m, 256, bytes ? bytes : 1) != 0) return 2;
  allocs[nallocs].base = (uint64_t)(uintptr_t)m;
  allocs[nallocs].size = bytes;
  ++nallocs;
  *p = (CUdeviceptr)(uintptr_t)m;
  return OK;
}
CUresult cuMemFree_v2(CUdeviceptr p) { (void)p; return OK; }
static struct Alloc *findAlloc(CUdeviceptr p) {
  for (int i = 0; i < nallocs; ++i)
    if (p >= allocs[i].base && p < allocs[i].base + allocs[i].size) return &allocs[i];
  return NULL;
}
CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p) {
  struct Alloc *a = findAlloc(p);
  if (!a) return NOT_FOUND;
  *base = a->base;
  *size = a->size;
  return OK;
}
CUresult cuPointerGetAttribute(void *data, int attr, CUdeviceptr p) {
  struct Alloc *a = findAlloc(p);
  if (!a) return INVALID_VALUE;
  if (attr == 2) *(unsigned *)data = 2; /* MEMORY_TYPE: DEVICE */
  else if (attr == 9) *(int *)data = 0; /* DEVICE_ORDINAL */
  else return INVALID_VALUE;
  return OK;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *h, size_t n) {
  memcpy((void *)(uintptr_t)d, h, n);
  return OK;
}
CUresult cuMemcpyDtoH_v2(void *h, CUdeviceptr d, size_t n) {
  memcpy(h, (const void *)(uintptr_t)d, n);
  return OK;
}

/* Streams and events: nothing runs, so everything is complete. */
static char streamObj, eventObj;
CUresult cuStreamCreate(CUstream *s, unsigned flags) { (void)flags; *s = &streamObj; return OK; }
CUresult cuStreamSynchronize(CUstream s) { (void)s; return OK; }
CUresult cuEventCreate(CUevent *e, unsigned flags) { (void)flags; *e = &eventObj; return OK; }
CUresult cuEventRecord(CUevent e, CUstream s) { (void)e; (void)s; return OK; }
CUresult cuEventSynchronize(CUevent e) { (void)e; return OK; }
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  (void)a; (void)b;
  *ms = 1.0f;
  return OK;
}
/* CUDA 13's cuda.h maps cuEventElapsedTime to the _v2 entry point. */
CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) { return cuEventElapsedTime(ms, a, b); }
