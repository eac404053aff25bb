// A stream of memory accesses pulled one at a time: what a TracePlayer replays. A trace file read
// lazily implements it (workloads/memory_trace.hpp), so a trace of millions of lines is never held
// in memory. Plain C++.
#pragma once

#include <cstdint>

namespace ridgeline {

struct MemoryAccess {
  std::uint64_t address = 0;  ///< first byte
  bool is_write = false;
};

class AccessSource {
 public:
  virtual ~AccessSource() = default;
  /// The next access, or false once the stream has ended.
  virtual bool next(MemoryAccess& access) = 0;
};

}  // namespace ridgeline
