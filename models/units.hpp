// Strong types for the physical quantities the models compute with.
//
// Simulated time is an integer count of picoseconds, SystemC's default resolution, so that the
// plain timing cores and the sc_module shells agree to the picosecond and every run is exact and
// repeatable. Rates are integers too (bytes per second, bytes or FLOPs per cycle, hertz): every
// duration is computed as one rounded-up integer division, never as a sum of rounded parts.
#pragma once

#include <algorithm>
#include <cstdint>

namespace ridgeline {

/// A point in, or a span of, simulated time, in picoseconds.
class Time {
 public:
  constexpr Time() = default;
  static constexpr Time from_ps(std::uint64_t ps) { return Time(ps); }
  constexpr std::uint64_t ps() const { return ps_; }
  /// Divided by 1e12 (exact as a double), not multiplied by 1e-12 (which is not): the quotient
  /// is correctly rounded, so a span of a short decimal number of seconds (802,311,912 ps) prints
  /// as that decimal (0.000802311912), not with digits of noise (0.0008023119119999999).
  constexpr double seconds() const { return static_cast<double>(ps_) / 1e12; }

  constexpr Time operator+(Time other) const { return Time(ps_ + other.ps_); }
  /// Saturates at zero: a span never goes negative.
  constexpr Time operator-(Time other) const { return Time(ps_ > other.ps_ ? ps_ - other.ps_ : 0); }
  constexpr Time& operator+=(Time other) {
    ps_ += other.ps_;
    return *this;
  }
  constexpr bool operator==(Time other) const { return ps_ == other.ps_; }
  constexpr bool operator!=(Time other) const { return ps_ != other.ps_; }
  constexpr bool operator<(Time other) const { return ps_ < other.ps_; }
  constexpr bool operator<=(Time other) const { return ps_ <= other.ps_; }
  constexpr bool operator>(Time other) const { return ps_ > other.ps_; }
  constexpr bool operator>=(Time other) const { return ps_ >= other.ps_; }

 private:
  constexpr explicit Time(std::uint64_t ps) : ps_(ps) {}
  std::uint64_t ps_ = 0;
};

constexpr Time max(Time a, Time b) { return a < b ? b : a; }
constexpr Time min(Time a, Time b) { return a < b ? a : b; }

/// ceil(numerator / denominator) of non-negative integers, without overflow for the products
/// used here. Operands of 64 bits or fewer are divided in 64 bits, exact for every value; wider
/// ones too where both fit (a 128-bit division is a library call, and the tile chooser makes
/// hundreds of thousands of these), else in 128.
template <class Numerator, class Denominator>
constexpr std::uint64_t ceil_div(Numerator numerator, Denominator denominator) {
  if constexpr (sizeof(Numerator) <= sizeof(std::uint64_t) &&
                sizeof(Denominator) <= sizeof(std::uint64_t)) {
    const auto n = static_cast<std::uint64_t>(numerator);
    const auto d = static_cast<std::uint64_t>(denominator);
    return n / d + (n % d != 0 ? 1 : 0);
  } else {
    const auto n = static_cast<unsigned __int128>(numerator);
    const auto d = static_cast<unsigned __int128>(denominator);
    if ((n >> 64) == 0 && (d >> 64) == 0) {
      return ceil_div(static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(d));
    }
    return static_cast<std::uint64_t>((n + d - 1) / d);
  }
}

/// A count of cycles of one clock domain; converts to time only through that domain's Clock.
struct Cycles {
  std::uint64_t count = 0;
};

inline constexpr std::uint64_t kPicosecondsPerSecond = 1'000'000'000'000ULL;

/// A clock domain, defined by its frequency so that periods like 1/1.5 GHz stay exact.
class Clock {
 public:
  constexpr Clock() = default;
  constexpr explicit Clock(std::uint64_t hz)
      : frequency_hz(hz),
        period_ps_(hz && kPicosecondsPerSecond % hz == 0 ? kPicosecondsPerSecond / hz : 0) {}

  std::uint64_t frequency_hz = 0;

  /// Duration of `cycles` cycles, rounded up to the picosecond.
  constexpr Time duration(Cycles cycles) const {
    if (period_ps_ != 0) return Time::from_ps(cycles.count * period_ps_);  // whole-ps period
    return Time::from_ps(ceil_div(
        static_cast<unsigned __int128>(cycles.count) * kPicosecondsPerSecond, frequency_hz));
  }
  /// Cycles elapsed in `span` (fractional cycles included), for reporting.
  constexpr double cycles_in(Time span) const {
    return static_cast<double>(span.ps()) * static_cast<double>(frequency_hz) / 1e12;
  }

 private:
  std::uint64_t period_ps_ = 0;  // the period when it is a whole number of ps, else 0
};

/// A transfer rate in bytes per second (decimal, as the memory datasheets give it).
struct Bandwidth {
  std::uint64_t bytes_per_second = 0;

  /// Time to move `bytes` over `share` equal parts of this bandwidth (a channel of `share`),
  /// rounded up to the picosecond.
  constexpr Time transfer_time(std::uint64_t bytes, std::uint64_t share = 1) const {
    return Time::from_ps(ceil_div(
        static_cast<unsigned __int128>(bytes) * kPicosecondsPerSecond * share, bytes_per_second));
  }
};

/// A fixed share of a bandwidth, with the division done once where the rate allows it:
/// 1 TB/s over 8 channels is exactly 8 ps per byte.
class TransferRate {
 public:
  constexpr TransferRate() = default;
  constexpr TransferRate(Bandwidth bandwidth, std::uint64_t share)
      : bandwidth_(bandwidth),
        share_(share),
        ps_per_byte_((kPicosecondsPerSecond * share) % bandwidth.bytes_per_second == 0
                         ? kPicosecondsPerSecond * share / bandwidth.bytes_per_second
                         : 0) {}

  constexpr Time time_for(std::uint64_t bytes) const {
    if (ps_per_byte_ != 0) return Time::from_ps(bytes * ps_per_byte_);
    return bandwidth_.transfer_time(bytes, share_);
  }

 private:
  Bandwidth bandwidth_;
  std::uint64_t share_ = 1;
  std::uint64_t ps_per_byte_ = 0;  // when whole, else 0
};

}  // namespace ridgeline
