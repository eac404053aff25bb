#include "sim/run_limits.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ridgeline {

namespace {

using u128 = unsigned __int128;

// Any bound past this is as refused as any other; capping keeps sums and products within 128 bits.
// A capped value stays far past the limit even divided by the largest bandwidth (2^64 B/s).
constexpr u128 kCap = u128{1} << 100;

u128 capped(u128 value) { return std::min(value, kCap); }
u128 add(u128 a, u128 b) { return capped(a + b); }  // a, b <= 2^100: no wrap
u128 times(u128 a, u128 b) {
  if (a == 0 || b == 0) return 0;
  return a > kCap / b ? kCap : capped(a * b);
}
u128 ceil_div128(u128 a, u128 b) { return (a + b - 1) / b; }

struct SerialBound {
  const HardwareParams& hw;
  std::uint64_t rate;  // FLOP/cycle of the kernel's data type

  // `cycles` (< 2^65) of the core clock in ps, rounded up as Clock::duration rounds.
  u128 cycles_ps(u128 cycles) const {
    return ceil_div128(cycles * kPicosecondsPerSecond, hw.core_clock.frequency_hz);
  }

  // One op alone, HBM transfers excepted (counted over all requests at once).
  u128 op_ps(const Op& op) const {
    switch (op.kind) {
      case OpKind::load:
      case OpKind::store: {
        // The latency, the SRAM write port, and a picosecond of rounding per channel.
        u128 span = u128{hw.hbm.access_latency.ps()} + hw.hbm.channels;
        if (op.sram_write_bytes > 0)
          span += cycles_ps(ceil_div128(op.sram_write_bytes, hw.core.sram.write_bytes_per_cycle));
        return span;
      }
      case OpKind::compute:
        return cycles_ps(ceil_div128(op.flops, rate)) +
               cycles_ps(ceil_div128(op.sram_read_bytes, hw.core.sram.read_bytes_per_cycle)) +
               cycles_ps(hw.core.compute.pipeline_latency.count);
      case OpKind::barrier:
        return cycles_ps(op.cycles.count);
    }
    return 0;
  }

  // All of one block's ops, and its HBM bytes.
  void program(const Program& p, u128& span_ps, u128& hbm_bytes) const {
    span_ps = 0;
    hbm_bytes = 0;
    for (const Op& op : p.ops()) {
      span_ps = add(span_ps, op_ps(op));
      if (op.is_memory()) hbm_bytes = add(hbm_bytes, op.hbm_bytes());
    }
  }
};

}  // namespace

u128 simulated_time_bound_ps(const RunConfig& config, const Kernel& kernel) {
  const HardwareParams& hw = config.hardware;
  const SerialBound bound{hw, hw.core.compute.flops_per_cycle[index_of(kernel.compute_type)]};
  u128 span = 0;
  u128 bytes = 0;
  bound.program(kernel.program, span, bytes);
  const u128 blocks = kernel.blocks();
  u128 total_span = times(span, blocks);
  u128 total_bytes = times(bytes, blocks);
  if (kernel.last_block_program) {  // one block runs the shorter program instead
    u128 last_span = 0;
    u128 last_bytes = 0;
    bound.program(*kernel.last_block_program, last_span, last_bytes);
    total_span = add(times(span, blocks - 1), last_span);
    total_bytes = add(times(bytes, blocks - 1), last_bytes);
  }
  // Every byte on one channel, a channel's share of the bandwidth: bytes x channels / BW seconds.
  // Divided before scaling to picoseconds so that nothing is capped before a division.
  const u128 bandwidth = hw.hbm.peak_bandwidth.bytes_per_second;
  const u128 channel_bytes = times(total_bytes, hw.hbm.channels);
  const u128 transfer =
      add(times(channel_bytes / bandwidth, kPicosecondsPerSecond),
          ceil_div128((channel_bytes % bandwidth) * kPicosecondsPerSecond, bandwidth));
  return add(total_span, transfer);
}

void check_simulated_time_fits(const RunConfig& config, const Kernel& kernel) {
  const u128 bound = simulated_time_bound_ps(config, kernel);
  if (bound <= kMaxSimulatedPs) return;
  const double seconds = static_cast<double>(bound) * 1e-12;
  throw ConfigError(
      config.workload_location, "workload", "",
      fmt::format("this run could last up to {:.3g} s of simulated time{} (every op of every block "
                  "one after another), more than the 2^63 ps (about 107 days) the simulator counts",
                  seconds, bound >= kCap ? " or more" : ""),
      "simulate a smaller workload, or a faster machine: more bandwidth, a faster clock, less "
      "latency");
}

}  // namespace ridgeline
