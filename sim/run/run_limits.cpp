#include "sim/run/run_limits.hpp"

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

// The parts of the bound, for one machine.
class SerialBound {
 public:
  SerialBound(const HardwareParams& hw, DataType type)
      : hw_(hw), rate_(hw.core.compute.flops_per_cycle[index_of(type)]), units_(hw.hbm.units()) {
    if (hw.hbm.mode == HbmMode::detailed && hw.hbm.dram) {
      // One burst alone, as its own row conflict: wait for a refresh (and the precharge before
      // it), then every timing a row access can wait on, one after another.
      const DramParams& d = *hw.hbm.dram;
      const DramTimings& t = d.timing;
      const u128 burst = transfer_ps(d.burst_bytes);
      const u128 column = std::max<u128>({t.tCCD_L.ps(), t.tCCD_S.ps(), burst});
      burst_bytes_ = d.burst_bytes;
      burst_ps_ = u128{t.tRFC.ps()} + t.tRP.ps() + t.tRAS.ps() + t.tWR.ps() + t.tRTP.ps() +
                  t.tRP.ps() + t.tFAW.ps() + t.tRRD_L.ps() + std::max(t.tRCD_RD, t.tRCD_WR).ps() +
                  t.tWTR_L.ps() + t.tRTW.ps() + std::max(t.tCL, t.tCWL).ps() + 2 * column + burst;
    }
  }

  // `bytes` on one channel (pseudo-channel): bytes x units / BW, rounded up.
  u128 transfer_ps(u128 bytes) const {
    return share_ps(bytes, hw_.hbm.peak_bandwidth.bytes_per_second, units_);
  }

  // What one memory request of the cores costs alone, HBM transfers excepted (counted over all
  // requests at once), and the HBM bytes it can cause. `rows` rows (repeats included) of
  // `row_bytes`.
  struct Request {
    u128 own_ps = 0;
    u128 hbm_bytes = 0;
  };
  Request request(u128 bytes, u128 rows, u128 row_bytes) const {
    if (!hw_.l2) return {hbm_request_ps(bytes, rows), bytes};
    // Through the L2: its port and hit latency (a far partition's, the longer); every line it
    // touches filled and a dirty line written back, each sector as its own HBM request at worst;
    // and, written through, the request itself.
    const L2CacheParams& l2 = *hw_.l2;
    const u128 lines = times(rows, ceil_div128(row_bytes, l2.line_bytes) + 1);
    Request r;
    r.own_ps = add(share_ps(bytes, l2.bandwidth.bytes_per_second, 1), l2.far_hit_latency.ps());
    r.own_ps = add(r.own_ps, times(times(2 * lines, l2.sectors_per_line()),
                                   hbm_request_ps(l2.line_bytes, 1)));
    r.own_ps = add(r.own_ps, hbm_request_ps(bytes, rows));
    r.hbm_bytes = add(times(2 * lines, l2.line_bytes), bytes);
    return r;
  }

  // One op alone.
  u128 op_ps(const Op& op) const {
    switch (op.kind) {
      case OpKind::load:
      case OpKind::store: {
        const Region& region = op.address.region_of_block0;
        u128 span =
            request(op.hbm_bytes(), u128{region.rows} * region.repeat, region.row_bytes).own_ps;
        if (op.sram_write_bytes > 0)
          span += cycles_ps(ceil_div128(op.sram_write_bytes, hw_.core.sram.write_bytes_per_cycle));
        return span;
      }
      case OpKind::compute:
        return cycles_ps(ceil_div128(op.flops, rate_)) +
               cycles_ps(ceil_div128(op.sram_read_bytes, hw_.core.sram.read_bytes_per_cycle)) +
               cycles_ps(hw_.core.compute.pipeline_latency.count);
      case OpKind::barrier:
        return cycles_ps(op.cycles.count);
      case OpKind::signal:
      case OpKind::wait:
        // A wait ends when other blocks' stores have; those are counted as their own ops.
        break;
    }
    return 0;
  }

  // All of one block's ops, and its HBM bytes.
  void program(const Program& p, u128& span_ps, u128& hbm_bytes) const {
    span_ps = 0;
    hbm_bytes = 0;
    for (const Op& op : p.ops()) {
      span_ps = add(span_ps, op_ps(op));
      if (op.is_memory()) {
        const Region& region = op.address.region_of_block0;
        hbm_bytes = add(
            hbm_bytes,
            request(op.hbm_bytes(), u128{region.rows} * region.repeat, region.row_bytes).hbm_bytes);
      }
    }
  }

 private:
  // `bytes` over a `share` of `bandwidth`: bytes x share / bandwidth in ps, rounded up, plus one
  // for rounding. Divided before it is scaled, so that nothing is capped before a division.
  static u128 share_ps(u128 bytes, u128 bandwidth, u128 share) {
    const u128 shared = times(bytes, share);
    return add(times(shared / bandwidth, kPicosecondsPerSecond),
               ceil_div128((shared % bandwidth) * kPicosecondsPerSecond, bandwidth) + 1);
  }

  // One HBM request of `bytes` in `rows` rows, its transfer excepted: the latency, a picosecond of
  // rounding per unit, and the DRAM's bursts (requests are rounded out to whole bursts, at most
  // two more a row).
  u128 hbm_request_ps(u128 bytes, u128 rows) const {
    u128 span = u128{hw_.hbm.access_latency.ps()} + units_;
    if (burst_bytes_ > 0)
      span = add(span, times(ceil_div128(bytes, burst_bytes_) + 2 * rows, burst_ps_));
    return span;
  }

  // `cycles` (< 2^65) of the core clock in ps, rounded up as Clock::duration rounds.
  u128 cycles_ps(u128 cycles) const {
    return ceil_div128(cycles * kPicosecondsPerSecond, hw_.core_clock.frequency_hz);
  }

  const HardwareParams& hw_;
  std::uint64_t rate_;  // FLOP/cycle of the kernel's data type (0 for a trace: no computes)
  std::uint64_t units_;
  std::uint64_t burst_bytes_ = 0;  // detailed mode only
  u128 burst_ps_ = 0;
};

}  // namespace

u128 simulated_time_bound_ps(const RunConfig& config, const Kernel& kernel) {
  const SerialBound bound(config.hardware, kernel.compute_type);
  u128 total_span = 0;
  u128 total_bytes = 0;
  kernel.for_each_program([&](const Program& program, std::uint64_t blocks) {
    u128 span = 0;
    u128 bytes = 0;
    bound.program(program, span, bytes);
    total_span = add(total_span, times(span, blocks));
    total_bytes = add(total_bytes, times(bytes, blocks));
  });
  return add(total_span, bound.transfer_ps(total_bytes));
}

u128 simulated_time_bound_ps(const RunConfig& config, const MemoryTraceSpec& trace) {
  const SerialBound bound(config.hardware, trace.dtype);
  const u128 accesses = trace.accesses();
  const auto access = bound.request(trace.access_bytes, 1, trace.access_bytes);
  // One after another, each also after its issue interval.
  const u128 own = add(access.own_ps, trace.issue_interval.ps());
  return add(times(accesses, own), bound.transfer_ps(times(accesses, access.hbm_bytes)));
}

void check_simulated_time_fits(const RunConfig& config, u128 bound_ps) {
  if (bound_ps <= kMaxSimulatedPs) return;
  const double seconds = static_cast<double>(bound_ps) / 1e12;
  throw ConfigError(
      config.workload_location, "workload", "",
      fmt::format("this run could last up to {:.3g} s of simulated time{} (every op of every block "
                  "one after another), more than the 2^63 ps (about 107 days) the simulator counts",
                  seconds, bound_ps >= kCap ? " or more" : ""),
      "simulate a smaller workload, or a faster machine: more bandwidth, a faster clock, less "
      "latency");
}

void check_simulated_time_fits(const RunConfig& config) {
  const u128 bound_ps = std::visit(
      [&](const auto& spec) {
        using Kind = KindOf<decltype(spec)>;
        if constexpr (Kind::runs_on == Runner::trace_players) {
          return simulated_time_bound_ps(config, spec);
        } else {
          return simulated_time_bound_ps(config, Kind::build_kernel(spec, config.hardware.threads));
        }
      },
      config.workload);
  check_simulated_time_fits(config, bound_ps);
}

}  // namespace ridgeline
