// What a core (an SM) is given and what it counts; the core itself, which runs resident thread
// blocks, is core_module.hpp.
#pragma once

#include <cstdint>

#include "models/compute_unit.hpp"
#include "models/register_file.hpp"
#include "models/sram.hpp"
#include "models/stat_fields.hpp"
#include "models/units.hpp"

namespace ridgeline {

struct CoreParams {
  std::uint32_t max_resident_blocks = 1;     ///< thread blocks held at once
  std::uint64_t max_bytes_in_flight = 0;     ///< memory bytes outstanding per core
  std::uint32_t max_requests_in_flight = 0;  ///< memory requests outstanding; 0 = no limit
  std::uint32_t max_warps = 0;               ///< resident warps (all blocks); 0 = no limit
  /// From a block's admission to its first instruction: the work distributor hands it to the
  /// core and the core sets it up. A finished block's slot stays idle this long before its
  /// successor runs, which is what short blocks (a streaming kernel's) pay once each.
  Cycles block_launch;
  Cycles warp_launch;  ///< added to block_launch for each warp of the block (warps start in turn)
  SramParams sram;
  RegisterFileParams registers;
  ComputeUnitParams compute;
};

/// Where a core's time went. Every interval of the core's run is classified once: the compute
/// unit was busy, or idle for one named reason; memory activity and overlap are counted beside it.
struct CoreStats : StatFields<CoreStats> {
  std::uint64_t blocks = 0;                ///< thread blocks run to completion
  std::uint64_t loads = 0;                 ///< load requests issued
  std::uint64_t stores = 0;                ///< store requests issued
  std::uint64_t barriers = 0;              ///< barriers executed
  std::uint64_t load_bytes = 0;            ///< bytes requested by loads
  std::uint64_t store_bytes = 0;           ///< bytes requested by stores
  std::uint64_t register_load_bytes = 0;   ///< of `load_bytes`: landing in registers, not SRAM
  std::uint64_t ops = 0;                   ///< program ops completed
  std::uint64_t wakeups = 0;               ///< times the core's process ran (SystemC events)
  std::uint32_t peak_resident_blocks = 0;  ///< most blocks resident at once
  std::uint64_t local_loads = 0;           ///< of `loads`: spilled registers reloaded
  std::uint64_t local_stores = 0;          ///< of `stores`: spilled registers written back
  std::uint64_t local_load_bytes = 0;      ///< of `load_bytes`: local memory
  std::uint64_t local_store_bytes = 0;     ///< of `store_bytes`: local memory
  std::uint64_t buffer_waits = 0;          ///< loads that waited for a free buffer
  std::uint64_t flag_waits = 0;            ///< waits for other blocks' flags (split-K, stream-K)

  Time compute_busy;     ///< the compute unit was occupied
  Time memory_active;    ///< at least one load or store was in flight
  Time overlap;          ///< both at once
  Time waiting_data;     ///< compute idle while loads were outstanding (data not yet there)
  Time draining;         ///< compute idle, blocks resident, no load outstanding (stores, syncs)
  Time no_work;          ///< compute idle, no block resident
  Time launching;        ///< compute idle, no load outstanding, a block being launched
  /// Compute idle, no load outstanding, a block waiting for other blocks' flags (partial sums).
  Time waiting_blocks;
  Time buffer_wait;      ///< summed over loads: ready but for a buffer still in use
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

  static constexpr auto fields() {
    return std::make_tuple(
        counter("blocks", &CoreStats::blocks, "blocks", Merge::sum,
                "thread blocks run to completion"),
        counter("loads", &CoreStats::loads, "requests", Merge::sum, "load requests issued"),
        counter("stores", &CoreStats::stores, "requests", Merge::sum, "store requests issued"),
        counter("barriers", &CoreStats::barriers, "barriers", Merge::sum, "barriers executed"),
        counter("load_bytes", &CoreStats::load_bytes, "bytes", Merge::sum,
                "bytes requested by loads"),
        counter("store_bytes", &CoreStats::store_bytes, "bytes", Merge::sum,
                "bytes requested by stores"),
        counter("register_load_bytes", &CoreStats::register_load_bytes, "bytes", Merge::sum,
                "of load bytes: loads landing in registers (no SRAM tile), spill reloads"),
        counter("ops", &CoreStats::ops, "ops", Merge::sum, "program ops completed"),
        counter("wakeups", &CoreStats::wakeups, "events", Merge::sum,
                "times the core's process ran"),
        counter("peak_resident_blocks", &CoreStats::peak_resident_blocks, "blocks", Merge::max,
                "most thread blocks resident at once"),
        counter("compute_busy_s", &CoreStats::compute_busy, "s", Merge::sum,
                "compute unit occupied"),
        counter("memory_active_s", &CoreStats::memory_active, "s", Merge::sum,
                "at least one load or store in flight"),
        counter("overlap_s", &CoreStats::overlap, "s", Merge::sum,
                "compute busy while memory was active"),
        counter("waiting_data_s", &CoreStats::waiting_data, "s", Merge::sum,
                "compute idle while loads were outstanding"),
        counter("draining_s", &CoreStats::draining, "s", Merge::sum,
                "compute idle, blocks resident, no load outstanding (stores, barriers, pipeline)"),
        counter("no_work_s", &CoreStats::no_work, "s", Merge::sum,
                "compute idle with no block resident"),
        counter("launching_s", &CoreStats::launching, "s", Merge::sum,
                "compute idle, no load outstanding, while a block was being launched"),
        counter("waiting_blocks_s", &CoreStats::waiting_blocks, "s", Merge::sum,
                "compute idle, no load outstanding, while a block waited for other blocks' "
                "results (a flag they signal)"),
        counter("flag_waits", &CoreStats::flag_waits, "waits", Merge::sum,
                "waits for flags other blocks signal (partial sums handed over)"),
        counter("buffer_waits", &CoreStats::buffer_waits, "loads", Merge::sum,
                "loads that waited for a free buffer"),
        counter(
            "buffer_wait_s", &CoreStats::buffer_wait, "s", Merge::sum,
            "summed over loads: ready but for a buffer still in use (load-time, not core-time)"),
        counter("in_flight_limit_s", &CoreStats::in_flight_limit, "s", Merge::sum,
                "next memory request held back by the in-flight limit"),
        counter("finish_s", &CoreStats::finish, "s", Merge::max,
                "when the core's last block retired"),
        counter("local_loads", &CoreStats::local_loads, "requests", Merge::sum,
                "of loads: spilled registers reloaded"),
        counter("local_stores", &CoreStats::local_stores, "requests", Merge::sum,
                "of stores: spilled registers written back"),
        counter("local_load_bytes", &CoreStats::local_load_bytes, "bytes", Merge::sum,
                "of load bytes: local memory"),
        counter("local_store_bytes", &CoreStats::local_store_bytes, "bytes", Merge::sum,
                "of store bytes: local memory"),
        counter("barrier_wait_s", &CoreStats::barrier_wait, "s", Merge::sum,
                "compute idle while a barrier was in progress"),
        counter("spill_wait_s", &CoreStats::spill_wait, "s", Merge::sum,
                "compute idle while a spilled-register reload was outstanding"),
        counter("waiting_data_limited_s", &CoreStats::waiting_data_limited, "s", Merge::sum,
                "of waiting for data: the memory queue was held by the in-flight limit"),
        counter("barrier_time_s", &CoreStats::barrier_time, "s", Merge::sum,
                "summed over barriers: their duration"),
        counter("load_time_s", &CoreStats::load_time, "s", Merge::sum,
                "summed over loads: from issue to the data's arrival"),
        counter("resident_block_time_s", &CoreStats::resident_block_time, "s", Merge::sum,
                "resident blocks integrated over time (block-seconds)"),
        counter("resident_warp_time_s", &CoreStats::resident_warp_time, "s", Merge::sum,
                "resident warps integrated over time (warp-seconds)"),
        counter("full_by_blocks_s", &CoreStats::full_by_blocks, "s", Merge::sum,
                "no further block admitted: max_resident_blocks reached"),
        counter("full_by_warps_s", &CoreStats::full_by_warps, "s", Merge::sum,
                "no further block admitted: warps full"),
        counter("full_by_sram_s", &CoreStats::full_by_sram, "s", Merge::sum,
                "no further block admitted: SRAM full"),
        counter("full_by_registers_s", &CoreStats::full_by_registers, "s", Merge::sum,
                "no further block admitted: register file full"));
  }
};

}  // namespace ridgeline
