// High-bandwidth memory: channels served first come first served, a fixed access latency.
//
// Two modes. `simple` (the default) is described below. `detailed` hands each request to a
// DramSystem (models/dram_system.hpp): banks, row buffers, DRAM command timings and refresh per
// pseudo-channel, behind a bit-order address map; the fixed latency is then what lies outside the
// DRAM (controller, PHY, interconnect), added after the last burst. A simple-mode HBM given the
// DRAM's organisation places bytes on pseudo-channels by the same address map, so switching the
// mode changes the timing model and nothing else.
//
// Simple mode:
// Each channel owns an equal share of the peak bandwidth and is modelled by reservation: a request
// that puts b bytes on a channel occupies it for b / (peak / channels) from the time the channel is
// free, and its data has arrived `access_latency` after its last channel finished. Addresses are
// interleaved over the channels every `interleave_bytes`, so a request's shape decides which
// channels it loads. Cost is O(channels) per request, independent of its size.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/activity.hpp"
#include "models/dram_system.hpp"
#include "models/program.hpp"
#include "models/stat_fields.hpp"
#include "models/units.hpp"

namespace ridgeline {

enum class HbmMode : std::uint8_t {
  simple,    ///< channels reserved first come first served, fixed latency
  detailed,  ///< banks, row buffers, DRAM timings and refresh per pseudo-channel
};

struct HbmParams {
  Bandwidth peak_bandwidth;              ///< all channels together
  Time access_latency;                   ///< unloaded time from request to data, excl. transfer
  std::uint32_t channels = 1;            ///< independent channels sharing the peak equally
  std::uint64_t interleave_bytes = 256;  ///< consecutive bytes mapped to one channel
  std::uint32_t pseudo_channels = 1;     ///< per channel, each with its share of the bandwidth
  HbmMode mode = HbmMode::simple;
  /// Banks, rows, timings and the address map: required in detailed mode; in simple mode, when
  /// given, only the address map is used (it decides which pseudo-channel a byte is on).
  std::optional<DramParams> dram;

  /// Independently served parts: channels x pseudo-channels.
  std::uint32_t units() const { return channels * pseudo_channels; }
  /// The DRAM's organisation for the address map; `dram` must be set.
  AddressGeometry geometry() const;
};

struct HbmStats : StatFields<HbmStats> {
  std::uint64_t read_bytes = 0;   ///< bytes read by all requests
  std::uint64_t write_bytes = 0;  ///< bytes written
  std::uint64_t reads = 0;        ///< read requests
  std::uint64_t writes = 0;       ///< write requests
  Time channel_busy;              ///< sum over channels (pseudo-channels) of time transferring
  Time queue_delay;               ///< sum over requests of the wait for a busy channel (detailed:
                                  ///< of the first DRAM command of each pseudo-channel)
  Time read_queue_delay;          ///< of queue_delay: read requests
  Time last_transfer;             ///< when the last transfer ended on its channel
  Time last_data;                 ///< when the last request's data arrived

  static constexpr auto fields() {
    return std::make_tuple(
        counter("read_bytes", &HbmStats::read_bytes, "bytes", Merge::sum, "bytes read from HBM"),
        counter("write_bytes", &HbmStats::write_bytes, "bytes", Merge::sum, "bytes written to HBM"),
        counter("reads", &HbmStats::reads, "requests", Merge::sum, "read requests served"),
        counter("writes", &HbmStats::writes, "requests", Merge::sum, "write requests served"),
        counter("channel_busy_s", &HbmStats::channel_busy, "s", Merge::sum,
                "sum over channels (pseudo-channels) of time spent transferring"),
        counter("queue_delay_s", &HbmStats::queue_delay, "s", Merge::sum,
                "sum over requests of the time spent waiting for a busy channel"),
        counter("read_queue_delay_s", &HbmStats::read_queue_delay, "s", Merge::sum,
                "of queue_delay: read requests"),
        counter("last_transfer_s", &HbmStats::last_transfer, "s", Merge::max,
                "when the last transfer ended on its channel"));
  }
};

/// The timing core, plain C++: usable without the SystemC kernel.
class HbmTiming {
 public:
  explicit HbmTiming(const HbmParams& params);

  /// Serves a request arriving at `now` (requests must arrive in time order) and returns when its
  /// last byte has arrived.
  Time access(Time now, const Region& region, bool is_write);

  const HbmParams& params() const { return params_; }
  const HbmStats& stats() const { return stats_; }
  /// The end of the run: the detailed mode's controllers drain the writes they still hold, and
  /// the last transfer moves to the last of those.
  void end_of_run();
  /// When the last request was taken by the controller (its arrival unless a queue was full).
  Time last_accepted() const { return last_accepted_; }
  Time channel_free(std::uint32_t channel) const { return channel_free_[channel]; }
  /// The longest any one channel (pseudo-channel) spent transferring: within the run's time.
  Time busiest_unit_busy() const;
  /// The detailed mode's DRAM, or null in simple mode.
  const DramSystem* dram() const { return dram_.get(); }

  /// Tells `observer` (null: nobody) each channel's (pseudo-channel's) transfers.
  void observe(ActivityObserver* observer);

  /// Simple mode: bytes of `region` that land on each channel (pseudo-channel), for tests and for
  /// the access itself.
  const std::vector<std::uint64_t>& split(const Region& region);

 private:
  void add_range(std::uint64_t address, std::uint64_t length);
  void report_transfers(Time now, bool is_write) const;

  HbmParams params_;
  TransferRate channel_rate_;  // one channel's share of the peak
  HbmStats stats_;
  std::unique_ptr<DramSystem> dram_;  // detailed mode
  std::optional<AddressMap> map_;     // simple mode with the DRAM's organisation given
  std::vector<RowPiece> pieces_;      // scratch for split() through map_
  std::vector<Time> channel_free_;
  std::vector<Time> busy_on_channel_;  // simple mode
  std::vector<std::uint64_t> bytes_on_channel_;  // scratch for split()
  ActivityObserver* observer_ = nullptr;
  Time last_accepted_;
};

}  // namespace ridgeline
