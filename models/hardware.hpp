// The whole machine's parameters, as the elaborator builds it: identical cores, the shared memory
// levels between them and the HBM (an optional L2), one HBM.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/core.hpp"
#include "models/energy.hpp"
#include "models/hbm.hpp"
#include "models/kernel_target.hpp"
#include "models/l2_cache.hpp"
#include "models/units.hpp"

namespace ridgeline {

struct HardwareParams {
  std::string name;         ///< e.g. "seed"
  Clock core_clock;         ///< clock of cores, their compute units and SRAM
  std::uint32_t cores = 1;  ///< identical cores (SMs)
  CoreParams core;
  KernelTarget threads;  ///< warps, thread and register limits, barrier cost of the cores
  HbmParams hbm;
  std::optional<L2CacheParams> l2;  ///< a shared L2 between the cores and the HBM; none if absent
  /// Energy per action at `core_clock` as the file gives it; without it no energy is reported.
  std::optional<EnergyParams> energy;
  /// Average power a kernel may draw, microwatts; 0: no limit. The configuration lowers
  /// `core_clock` to the highest clock that keeps the kernel under it (sim/config/power_limit).
  std::uint64_t power_limit_uw = 0;

  /// A shared level as the analytical model sees it, before any run.
  struct SharedLevel {
    std::string name;
    Bandwidth port_bandwidth;  ///< towards the cores, all of them together
  };
  /// The shared levels between the cores and the HBM, from the cores outwards, in the order the
  /// elaborator chains them.
  std::vector<SharedLevel> shared_levels() const {
    std::vector<SharedLevel> levels;
    if (l2) levels.push_back({kL2Name, l2->bandwidth});
    return levels;
  }

  /// Peak throughput of the whole machine for `type`, FLOP/s.
  double peak_flop_per_s(DataType type) const {
    return static_cast<double>(cores) *
           static_cast<double>(core.compute.flops_per_cycle[index_of(type)]) *
           static_cast<double>(core_clock.frequency_hz);
  }
  /// Warp instructions the whole machine issues per second; 0 where issue is not modelled.
  double warp_instructions_per_s() const {
    return static_cast<double>(cores) *
           static_cast<double>(core.compute.warp_instructions_per_cycle) *
           static_cast<double>(core_clock.frequency_hz);
  }
  /// What the cores' SRAM ports move per second, all cores together, for a mix of
  /// `read_bytes` and `write_bytes`. Two ports (read and write) move it at
  /// (read + write) / max(read / read port, write / write port): the ports' sum when the mix
  /// matches their widths, the busier port's width when one side dominates. One shared port moves
  /// any mix at its width.
  double sram_bytes_per_s(std::uint64_t read_bytes, std::uint64_t write_bytes) const {
    const double per_cycle =
        static_cast<double>(cores) * static_cast<double>(core_clock.frequency_hz);
    const double read_port = per_cycle * static_cast<double>(core.sram.read_bytes_per_cycle);
    if (core.sram.shared_port) return read_port;
    const double write_port = per_cycle * static_cast<double>(core.sram.write_bytes_per_cycle);
    const double time = std::max(static_cast<double>(read_bytes) / read_port,
                                 static_cast<double>(write_bytes) / write_port);
    return static_cast<double>(read_bytes + write_bytes) / time;
  }
  /// Peak HBM bandwidth, bytes/s.
  double hbm_bytes_per_s() const {
    return static_cast<double>(hbm.peak_bandwidth.bytes_per_second);
  }
};

}  // namespace ridgeline
