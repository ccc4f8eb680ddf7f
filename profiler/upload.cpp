#include "upload.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <set>
#include <signal.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace stagecraft::profiler {

namespace {

constexpr const char *kPrefix = "stagecraft-upload-";

// Upload directories of this process, for removeLiveUploads().
std::mutex g_liveMutex;
std::set<std::string> g_live;

size_t limitFor(const std::string &name) {
  return name == "manifest.json" ? kMaxManifestUploadBytes : kMaxModuleUploadBytes;
}

std::string listNames() {
  std::string s;
  for (const std::string &n : uploadFileNames()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

int value64(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Removes the regular files of a directory (never following links) and the directory.
void removeTree(const std::string &dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) {
    DIR *d = ::fdopendir(fd);
    if (d) {
      std::vector<std::string> names;
      while (dirent *e = ::readdir(d)) {
        std::string n = e->d_name;
        if (n != "." && n != "..") names.push_back(n);
      }
      for (const std::string &n : names) ::unlinkat(::dirfd(d), n.c_str(), 0);
      ::closedir(d);  // closes fd
    } else {
      ::close(fd);
    }
  }
  ::rmdir(dir.c_str());
}

}  // namespace

const std::vector<std::string> &uploadFileNames() {
  static const std::vector<std::string> names = {"manifest.json", "kernel.cubin", "kernel.ptx",
                                                      "reference.ptx", "timeline.cubin", "timeline.ptx"};
  return names;
}

bool base64Decode(const std::string &text, std::string *out) {
  out->clear();
  if (text.size() % 4 != 0) return false;
  out->reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      char c = text[i + k];
      if (c == '=') {
        // Padding only at the very end, in the last two places.
        if (i + 4 != text.size() || k < 2) return false;
        v[k] = 0;
        ++pad;
      } else {
        if (pad) return false;  // data after '='
        v[k] = value64(c);
        if (v[k] < 0) return false;
      }
    }
    uint32_t n = uint32_t(v[0]) << 18 | uint32_t(v[1]) << 12 | uint32_t(v[2]) << 6 | uint32_t(v[3]);
    out->push_back(char(n >> 16));
    if (pad < 2) out->push_back(char((n >> 8) & 0xff));
    if (pad < 1) out->push_back(char(n & 0xff));
  }
  return true;
}

std::vector<UploadedFile> decodeUpload(const json::Value &upload) {
  const std::string field = "request field \"upload\"";
  if (!upload.isObject())
    throw std::invalid_argument(field + ": expected an object of file name: base64 contents");
  std::vector<UploadedFile> files;
  size_t total = 0;
  for (const auto &m : upload.members()) {
    const std::string &name = m.first;
    bool known = false;
    for (const std::string &n : uploadFileNames()) known |= n == name;
    if (!known)
      throw std::invalid_argument(field + ": file \"" + name +
                                  "\" is not one the runner reads (" + listNames() + ")");
    if (!m.second.isString())
      throw std::invalid_argument(field + ": \"" + name + "\": expected a base64 string");
    const std::string &text = m.second.asString();
    size_t decodedMax = text.size() / 4 * 3;
    if (decodedMax > limitFor(name) + 2)
      throw std::invalid_argument(field + ": \"" + name + "\" is larger than " +
                                  std::to_string(limitFor(name) >> 20) + " MiB");
    UploadedFile f;
    f.name = name;
    if (!base64Decode(text, &f.data))
      throw std::invalid_argument(field + ": \"" + name + "\" is not valid base64");
    if (f.data.size() > limitFor(name))
      throw std::invalid_argument(field + ": \"" + name + "\" is larger than " +
                                  std::to_string(limitFor(name) >> 20) + " MiB");
    total += f.data.size();
    if (total > kMaxUploadBytes)
      throw std::invalid_argument(field + ": the files add up to more than " +
                                  std::to_string(kMaxUploadBytes >> 20) + " MiB");
    files.push_back(std::move(f));
  }
  bool hasManifest = false, hasModule = false;
  for (const UploadedFile &f : files) {
    hasManifest |= f.name == "manifest.json";
    hasModule |= f.name == "kernel.cubin" || f.name == "kernel.ptx";
  }
  if (!hasManifest) throw std::invalid_argument(field + ": no manifest.json");
  if (!hasModule) throw std::invalid_argument(field + ": neither kernel.cubin nor kernel.ptx");
  return files;
}

std::string uploadRoot() {
  const char *t = std::getenv("TMPDIR");
  return t && *t ? std::string(t) : std::string("/tmp");
}

std::unique_ptr<UploadDir> UploadDir::create(const std::vector<UploadedFile> &files,
                                             const std::string &root) {
  std::string base = root.empty() ? uploadRoot() : root;
  std::string templ = base + "/" + kPrefix + std::to_string(::getpid()) + "-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data()))  // mode 0700
    throw std::runtime_error("cannot create a private directory for the uploaded bundle under " +
                             base + ": " + std::strerror(errno));
  std::unique_ptr<UploadDir> dir(new UploadDir());
  dir->path_ = buf.data();
  {
    std::lock_guard<std::mutex> lock(g_liveMutex);
    g_live.insert(dir->path_);
  }
  int dfd = ::open(dir->path_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0)
    throw std::runtime_error("cannot open " + dir->path_ + ": " + std::strerror(errno));
  for (const UploadedFile &f : files) {
    // The names were checked against the allowlist; openat keeps them inside the directory
    // anyway, and O_EXCL|O_NOFOLLOW refuses anything already there.
    int fd = ::openat(dfd, f.name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
      int e = errno;
      ::close(dfd);
      throw std::runtime_error("cannot write the uploaded " + f.name + ": " + std::strerror(e));
    }
    size_t done = 0;
    while (done < f.data.size()) {
      ssize_t n = ::write(fd, f.data.data() + done, f.data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        int e = errno;
        ::close(fd);
        ::close(dfd);
        throw std::runtime_error("cannot write the uploaded " + f.name + ": " + std::strerror(e));
      }
      done += size_t(n);
    }
    ::close(fd);
    dir->files_.push_back({f.name, int64_t(f.data.size())});
  }
  ::close(dfd);
  return dir;
}

void UploadDir::removeNow() {
  if (path_.empty()) return;
  removeTree(path_);
  std::lock_guard<std::mutex> lock(g_liveMutex);
  g_live.erase(path_);
  path_.clear();
}

UploadDir::~UploadDir() { removeNow(); }

void removeLiveUploads() {
  // The watchdog thread calls this while the main thread waits in the driver; never wait for
  // a lock that thread might hold.
  std::unique_lock<std::mutex> lock(g_liveMutex, std::try_to_lock);
  if (!lock.owns_lock()) return;
  for (const std::string &d : g_live) removeTree(d);
  g_live.clear();
}

int sweepStaleUploads(const std::string &root) {
  std::string base = root.empty() ? uploadRoot() : root;
  DIR *d = ::opendir(base.c_str());
  if (!d) return 0;
  std::vector<std::string> stale;
  const std::string prefix = kPrefix;
  while (dirent *e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n.compare(0, prefix.size(), prefix) != 0) continue;
    std::string rest = n.substr(prefix.size());
    size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos) continue;
    char *end = nullptr;
    long pid = std::strtol(rest.c_str(), &end, 10);
    if (end != rest.c_str() + dash || pid <= 0) continue;
    if (pid == long(::getpid())) continue;
    if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;  // alive (or not ours to judge)
    struct stat st;
    std::string path = base + "/" + n;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
    stale.push_back(path);
  }
  ::closedir(d);
  for (const std::string &p : stale) removeTree(p);
  return int(stale.size());
}

bool probeMatches(const std::string &path, const std::string &token) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > 256) {
    ::close(fd);
    return false;
  }
  char buf[257];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n < 0) return false;
  std::string s(buf, size_t(n));
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  s = a == std::string::npos ? "" : s.substr(a, b - a + 1);
  return !token.empty() && s == token;
}

}  // namespace stagecraft::profiler
