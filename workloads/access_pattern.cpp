#include "workloads/access_pattern.hpp"

#include <fmt/format.h>

#include <cassert>
#include <utility>

#include "workloads/wording.hpp"

namespace ridgeline {

std::string describe(const AccessPattern& p) {
  return fmt::format("{} {} over {}",
                     p.order == AccessPattern::Order::random ? "random" : "sequential",
                     p.stores ? "stores" : "loads", format_bytes(p.span_bytes));
}

PatternSource::PatternSource(const AccessPattern& pattern, std::uint64_t access_bytes)
    : pattern_(pattern),
      access_bytes_(access_bytes),
      slots_(pattern.span_bytes / access_bytes),
      state_(pattern.seed) {
  assert(access_bytes > 0 && slots_ > 0 && pattern.span_bytes % access_bytes == 0);
}

bool PatternSource::next(MemoryAccess& access) {
  if (issued_ == pattern_.accesses) return false;
  std::uint64_t slot = issued_ % slots_;
  if (pattern_.order == AccessPattern::Order::random) {
    // splitmix64 (Steele, Lea and Flood 2014), then a multiply to the slots: uniform, no modulo
    // bias, the same on every machine.
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    slot = static_cast<std::uint64_t>((static_cast<unsigned __int128>(z) * slots_) >> 64);
  }
  access.address = slot * access_bytes_;
  access.is_write = pattern_.stores;
  ++issued_;
  return true;
}

}  // namespace ridgeline
