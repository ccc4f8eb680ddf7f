//===- TraceEvents.cpp - Chrome trace-event JSON ------------------------===//
#include "core/TraceEvents/TraceEvents.h"

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

using namespace stagecraft::trace;

Arg Arg::num(std::string key, double value) {
  Arg a;
  a.key = std::move(key);
  a.isNumber = true;
  a.number = value;
  return a;
}

Arg Arg::str(std::string key, std::string value) {
  Arg a;
  a.key = std::move(key);
  a.text = std::move(value);
  return a;
}

Arg Arg::json(std::string key, std::string jsonText) {
  Arg a;
  a.key = std::move(key);
  a.isJson = true;
  a.text = std::move(jsonText);
  return a;
}

std::string stagecraft::trace::quote(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c); // UTF-8 passes through
      }
    }
  }
  return out + "\"";
}

namespace {

/// Shortest round-tripping text of a number; null when not finite.
std::string number(double v) {
  if (!std::isfinite(v))
    return "null";
  if (v == std::floor(v) && std::fabs(v) < 9e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

/// Microseconds with nanosecond precision: "12.345".
std::string micros(double us) {
  if (!std::isfinite(us))
    return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3f", us);
  return buf;
}

void appendArgs(std::string &out, const std::vector<Arg> &args) {
  out += "{";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i)
      out += ", ";
    out += quote(args[i].key) + ": " +
           (args[i].isNumber ? number(args[i].number)
            : args[i].isJson ? args[i].text
                             : quote(args[i].text));
  }
  out += "}";
}

std::string integer(int64_t v) { return std::to_string(v); }

} // namespace

std::string stagecraft::trace::toJson(const Document &doc) {
  std::string out = "{\"traceEvents\": [\n";
  bool first = true;
  auto line = [&](const std::string &s) {
    out += first ? "  " : ",\n  ";
    out += s;
    first = false;
  };
  for (const Process &p : doc.processes) {
    line("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": " + integer(p.pid) +
         ", \"tid\": 0, \"args\": {\"name\": " + quote(p.name) + "}}");
    line("{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": " + integer(p.pid) +
         ", \"tid\": 0, \"args\": {\"sort_index\": " + integer(p.sortIndex) + "}}");
  }
  for (const Thread &t : doc.threads) {
    line("{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": " + integer(t.pid) +
         ", \"tid\": " + integer(t.tid) + ", \"args\": {\"name\": " + quote(t.name) + "}}");
    line("{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": " + integer(t.pid) +
         ", \"tid\": " + integer(t.tid) + ", \"args\": {\"sort_index\": " +
         integer(t.sortIndex) + "}}");
  }
  for (const Event &e : doc.events) {
    std::string s = "{\"name\": " + quote(e.name);
    if (!e.category.empty())
      s += ", \"cat\": " + quote(e.category);
    // Start and end rounded to the nanosecond each, the duration their
    // difference: zones that touch still touch (rounding start and duration
    // apart made 1 ns overlaps, which a viewer nests).
    double tsUs = e.tsUs, durUs = e.durUs > 0 ? e.durUs : 0;
    if (std::isfinite(tsUs) && std::isfinite(tsUs + durUs)) {
      double startNs = std::round(tsUs * 1000.0), endNs = std::round((tsUs + durUs) * 1000.0);
      tsUs = startNs / 1000.0;
      durUs = std::max(0.0, endNs - startNs) / 1000.0;
    }
    s += ", \"ph\": \"X\", \"ts\": " + micros(tsUs) +
         ", \"dur\": " + micros(durUs) + ", \"pid\": " + integer(e.pid) +
         ", \"tid\": " + integer(e.tid) + ", \"args\": ";
    appendArgs(s, e.args);
    line(s + "}");
  }
  out += "\n], \"displayTimeUnit\": \"ns\", \"otherData\": ";
  appendArgs(out, doc.otherData);
  out += "}\n";
  return out;
}

std::string stagecraft::trace::writeFileAtomically(const std::string &path,
                                                   const std::string &text) {
  // A device or a pipe (/dev/stdout, a FIFO) is written in place: renaming
  // a file over it would replace the device node. Its errors still count
  // (a full disk, /dev/full).
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode))
      return "cannot write " + path + ": it is a directory";
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
      return "cannot write " + path + ": " + std::strerror(errno);
    bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    int err = ok ? 0 : errno;
    if (std::fflush(f) != 0 && ok) {
      ok = false;
      err = errno;
    }
    if (std::fclose(f) != 0 && ok) {
      ok = false;
      err = errno;
    }
    return ok ? "" : "cannot write " + path + ": " + std::strerror(err ? err : EIO);
  }
  std::string tmp = path + ".partial-" + std::to_string(getpid());
  std::FILE *f = std::fopen(tmp.c_str(), "wb");
  if (!f)
    return "cannot write " + path + ": " + std::strerror(errno);
  size_t n = std::fwrite(text.data(), 1, text.size(), f);
  bool ok = n == text.size();
  int err = ok ? 0 : errno;
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    std::remove(tmp.c_str());
    return "cannot write " + path + ": " + std::strerror(err ? err : EIO);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = errno;
    std::remove(tmp.c_str());
    return "cannot write " + path + ": " + std::strerror(err);
  }
  return "";
}
