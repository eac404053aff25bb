// One HBM3 stack as configs/hardware/hbm3-stack.yaml describes it, for tests of the DRAM models
// alone: 16 channels x 2 pseudo-channels of 25.6 GB/s, 8 bank groups x 4 banks, 16384 rows of
// 1 KiB, 32 B bursts, JESD238-style timings. Kept here, not read from the file, so that the
// models' tests stand apart from the presets.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "models/address_map.hpp"
#include "models/dram_system.hpp"

namespace ridgeline::test {

inline Time ns(double value) {
  return Time::from_ps(static_cast<std::uint64_t>(value * 1000 + 0.5));
}

inline AddressGeometry hbm3_geometry(std::uint64_t interleave);

/// A named mapping whole: Ramulator's, which order the address within a channel, with the
/// channel right above the burst (Ramulator 2.1's default channel mapper).
inline AddressMapping named_mapping(std::string_view name) {
  for (const auto& m : named_address_mappings()) {
    if (m.name != name) continue;
    return m.within_channel ? with_channel_above(m.mapping, 0, hbm3_geometry(32)) : m.mapping;
  }
  ADD_FAILURE() << "no mapping " << name;
  return {};
}

inline AddressGeometry hbm3_geometry(std::uint64_t interleave = 256) {
  AddressGeometry g;
  g.channels = 16;
  g.pseudo_channels = 2;
  g.bank_groups = 8;
  g.banks_per_group = 4;
  g.rows = 16384;
  g.row_bytes = 1024;
  g.interleave_bytes = interleave;
  return g;
}

/// Bank groups alternating (bank_group_interleave); refresh off unless asked.
inline DramParams hbm3_dram(bool refresh = false) {
  DramParams d;
  d.bank_groups = 8;
  d.banks_per_group = 4;
  d.rows = 16384;
  d.row_bytes = 1024;
  d.burst_bytes = 32;
  d.mapping = named_mapping("bank_group_interleave");
  d.controller.scheduler = DramScheduler::fcfs;  // the hand-computed timelines are first come first served
  DramTimings& t = d.timing;
  t.tRCD_RD = ns(16.25);
  t.tRCD_WR = ns(8.75);
  t.tRP = ns(16.25);
  t.tRAS = ns(30);
  t.tCL = ns(16.25);
  t.tCWL = ns(5);
  t.tCCD_S = ns(1.25);
  t.tCCD_L = ns(2.5);
  t.tRRD_S = ns(5);
  t.tRRD_L = ns(5);
  t.tFAW = ns(15);
  t.tWR = ns(15);
  t.tRTP = ns(3.75);
  t.tWTR_S = ns(5);
  t.tWTR_L = ns(7.5);
  t.tRTW = ns(13.75);
  t.tREFI = ns(3900);
  t.tRFC = ns(350);
  d.refresh = refresh;
  return d;
}

}  // namespace ridgeline::test
