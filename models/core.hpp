// What a core (an SM) is given and what it counts; the core itself, which runs resident thread
// blocks, is core_module.hpp.
#pragma once

#include <cstdint>

#include "models/compute_unit.hpp"
#include "models/register_file.hpp"
#include "models/sram.hpp"
#include "models/stats.hpp"
#include "models/units.hpp"

namespace ridgeline {

struct CoreParams {
  std::uint32_t max_resident_blocks = 1;     ///< thread blocks held at once
  std::uint64_t max_bytes_in_flight = 0;     ///< memory bytes outstanding per core
  std::uint32_t max_requests_in_flight = 0;  ///< memory requests outstanding; 0 = no limit
  std::uint32_t max_warps = 0;               ///< resident warps (all blocks); 0 = no limit
  SramParams sram;
  RegisterFileParams registers;
  ComputeUnitParams compute;
};

/// Where a core's time went. Every interval of the core's run is classified once: the compute
/// unit was busy, or idle for one named reason; memory activity and overlap are counted beside it.
struct CoreStats {
  std::uint64_t blocks = 0;                ///< thread blocks run to completion
  std::uint64_t loads = 0;                 ///< load requests issued
  std::uint64_t stores = 0;                ///< store requests issued
  std::uint64_t barriers = 0;              ///< barriers executed
  std::uint64_t load_bytes = 0;            ///< bytes requested by loads
  std::uint64_t store_bytes = 0;           ///< bytes requested by stores
  std::uint64_t ops = 0;                   ///< program ops completed
  std::uint64_t wakeups = 0;               ///< times the core's process ran (SystemC events)
  std::uint32_t peak_resident_blocks = 0;  ///< most blocks resident at once
  std::uint64_t local_loads = 0;           ///< of `loads`: spilled registers reloaded
  std::uint64_t local_stores = 0;          ///< of `stores`: spilled registers written back
  std::uint64_t local_load_bytes = 0;      ///< of `load_bytes`: local memory
  std::uint64_t local_store_bytes = 0;     ///< of `store_bytes`: local memory

  Time compute_busy;     ///< the compute unit was occupied
  Time memory_active;    ///< at least one load or store was in flight
  Time overlap;          ///< both at once
  Time waiting_data;     ///< compute idle while loads were outstanding (data not yet there)
  Time draining;         ///< compute idle, blocks resident, no load outstanding (stores, syncs)
  Time no_work;          ///< compute idle, no block resident
  Time buffer_wait;      ///< summed over blocks: next load ready but its buffer still in use
  Time in_flight_limit;  ///< the next memory request waited for the in-flight limit
  Time finish;           ///< when the core's last block retired

  Time barrier_wait;          ///< compute idle while a barrier was in progress
  Time spill_wait;            ///< compute idle while a spilled-register reload was outstanding
  Time waiting_data_limited;  ///< of `waiting_data`: the queue was held by the in-flight limit
  Time barrier_time;          ///< summed over barriers: their duration (block-time)
  Time load_time;             ///< summed over loads: from issue to the data's arrival
  Time resident_block_time;   ///< resident blocks integrated over time (block-time)
  Time resident_warp_time;    ///< resident warps integrated over time (warp-time)
  /// Time the core could not admit another block, by the resource that refused it (in the order
  /// blocks, warps, SRAM, registers); counted until the core finds the scheduler empty.
  Time full_by_blocks;
  Time full_by_warps;
  Time full_by_sram;
  Time full_by_registers;

  void visit(const StatVisitor& v) const;
};

}  // namespace ridgeline
