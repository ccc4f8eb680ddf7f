#include "cupti_timer.h"

#include <cupti.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace stagecraft::profiler {

namespace {

// CUPTI calls the completion callback from its own thread as well as from the flushing thread.
std::mutex g_recordsMutex;
std::vector<KernelRecord> g_records;
uint64_t g_dropped = 0;

constexpr size_t kBufferBytes = 4 << 20;

void CUPTIAPI bufferRequested(uint8_t **buffer, size_t *size, size_t *maxNumRecords) {
  // CUPTI requires 8-byte alignment.
  *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *maxNumRecords = 0;  // as many as fit
}

void CUPTIAPI bufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t *buffer, size_t /*size*/,
                              size_t validSize) {
  std::vector<KernelRecord> batch;
  CUpti_Activity *record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto *k = reinterpret_cast<const CUpti_ActivityKernel10 *>(record);
      batch.push_back({k->name ? k->name : "", k->start, k->end});
    }
  }
  size_t dropped = 0;
  cuptiActivityGetNumDroppedRecords(ctx, streamId, &dropped);
  std::free(buffer);
  std::lock_guard<std::mutex> lock(g_recordsMutex);
  g_records.insert(g_records.end(), batch.begin(), batch.end());
  g_dropped += dropped;
}

void checkCupti(CUptiResult r, const char *call) {
  if (r == CUPTI_SUCCESS) return;
  const char *text = nullptr;
  cuptiGetResultString(r, &text);
  throw CuptiError(std::string(call) + ": " + (text ? text : "unknown CUPTI error") + " (" +
                   std::to_string(int(r)) + ")");
}

#define CUPTI_CHECK(expr) checkCupti((expr), #expr)

}  // namespace

CuptiTimer::CuptiTimer() {
  CUPTI_CHECK(cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted));
  CUPTI_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
}

CuptiTimer::~CuptiTimer() {
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

void CuptiTimer::beginWindow() {
  CUPTI_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  std::lock_guard<std::mutex> lock(g_recordsMutex);
  g_records.clear();
}

std::vector<KernelRecord> CuptiTimer::endWindow() {
  // FORCED: deliver partially filled buffers now rather than when they fill up.
  CUPTI_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  std::lock_guard<std::mutex> lock(g_recordsMutex);
  std::vector<KernelRecord> out;
  out.swap(g_records);
  return out;
}

uint64_t CuptiTimer::droppedRecords() const {
  std::lock_guard<std::mutex> lock(g_recordsMutex);
  return g_dropped;
}

double spanMicroseconds(const std::vector<KernelRecord> &records, const std::string &what) {
  if (records.empty()) throw CuptiError("CUPTI delivered no kernel record for " + what);
  uint64_t start = UINT64_MAX, end = 0;
  for (const auto &r : records) {
    if (r.endNs < r.startNs || r.startNs == 0)
      throw CuptiError("CUPTI delivered an incomplete kernel record for " + what + " (" + r.name + ")");
    start = std::min(start, r.startNs);
    end = std::max(end, r.endNs);
  }
  return double(end - start) * 1e-3;
}

}  // namespace stagecraft::profiler
