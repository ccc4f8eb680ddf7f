// Bundles carried inside requests, for a runner on a host that cannot see the app's files
// (docs/runner-protocol.md#bundles-in-the-request).
//
// A request's "upload" object maps file names to base64 contents. Only the files the runner
// reads are accepted (manifest.json, kernel.cubin, kernel.ptx, reference.ptx, and the instrumented
// kernel's timeline.cubin and timeline.ptx), each within a size limit, and
// everything is decoded and checked before anything is written. The files go into a private
// directory (mkdtemp: mode 0700, under $TMPDIR or /tmp), are written with O_EXCL|O_NOFOLLOW
// relative to that directory, and are removed when the request is done, on every path out:
// normal answers, errors, exceptions, a fault (before the process exits), and a watchdog timeout
// (the watchdog removes them before it exits). A runner killed outright leaves its directory
// behind; the next runner started by the same user removes directories of runners that are no
// longer alive (sweepStaleUploads).
#pragma once

#include "json.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace stagecraft::profiler {

struct UploadedFile {
  std::string name;
  std::string data;
};

// Limits on what a request may carry.
constexpr size_t kMaxManifestUploadBytes = 16u << 20;  // as loadManifest reads
constexpr size_t kMaxModuleUploadBytes = 64u << 20;    // kernel.cubin, kernel.ptx, reference.ptx
constexpr size_t kMaxUploadBytes = 96u << 20;          // all files of one request
// A request line with an upload may be this long (base64 of kMaxUploadBytes and some JSON);
// others stay under 1 MiB.
constexpr size_t kMaxUploadLineBytes = 136u << 20;

// The names an upload may use, in the order they are listed in errors.
const std::vector<std::string> &uploadFileNames();

// Strict base64 (RFC 4648, with padding, no whitespace). False on any bad character or length.
bool base64Decode(const std::string &text, std::string *out);

// Checks and decodes a request's "upload" value. Throws std::invalid_argument with
// "request field \"upload\": ..." naming the file.
std::vector<UploadedFile> decodeUpload(const json::Value &upload);

// A private directory holding one uploaded bundle; removed (with its files) on destruction.
class UploadDir {
public:
  // Creates the directory under `root` ("" = $TMPDIR, else /tmp) and writes the files. Throws
  // std::runtime_error (the directory is removed again) when anything fails.
  static std::unique_ptr<UploadDir> create(const std::vector<UploadedFile> &files,
                                           const std::string &root = "");
  ~UploadDir();
  UploadDir(const UploadDir &) = delete;
  UploadDir &operator=(const UploadDir &) = delete;

  const std::string &path() const { return path_; }
  // (name, bytes) of each file written.
  const std::vector<std::pair<std::string, int64_t>> &files() const { return files_; }

private:
  UploadDir() = default;
  void removeNow();

  std::string path_;
  std::vector<std::pair<std::string, int64_t>> files_;
};

// The directory uploads go to when no root is given: $TMPDIR, else /tmp.
std::string uploadRoot();

// Removes upload directories under `root` left by runners of this user that no longer run
// (their pid is in the name). Returns how many were removed.
int sweepStaleUploads(const std::string &root = "");

// Removes the upload directories of this process now (the watchdog calls it before it exits).
void removeLiveUploads();

// The answer to a ping's probe: true when `path` is a regular file (at most 256 bytes) whose
// content, without surrounding whitespace, is `token`. The app writes such a file next to its
// bundles and uploads them only when the runner cannot read it.
bool probeMatches(const std::string &path, const std::string &token);

}  // namespace stagecraft::profiler
