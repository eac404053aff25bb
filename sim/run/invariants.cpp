#include "sim/run/invariants.hpp"

#include <fmt/format.h>

#include <cmath>

#include "sim/config/analytical_energy.hpp"
#include "sim/run/simulated_energy.hpp"
#include "sim/util/internal_error.hpp"
#include "sim/util/text_format.hpp"

namespace ridgeline {

namespace {

class Checker {
 public:
  explicit Checker(const SimulationResult& result) : time_s_(result.time.seconds()) {}

  // `what` took `seconds` of the run, at least: no more than the run's time.
  void within_run(const std::string& what, double seconds) {
    if (seconds <= time_s_ * (1 + kInvariantTolerance)) return;
    fail("{} needs {} at its peak, longer than the run's {} ({:.6f} times the run)", what,
         engineering(seconds, "s"), engineering(time_s_, "s"), seconds / time_s_);
  }
  // `bytes` at `bytes_per_s` fit in the run.
  void moved_within_run(const std::string& what, std::uint64_t bytes, double bytes_per_s) {
    if (bytes == 0) return;
    if (bytes_per_s <= 0) {
      fail("{} moved {} bytes with no bandwidth", what, with_commas(bytes));
      return;
    }
    within_run(fmt::format("{} ({} bytes at {})", what, with_commas(bytes),
                           engineering(bytes_per_s, "B/s")),
               static_cast<double>(bytes) / bytes_per_s);
  }
  void equal(const std::string& what, std::uint64_t a, const std::string& is, std::uint64_t b) {
    if (a == b) return;
    fail("{} ({}) differs from {} ({})", what, with_commas(a), is, with_commas(b));
  }
  void at_most(const std::string& what, Time part, const std::string& of, Time whole) {
    if (part <= whole) return;
    fail("{} ({}) exceeds {} ({})", what, duration(part.seconds()), of, duration(whole.seconds()));
  }

  template <class... Args>
  void fail(fmt::format_string<Args...> format, Args&&... args) {
    violations.push_back(fmt::format(format, std::forward<Args>(args)...));
  }

  std::vector<std::string> violations;

 private:
  double time_s_;
};

double per_second(std::uint64_t per_cycle, const Clock& clock) {
  return static_cast<double>(per_cycle) * static_cast<double>(clock.frequency_hz);
}

// Bandwidths: HBM as a whole and its busiest channel, each shared level's port.
void check_memory_levels(Checker& check, const RunConfig& config, const SimulationResult& r) {
  const HardwareParams& hw = config.hardware;
  check.moved_within_run("HBM", r.hbm_bytes(), hw.hbm_bytes_per_s());
  check.within_run(
      fmt::format("HBM's busiest of {} channels (pseudo-channels) transferring", r.hbm_units),
      r.hbm_busiest_unit_busy.seconds());
  check.within_run(
      fmt::format("HBM's transfers over its {} channels (pseudo-channels), per channel",
                  r.hbm_units),
      r.hbm.channel_busy.seconds() / r.hbm_units);
  for (const LevelResult& level : r.levels) {
    check.moved_within_run("the " + level.name + " port", level.traffic.requested_bytes,
                           static_cast<double>(level.port_bandwidth.bytes_per_second));
    check.within_run("the " + level.name + " port transferring", level.traffic.port_busy.seconds());
  }
  if (r.dram && hw.hbm.dram && hw.hbm.dram->refresh) {
    // Each pseudo-channel refreshes once a tREFI (per bank: each bank once, tRFCpb / banks of
    // pseudo-channel time each), and one refresh may be under way at the end.
    const DramTimings& t = hw.hbm.dram->timing;
    const Time cycle =
        hw.hbm.dram->controller.refresh == RefreshPolicy::per_bank ? t.tRFCpb : t.tRFC;
    const double most = static_cast<double>(r.hbm_units) *
                        (r.time.seconds() / t.tREFI.seconds() + 1) * cycle.seconds();
    if (r.dram->refresh_busy.seconds() > most * (1 + kInvariantTolerance)) {
      check.fail(
          "refreshes took {} of pseudo-channel time, more than one tRFC ({}) a tREFI ({}) "
          "allows over the run ({})",
          engineering(r.dram->refresh_busy.seconds(), "s"), duration(cycle.seconds()),
          duration(t.tREFI.seconds()), duration(r.time.seconds()));
    }
  }
}

// What went in came out: the cores' (or players') requests reach the first level, each level's
// traffic below reaches the next, and HBM saw exactly what the outermost level sent it.
void check_conservation(Checker& check, const SimulationResult& r, std::uint64_t requested) {
  const std::uint64_t hbm = r.hbm_bytes();
  if (r.levels.empty()) {
    check.equal("HBM bytes", hbm, "the bytes requested", requested);
    return;
  }
  check.equal("the " + r.levels.front().name + "'s requested bytes",
              r.levels.front().traffic.requested_bytes, "the bytes requested", requested);
  for (std::size_t i = 0; i + 1 < r.levels.size(); ++i) {
    check.equal("the " + r.levels[i + 1].name + "'s requested bytes",
                r.levels[i + 1].traffic.requested_bytes,
                "the " + r.levels[i].name + "'s bytes below", r.levels[i].traffic.below_bytes);
  }
  check.equal("HBM bytes", hbm, "the " + r.levels.back().name + "'s bytes below",
              r.levels.back().traffic.below_bytes);
  for (const LevelResult& level : r.levels) {
    if (!level.cache) continue;
    const L2CacheStats& c = level.cache->stats;
    check.equal("the " + level.name + "'s hit, pending-hit and missed bytes",
                c.hit_bytes + c.pending_hit_bytes + c.miss_bytes, "the bytes requested of it",
                c.read_bytes + c.write_bytes);
    if (r.levels.size() == 1) {
      check.equal("HBM read bytes", r.hbm.read_bytes, "the " + level.name + "'s fills",
                  c.fill_bytes);
      check.equal("HBM write bytes", r.hbm.write_bytes,
                  "the " + level.name + "'s write-backs and write-through",
                  c.writeback_bytes + c.write_through_bytes);
    }
  }
}

// Each core: no faster than its compute unit and SRAM ports, its time shared out exactly once.
void check_cores(Checker& check, const RunConfig& config, const SimulationResult& r) {
  const HardwareParams& hw = config.hardware;
  // FLOPs some ops execute on the vector units (FP32) are counted with the kernel's: at the faster
  // of the two rates the count is still a lower bound on the time.
  std::uint64_t rate = hw.core.compute.flops_per_cycle[index_of(compute_type(config.workload))];
  if (config.analysis.vector_flops > 0) {
    rate = std::max(rate, hw.core.compute.flops_per_cycle[index_of(DataType::fp32)]);
  }
  for (std::size_t i = 0; i < r.cores.size(); ++i) {
    const CoreResult& core = r.cores[i];
    const std::string name = fmt::format("core {}", i);
    if (core.compute.flops > 0) {
      check.within_run(fmt::format("{}'s {} FLOPs at {}", name, with_commas(core.compute.flops),
                                   engineering(per_second(rate, hw.core_clock), "FLOP/s")),
                       static_cast<double>(core.compute.flops) / per_second(rate, hw.core_clock));
    }
    check.within_run(name + "'s compute unit busy", core.compute.busy.seconds());
    check.at_most(name + "'s compute stretched by SRAM operands", core.compute.operand_limited,
                  "its compute busy time", core.compute.busy);
    check.at_most(name + "'s compute stretched by instruction issue", core.compute.issue_limited,
                  "its compute busy time", core.compute.busy);
    check.moved_within_run(name + "'s SRAM read port", core.sram.read_bytes,
                           per_second(hw.core.sram.read_bytes_per_cycle, hw.core_clock));
    check.moved_within_run(name + "'s SRAM write port", core.sram.write_bytes,
                           per_second(hw.core.sram.write_bytes_per_cycle, hw.core_clock));
    check.within_run(name + "'s SRAM read port busy", core.sram.read_busy.seconds());
    check.within_run(name + "'s SRAM write port busy", core.sram.write_busy.seconds());
    if (hw.core.sram.shared_port) {
      check.within_run(name + "'s SRAM port busy, reads and writes together",
                       (core.sram.read_busy + core.sram.write_busy).seconds());
    }

    const CoreStats& c = core.core;
    // The compute unit is busy or idle for exactly one reason, from the start to the core's end.
    const Time shared_out = c.compute_busy + c.barrier_wait + c.spill_wait + c.waiting_data +
                            c.waiting_blocks + c.launching + c.draining + c.no_work;
    if (shared_out != c.finish) {
      check.fail(
          "{}'s time shared out (busy {} + barriers {} + spill reloads {} + waiting for data "
          "{} + waiting for other blocks {} + launching blocks {} + draining {} + no work {} = "
          "{}) is not its time ({})",
          name, duration(c.compute_busy.seconds()), duration(c.barrier_wait.seconds()),
          duration(c.spill_wait.seconds()), duration(c.waiting_data.seconds()),
          duration(c.waiting_blocks.seconds()), duration(c.launching.seconds()),
          duration(c.draining.seconds()), duration(c.no_work.seconds()),
          duration(shared_out.seconds()), duration(c.finish.seconds()));
    }
    check.at_most(name + "'s compute busy time", c.compute_busy, "its time", c.finish);
    check.at_most(name + "'s overlap", c.overlap, "its compute busy time", c.compute_busy);
    check.at_most(name + "'s overlap", c.overlap, "its memory-active time", c.memory_active);
    check.at_most(name + "'s memory-active time", c.memory_active, "its time", c.finish);
    check.at_most(name + "'s wait for data held by the in-flight limit", c.waiting_data_limited,
                  "its wait for data", c.waiting_data);
    check.at_most(name + "'s time held by the in-flight limit", c.in_flight_limit, "its time",
                  c.finish);
  }
}

// The energy's components add up to its total, exactly in attojoules and in the joules the
// reports print.
void check_energy(Checker& check, const RunConfig& config, const SimulationResult& r) {
  const std::optional<KernelEnergy> energy = simulated_energy(config, r);
  if (!energy) return;
  const EnergyBreakdown& b = energy->breakdown;
  Attojoules sum = 0;
  double sum_j = 0;
  for (EnergyComponent component : kAllEnergyComponents) {
    sum += b.of(component);
    sum_j += b.joules(component);
  }
  if (sum != b.total_aj()) check.fail("the energy's components do not add up to its total");
  const double total_j = b.total_j();
  if (std::abs(sum_j - total_j) > total_j * kInvariantTolerance) {
    check.fail("the energy's components add up to {} J, not its total of {} J", sum_j, total_j);
  }
}

}  // namespace

std::vector<std::string> invariant_violations(const RunConfig& config, const SimulationResult& r) {
  Checker check(r);
  const Analysis& a = config.analysis;
  if (r.time.ps() == 0) check.fail("the run took no time");
  check_memory_levels(check, config, r);
  if (r.trace) {
    check_conservation(check, r, r.trace->read_bytes + r.trace->write_bytes);
    check.equal("the trace's bytes", r.trace->read_bytes + r.trace->write_bytes, "the analytical Q",
                a.hbm_bytes());
  } else {
    const CoreStats cores = r.core_total();
    check_conservation(check, r, cores.load_bytes + cores.store_bytes);
    check_cores(check, config, r);
    const std::uint64_t flops = r.flops();
    check.equal("FLOPs counted", flops, "the analytical F issued (edge tiles' lanes included)",
                a.issued_flops);
    check.equal("warp instructions counted", r.compute_total().warp_instructions,
                "the analytical model's", a.warp_instructions);
    check.equal("bytes the cores loaded", cores.load_bytes,
                "the analytical Q read plus spill reloads", a.hbm_read_bytes + a.local_read_bytes);
    check.equal("bytes the cores stored", cores.store_bytes,
                "the analytical Q written plus spill writes",
                a.hbm_write_bytes + a.local_write_bytes);
    check.within_run(fmt::format("{} FLOPs at P = {}{}", with_commas(flops),
                                 engineering(a.roof.peak_flop_per_s, "FLOP/s"),
                                 a.vector_flops > 0
                                     ? fmt::format(" ({} of them at the FP32 peak, {})",
                                                   with_commas(a.vector_flops),
                                                   engineering(a.roof.vector_flop_per_s, "FLOP/s"))
                                     : ""),
                     compute_time_s(flops, a.vector_flops, a.roof));
    if (a.warp_instructions > 0 && a.roof.warp_instructions_per_s > 0) {
      check.within_run(fmt::format("{} warp instructions at {} a cycle per core",
                                   with_commas(a.warp_instructions),
                                   config.hardware.core.compute.warp_instructions_per_cycle),
                       issue_time_s(a.warp_instructions, a.roof));
    }
    check.within_run("one block's critical path", r.block_critical_path.seconds());
    // What registers are written by loads (the energy model charges them): loads of kernels
    // without SRAM tiles, and spill reloads.
    const EnergyCounts counts = analytical_energy_counts(config.hardware, config.workload, a);
    check.equal("bytes loaded into registers", cores.register_load_bytes,
                "the analytical model's (loads without an SRAM tile, spill reloads)",
                counts.register_write_bytes);
  }
  check_energy(check, config, r);
  // With nothing between the cores and HBM, the machine is the note's: T_ideal bounds the run.
  if (r.levels.empty()) check.within_run("T_ideal", a.roofline.t_ideal_s);
  return std::move(check.violations);
}

void check_invariants(const RunConfig& config, const SimulationResult& result) {
  const std::vector<std::string> violations = invariant_violations(config, result);
  if (violations.empty()) return;
  std::string message = fmt::format(
      "the simulation of {} on {} broke {} of its invariants, so its figures are not printed:",
      config.workload_path, config.hardware.name, violations.size());
  for (const std::string& violation : violations) message += "\n  " + violation;
  throw InternalError(message);
}

}  // namespace ridgeline
