// A stack of DRAM pseudo-channels behind one address map: the detailed HBM mode's timing core.
//
// A request (a 2-D region) is rounded out to whole bursts, cut by the address map into row
// accesses (the bytes of one row of one bank of one pseudo-channel; a 2-D region's pieces that lie
// side by side in one row are one access) and each is served by its pseudo-channel's
// DramChannel, in address order (a 2-D region's merged pieces in the order of their first). The
// request is done when its last pseudo-channel has moved its last burst. Cost: one row access per
// row touched, never per burst. Plain C++.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/activity.hpp"
#include "models/address_map.hpp"
#include "models/dram_channel.hpp"
#include "models/latency_histogram.hpp"
#include "models/program.hpp"
#include "models/units.hpp"

namespace ridgeline {

/// What the detailed mode adds to the HBM's channels, bandwidth and interleave: the organisation
/// of each pseudo-channel, the address map and the timings.
struct DramParams {
  std::uint32_t bank_groups = 1;      ///< per pseudo-channel
  std::uint32_t banks_per_group = 1;  ///< per bank group
  std::uint32_t stack_ids = 1;        ///< the bank groups split among (bank group % stack_ids)
  std::uint64_t rows = 1;             ///< per bank
  std::uint64_t row_bytes = 1024;     ///< page of one pseudo-channel
  std::uint64_t burst_bytes = 32;     ///< bytes one column command moves on one pseudo-channel
  AddressMapping mapping = named_address_mappings().front().mapping;
  DramTimings timing;
  bool refresh = true;
  DramController controller;
};

class DramSystem {
 public:
  /// geometry.units() pseudo-channels, each with peak / units() of the bandwidth. The geometry's
  /// banks, rows and row size are the DRAM's (see HbmParams::geometry).
  DramSystem(const DramParams& dram, const AddressGeometry& geometry, Bandwidth peak);

  struct Served {
    Time data_done;    ///< the last burst of the request is on the bus
    Time queue_delay;  ///< the longest wait of a pseudo-channel's first command after arrival
    Time accepted;     ///< when the last of its pseudo-channels' controllers took it
    Time bus_busy;     ///< data-bus time of all its bursts, summed over pseudo-channels
                       ///< (fr_fcfs: of its reads; writes are timed when their batch drains)
  };
  /// Serves a request arriving at `now` (requests arrive in time order).
  Served access(Time now, const Region& region, bool is_write);
  /// The end of the run: every pseudo-channel drains its queued writes (DramChannel::finish).
  /// Returns when the last data was on a bus.
  Time finish();

  const AddressMap& address_map() const { return map_; }
  const DramChannel& unit(std::uint32_t index) const { return units_[index]; }
  std::uint32_t units() const { return static_cast<std::uint32_t>(units_.size()); }
  DramStats stats() const;  ///< summed over pseudo-channels, with the stack's latency histograms
  std::vector<DramStats> unit_stats() const;  ///< each pseudo-channel's (no histograms)

  /// Tells `observer` (null: nobody) each row access's data-bus reservation, as unit UnitKind::hbm.
  /// fr_fcfs: posted writes are told when their batch drains them.
  void observe(ActivityObserver* observer);

 private:
  void report(std::uint32_t unit, Time issued, std::uint64_t bytes, bool is_write,
              const RowAccessTiming& t);
  void report_drained(std::uint32_t unit);
  void merge_row_pieces();

  AddressMap map_;
  std::uint64_t burst_bytes_;
  bool requesters_stall_;
  std::vector<DramChannel> units_;
  std::vector<ReadQueue> channel_reads_;     // channel_queues: each channel's read queue
  std::vector<RowPiece> pieces_;             // scratch: the current request's row accesses
  std::vector<std::uint32_t> merge_slots_;   // scratch of merge_row_pieces
  std::vector<std::uint64_t> last_request_;  // per unit: the last request that reached it
  std::uint64_t request_ = 0;
  // Every served read row access of the stack (DramStats::read_queueing_latency): one pair,
  // so that the buckets an access touches stay in cache.
  LatencyHistogram read_queueing_latency_;
  LatencyHistogram read_service_latency_;
  ActivityObserver* observer_ = nullptr;
};

}  // namespace ridgeline
