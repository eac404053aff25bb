#include "models/core.hpp"

namespace ridgeline {

void CoreStats::visit(const StatVisitor& v) const {
  v("blocks", as_stat(blocks), "blocks", "thread blocks run to completion");
  v("loads", as_stat(loads), "requests", "load requests issued");
  v("stores", as_stat(stores), "requests", "store requests issued");
  v("barriers", as_stat(barriers), "barriers", "barriers executed");
  v("load_bytes", as_stat(load_bytes), "bytes", "bytes requested by loads");
  v("store_bytes", as_stat(store_bytes), "bytes", "bytes requested by stores");
  v("ops", as_stat(ops), "ops", "program ops completed");
  v("wakeups", as_stat(wakeups), "events", "times the core's process ran");
  v("peak_resident_blocks", as_stat(std::uint64_t{peak_resident_blocks}), "blocks",
    "most thread blocks resident at once");
  v("compute_busy_s", as_stat(compute_busy), "s", "compute unit occupied");
  v("memory_active_s", as_stat(memory_active), "s", "at least one load or store in flight");
  v("overlap_s", as_stat(overlap), "s", "compute busy while memory was active");
  v("waiting_data_s", as_stat(waiting_data), "s", "compute idle while loads were outstanding");
  v("draining_s", as_stat(draining), "s",
    "compute idle, blocks resident, no load outstanding (stores, barriers, pipeline)");
  v("no_work_s", as_stat(no_work), "s", "compute idle with no block resident");
  v("buffer_wait_s", as_stat(buffer_wait), "s",
    "summed over blocks: next load ready but its buffer still in use");
  v("in_flight_limit_s", as_stat(in_flight_limit), "s",
    "next memory request held back by the in-flight limit");
  v("finish_s", as_stat(finish), "s", "when the core's last block retired");
  v("local_loads", as_stat(local_loads), "requests", "of loads: spilled registers reloaded");
  v("local_stores", as_stat(local_stores), "requests", "of stores: spilled registers written back");
  v("local_load_bytes", as_stat(local_load_bytes), "bytes", "of load bytes: local memory");
  v("local_store_bytes", as_stat(local_store_bytes), "bytes", "of store bytes: local memory");
  v("barrier_wait_s", as_stat(barrier_wait), "s", "compute idle while a barrier was in progress");
  v("spill_wait_s", as_stat(spill_wait), "s",
    "compute idle while a spilled-register reload was outstanding");
  v("waiting_data_limited_s", as_stat(waiting_data_limited), "s",
    "of waiting for data: the memory queue was held by the in-flight limit");
  v("barrier_time_s", as_stat(barrier_time), "s", "summed over barriers: their duration");
  v("load_time_s", as_stat(load_time), "s", "summed over loads: from issue to the data's arrival");
  v("resident_block_time_s", as_stat(resident_block_time), "s",
    "resident blocks integrated over time (block-seconds)");
  v("resident_warp_time_s", as_stat(resident_warp_time), "s",
    "resident warps integrated over time (warp-seconds)");
  v("full_by_blocks_s", as_stat(full_by_blocks), "s",
    "no further block admitted: max_resident_blocks reached");
  v("full_by_warps_s", as_stat(full_by_warps), "s", "no further block admitted: warps full");
  v("full_by_sram_s", as_stat(full_by_sram), "s", "no further block admitted: SRAM full");
  v("full_by_registers_s", as_stat(full_by_registers), "s",
    "no further block admitted: register file full");
}

}  // namespace ridgeline
