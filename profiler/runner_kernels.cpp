#include "runner_kernels.h"

#include "cuda_driver.h"

#include <algorithm>

// Generated at build time from runner_kernels.cu (see CMakeLists.txt).
extern const unsigned char stagecraft_runner_kernels_fatbin[];

namespace stagecraft::profiler {

int dtypeCode(DType t) {
  switch (t) {
  case DType::BF16: return 0;
  case DType::F16: return 1;
  case DType::F32: return 2;
  case DType::I32: return 3;
  case DType::E4M3: return 4;
  case DType::E5M2: return 5;
  case DType::E8M0: return 6;
  case DType::I64: break;
  }
  throw std::invalid_argument(std::string("the runner's kernels do not handle dtype ") + dtypeName(t));
}

namespace {

constexpr unsigned kThreads = 256;

// Enough blocks to fill an H100 several times over; the kernels use grid-stride loops.
unsigned blocksFor(uint64_t count) {
  uint64_t blocks = (count + kThreads - 1) / kThreads;
  return unsigned(std::max<uint64_t>(1, std::min<uint64_t>(blocks, 132 * 32)));
}

void launch(CUfunction f, unsigned blocks, void **args, CUstream s, const char *what) {
  CUresult r = driver().cuLaunchKernel(f, blocks, 1, 1, kThreads, 1, 1, 0, s, args, nullptr);
  if (r != CUDA_SUCCESS) throw CudaError(r, std::string("launching the runner's ") + what + " kernel: " + cudaErrorText(r));
}

}  // namespace

RunnerKernels::RunnerKernels() {
  CU_CHECK(driver().cuModuleLoadData(&module_, stagecraft_runner_kernels_fatbin));
  CU_CHECK(driver().cuModuleGetFunction(&fill_, module_, "stagecraft_fill_random"));
  CU_CHECK(driver().cuModuleGetFunction(&toF32_, module_, "stagecraft_to_f32"));
  CU_CHECK(driver().cuModuleGetFunction(&errorStats_, module_, "stagecraft_error_stats"));
  CU_CHECK(driver().cuModuleGetFunction(&softmax_, module_, "stagecraft_softmax_rows"));
}

RunnerKernels::~RunnerKernels() {
  if (module_) driver().cuModuleUnload(module_);  // nothing to do about a failure at teardown
}

void RunnerKernels::fillRandom(CUdeviceptr p, DType dtype, uint64_t count, const InitSpec &init,
                               CUstream s) const {
  int code = dtypeCode(dtype);
  int normal = init.kind == InitSpec::Kind::Normal ? 1 : 0;
  float a = float(init.a), b = float(init.b);
  uint64_t seed = init.seed;
  void *args[] = {&p, &code, &count, &normal, &a, &b, &seed};
  launch(fill_, blocksFor(count), args, s, "fill");
}

void RunnerKernels::toF32(CUdeviceptr src, DType dtype, CUdeviceptr dst, uint64_t count, CUstream s) const {
  int code = dtypeCode(dtype);
  void *args[] = {&src, &code, &dst, &count};
  launch(toF32_, blocksFor(count), args, s, "convert");
}

void RunnerKernels::errorStats(CUdeviceptr out, DType dtype, CUdeviceptr ref, uint64_t count,
                               CUdeviceptr stats, CUstream s, float excludeAbove) const {
  int code = dtypeCode(dtype);
  void *args[] = {&out, &code, &ref, &count, &stats, &excludeAbove};
  launch(errorStats_, blocksFor(count), args, s, "error statistics");
}

void RunnerKernels::softmaxRows(CUdeviceptr scores, int64_t rows, int cols, int rowsPerHead,
                                int queryOffset, bool causal, CUstream s) const {
  int c = causal ? 1 : 0;
  void *args[] = {&scores, &cols, &rowsPerHead, &queryOffset, &c};
  if (rows > 0x7fffffff) throw std::invalid_argument("softmax: too many rows in one chunk");
  CUresult r = driver().cuLaunchKernel(softmax_, unsigned(rows), 1, 1, kThreads, 1, 1, 0, s, args, nullptr);
  if (r != CUDA_SUCCESS) throw CudaError(r, std::string("launching the runner's softmax kernel: ") + cudaErrorText(r));
}

}  // namespace stagecraft::profiler
