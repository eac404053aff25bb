// The seed note's analytical model: arithmetic intensity, the roofline, the ridge point, the
// three times, and the on-chip footprint of a kernel's blocks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "models/data_type.hpp"

namespace ridgeline {

struct HardwareParams;

/// The two ceilings of the roofline for one data type.
struct Roof {
  double peak_flop_per_s = 0;  ///< P, FLOP/s
  double hbm_bytes_per_s = 0;  ///< BW, bytes/s
  /// The vector units' (CUDA cores') FP32 peak, FLOP/s, for the FLOPs a kernel of another type
  /// executes there (Analysis::vector_flops); 0: the machine lists no fp32.
  double vector_flop_per_s = 0;
  /// Warp instructions the machine issues per second, all cores (Analysis::warp_instructions);
  /// 0: issue is not modelled.
  double warp_instructions_per_s = 0;
};

/// The machine's two roofline ceilings for `type`.
Roof roof_of(const HardwareParams& hardware, DataType type);

enum class Bound { memory, compute };
std::string_view name_of(Bound bound);

/// Where a kernel of F FLOPs and Q bytes sits under a roof.
struct Roofline {
  double intensity_flop_per_byte = 0;  ///< I = F / Q
  double ridge_flop_per_byte = 0;      ///< P / BW
  /// F / T_ideal: min(P, BW x I), or min(P F / F_issued, BW x I) where edge tiles issue more.
  double roof_flop_per_s = 0;
  Bound bound = Bound::memory;         ///< memory when T_memory > T_compute, compute otherwise
  /// F_issued / P: the compute units execute every lane; FLOPs on the vector units at their own
  /// peak (Roof::vector_flop_per_s); or the time the kernel's warp instructions take to issue,
  /// where that is longer.
  double t_compute_s = 0;
  double t_memory_s = 0;               ///< Q / BW
  double t_ideal_s = 0;                ///< max(T_compute, T_memory)
};

/// The roofline of `flops` useful FLOPs, `issued_flops` executed (>= flops) and `bytes` of HBM;
/// `vector_flops` of the issued ones run on the vector units (FP32) at their own peak;
/// `warp_instructions` issue them (0: not counted).
Roofline roofline(std::uint64_t flops, std::uint64_t issued_flops, std::uint64_t bytes,
                  const Roof& roof, std::uint64_t vector_flops = 0,
                  std::uint64_t warp_instructions = 0);

/// The compute units' time for `issued_flops`, `vector_flops` of them on the vector units: the
/// kernel's type at P, the rest at the vector peak; or, where longer, the time their
/// `warp_instructions` take to issue.
double compute_time_s(std::uint64_t issued_flops, std::uint64_t vector_flops, const Roof& roof,
                      std::uint64_t warp_instructions = 0);

/// The time `warp_instructions` take to issue on every core at once; 0 where issue is not
/// modelled.
double issue_time_s(std::uint64_t warp_instructions, const Roof& roof);

/// Whether `warp_instructions` take longer to issue than the FLOPs they execute take at P (and
/// the vector peak): then the issue is the compute roof.
bool issue_binds(std::uint64_t issued_flops, std::uint64_t vector_flops, const Roof& roof,
                 std::uint64_t warp_instructions);

/// On-chip storage one thread block holds while resident.
struct Footprint {
  std::uint64_t input_bytes_per_stage = 0;  ///< S_input of one buffer (A and B tiles)
  std::uint32_t stages = 1;                 ///< buffers of inputs
  std::uint64_t input_bytes = 0;            ///< S_input x stages
  std::uint64_t accumulator_bytes = 0;      ///< S_acc
  std::uint64_t sram_bytes = 0;             ///< what the block allocates in SRAM
  std::uint64_t register_bytes = 0;         ///< what it allocates in the register file

  // Threads and their registers. The register file is allocated a whole warp at a time:
  // register_bytes = warps x warp size x allocated registers per thread x 4 bytes.
  std::uint64_t threads = 0;                         ///< threads per block
  std::uint64_t warps = 0;                           ///< threads rounded up to whole warps
  std::uint32_t registers_per_thread = 0;            ///< 32-bit registers one thread needs
  std::uint32_t allocated_registers_per_thread = 0;  ///< what it holds: the need, at most the limit
  std::uint32_t spilled_registers_per_thread = 0;    ///< the rest, kept in local memory
};

struct KernelTarget;

/// Fills the thread and register part of `footprint`: `threads` threads that each need
/// `registers_per_thread` registers, on a machine whose per-thread limit spills the excess.
void assign_registers(Footprint& footprint, std::uint64_t threads,
                      std::uint64_t registers_per_thread, const KernelTarget& target);

/// What limits how many blocks a core holds.
struct CoreCapacity {
  std::uint64_t sram_bytes = 0;
  std::uint64_t register_bytes = 0;
  std::uint32_t max_blocks = 1;
  std::uint32_t max_warps = 0;  ///< resident warps per core; 0 = no limit
};

struct Occupancy {
  std::uint64_t blocks_per_core = 0;  ///< 0: one block does not fit
  /// "sram", "registers", "warps" or "max_resident_blocks": a literal, since the tile chooser
  /// asks for tens of thousands of these and a string would allocate the last of them
  std::string_view limited_by;
  std::uint64_t active_warps = 0;     ///< blocks_per_core x warps per block
  std::uint32_t max_warps = 0;        ///< the core's limit; 0 = none
  /// Active warps / maximum warps, the usual GPU figure; 0 when the core has no warp limit.
  double fraction() const {
    return max_warps ? static_cast<double>(active_warps) / static_cast<double>(max_warps) : 0;
  }
};

Occupancy occupancy(const Footprint& footprint, const CoreCapacity& capacity);

/// Everything `ridgeline analyze` reports for one workload on one machine.
struct Analysis {
  std::uint64_t flops = 0;  ///< F: the useful FLOPs of the problem
  /// What the compute units execute: F, plus the predicated-off lanes of edge tiles (a tile that
  /// does not divide the matrix still issues its whole tile's matrix instructions).
  std::uint64_t issued_flops = 0;
  /// Of the issued FLOPs, those executed on the vector units in FP32 rather than in the kernel's
  /// type: a split-K GEMM's reduction of partial sums (its adds are beyond F).
  std::uint64_t vector_flops = 0;
  /// Warp instructions the kernel's main loop issues (multiply-adds, operand loads, tile copies,
  /// barriers), where the workload counts them: a tiled GEMM's or convolution's whose multiply-
  /// adds are the lanes' own (multiplies_on_lanes). 0: not counted.
  std::uint64_t warp_instructions = 0;
  std::uint64_t hbm_read_bytes = 0;     ///< inputs read at HBM
  std::uint64_t hbm_write_bytes = 0;    ///< outputs written at HBM
  std::uint64_t sram_read_bytes = 0;    ///< operands read from SRAM into registers
  std::uint64_t sram_write_bytes = 0;   ///< loaded tiles written into SRAM
  /// Of hbm_read_bytes, in a kernel with SRAM tiles: read straight into registers beside them
  /// (a split-K's partial sums). Without SRAM tiles every load lands in registers.
  std::uint64_t hbm_register_read_bytes = 0;
  std::uint64_t local_read_bytes = 0;   ///< spilled registers reloaded from local memory
  std::uint64_t local_write_bytes = 0;  ///< spilled registers written to local memory
  Roof roof;
  Roofline roofline;
  Footprint footprint;

  std::uint64_t hbm_bytes() const { return hbm_read_bytes + hbm_write_bytes; }  ///< Q
  /// Traffic between SRAM and the registers, both ways: the SRAM level's Q.
  std::uint64_t sram_traffic_bytes() const { return sram_read_bytes + sram_write_bytes; }
  /// Spill traffic, which travels to memory beside Q (CUDA local memory).
  std::uint64_t local_traffic_bytes() const { return local_read_bytes + local_write_bytes; }
};

}  // namespace ridgeline
