// The seed note's analytical model: arithmetic intensity, the roofline, the ridge point, the
// three times, and the on-chip footprint of a kernel's blocks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ridgeline {

/// The two ceilings of the roofline for one data type.
struct Roof {
  double peak_flop_per_s = 0;  ///< P, FLOP/s
  double hbm_bytes_per_s = 0;  ///< BW, bytes/s
};

enum class Bound { memory, compute };
std::string_view name_of(Bound bound);

/// Where a kernel of F FLOPs and Q bytes sits under a roof.
struct Roofline {
  double intensity_flop_per_byte = 0;  ///< I = F / Q
  double ridge_flop_per_byte = 0;      ///< P / BW
  double roof_flop_per_s = 0;          ///< min(P, BW x I)
  Bound bound = Bound::memory;         ///< memory when I < P / BW, compute otherwise
  double t_compute_s = 0;              ///< F / P
  double t_memory_s = 0;               ///< Q / BW
  double t_ideal_s = 0;                ///< max(T_compute, T_memory)
};

Roofline roofline(std::uint64_t flops, std::uint64_t bytes, const Roof& roof);

/// On-chip storage one thread block holds while resident.
struct Footprint {
  std::uint64_t input_bytes_per_stage = 0;  ///< S_input of one buffer (A and B tiles)
  std::uint32_t stages = 1;                 ///< buffers of inputs
  std::uint64_t input_bytes = 0;            ///< S_input x stages
  std::uint64_t accumulator_bytes = 0;      ///< S_acc
  std::uint64_t sram_bytes = 0;             ///< what the block allocates in SRAM
  std::uint64_t register_bytes = 0;         ///< what it allocates in the register file
};

/// What limits how many blocks a core holds.
struct CoreCapacity {
  std::uint64_t sram_bytes = 0;
  std::uint64_t register_bytes = 0;
  std::uint32_t max_blocks = 1;
};

struct Occupancy {
  std::uint64_t blocks_per_core = 0;  ///< 0: one block does not fit
  std::string limited_by;             ///< "sram", "registers" or "max_resident_blocks"
};

Occupancy occupancy(const Footprint& footprint, const CoreCapacity& capacity);

/// Everything `ridgeline analyze` reports for one workload on one machine.
struct Analysis {
  std::uint64_t flops = 0;            ///< F
  std::uint64_t hbm_read_bytes = 0;   ///< inputs read at HBM
  std::uint64_t hbm_write_bytes = 0;  ///< outputs written at HBM
  std::uint64_t sram_read_bytes = 0;   ///< operand bytes compute reads from SRAM
  std::uint64_t sram_write_bytes = 0;  ///< bytes loads write into SRAM
  Roof roof;
  Roofline roofline;
  Footprint footprint;

  std::uint64_t hbm_bytes() const { return hbm_read_bytes + hbm_write_bytes; }  ///< Q
};

}  // namespace ridgeline
