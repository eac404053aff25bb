// A stream of memory accesses generated instead of read from a file (`workload.pattern` of a
// memory_trace): sequential or uniformly random addresses, all loads or all stores. A stream of
// any length costs no file and no memory; the same pattern gives the same addresses on every run.
// Plain C++.
#pragma once

#include <cstdint>
#include <string>

#include "models/access_source.hpp"

namespace ridgeline {

struct AccessPattern {
  enum class Order : std::uint8_t {
    sequential,  ///< 0, B, 2B, ... (B = access_bytes), from 0 again at the span
    random,      ///< uniform over the span's accesses, each at a multiple of B
  };
  Order order = Order::sequential;
  std::uint64_t accesses = 0;
  std::uint64_t span_bytes = 0;  ///< a multiple of the access size
  bool stores = false;           ///< every access a store; otherwise every one a load
  std::uint64_t seed = 1;        ///< random: which stream of addresses
};

/// "random loads over 8 GiB", "sequential stores over 256 MiB".
std::string describe(const AccessPattern& pattern);

class PatternSource : public AccessSource {
 public:
  PatternSource(const AccessPattern& pattern, std::uint64_t access_bytes);
  bool next(MemoryAccess& access) override;

 private:
  AccessPattern pattern_;
  std::uint64_t access_bytes_;
  std::uint64_t slots_;  // accesses the span holds
  std::uint64_t issued_ = 0;
  std::uint64_t state_;  // splitmix64
};

}  // namespace ridgeline
