#include "models/hbm.hpp"

#include <cassert>

namespace ridgeline {

namespace {

// Whether the address map puts channel and pseudo-channel right above the interleave granule.
// Then granules go to the pseudo-channels in turn, as without a map (in another numbering of the
// pseudo-channels, which simple mode does not tell apart), and the O(channels) split serves.
bool channels_lowest(const HbmParams& params) {
  const AddressGeometry g = params.geometry();
  const AddressMapping& m = params.dram->mapping;
  if (!m.folds.empty()) return false;
  std::size_t found = 0;
  for (auto p = m.parts.rbegin(); p != m.parts.rend() && found < 2; ++p) {
    if ((p->field == AddressField::channel || p->field == AddressField::pseudo_channel) &&
        p->bits == 0) {
      ++found;
      continue;
    }
    const AddressField f = p->field;
    const bool takes_bits = f == AddressField::column       ? g.row_bytes > g.interleave_bytes
                            : f == AddressField::bank_group ? g.bank_groups > 1
                            : f == AddressField::bank       ? g.banks_per_group > 1
                            : f == AddressField::row        ? g.rows > 1
                                                            : true;
    if (takes_bits) return false;
  }
  return true;
}

}  // namespace

HbmTiming::HbmTiming(const HbmParams& params)
    : params_(params),
      channel_rate_(params.peak_bandwidth, params.units()),
      channel_free_(params.units()),
      busy_on_channel_(params.units()),
      bytes_on_channel_(params.units()) {
  assert(params.units() > 0 && params.interleave_bytes > 0 &&
         params.peak_bandwidth.bytes_per_second > 0);
  if (params.mode == HbmMode::detailed) {
    assert(params.dram && "detailed mode needs the DRAM's organisation and timings");
    dram_ = std::make_unique<DramSystem>(*params.dram, params.geometry(), params.peak_bandwidth);
  } else if (params.dram && !channels_lowest(params)) {
    map_.emplace(params.geometry(), params.dram->mapping);
  }
}

AddressGeometry HbmParams::geometry() const {
  AddressGeometry g;
  g.channels = channels;
  g.pseudo_channels = pseudo_channels;
  g.bank_groups = dram->bank_groups;
  g.banks_per_group = dram->banks_per_group;
  g.rows = dram->rows;
  g.row_bytes = dram->row_bytes;
  g.interleave_bytes = interleave_bytes;
  return g;
}

void HbmTiming::add_range(std::uint64_t address, std::uint64_t length) {
  if (length == 0) return;
  const std::uint64_t granule = params_.interleave_bytes;
  const std::uint64_t channels = params_.units();
  const std::uint64_t first = address / granule;
  const std::uint64_t last = (address + length - 1) / granule;
  if (first == last) {
    bytes_on_channel_[first % channels] += length;
    return;
  }
  bytes_on_channel_[first % channels] += granule * (first + 1) - address;
  bytes_on_channel_[last % channels] += address + length - granule * last;
  const std::uint64_t full = last - first - 1;  // whole granules in between
  if (full == 0) return;
  if (const std::uint64_t stripes = full / channels; stripes > 0) {
    for (auto& bytes : bytes_on_channel_) bytes += stripes * granule;
  }
  const std::uint64_t start = (first + 1) % channels;
  for (std::uint64_t i = 0; i < full % channels; ++i) {
    bytes_on_channel_[(start + i) % channels] += granule;
  }
}

const std::vector<std::uint64_t>& HbmTiming::split(const Region& region) {
  std::fill(bytes_on_channel_.begin(), bytes_on_channel_.end(), 0);
  if (map_) {
    // By the DRAM's address map: one piece per row touched.
    pieces_.clear();
    for (std::uint64_t row = 0; row < region.rows; ++row) {
      map_->split(region.base + row * region.pitch_bytes, region.row_bytes, pieces_);
    }
    for (const RowPiece& piece : pieces_)
      bytes_on_channel_[piece.unit] += piece.bytes * region.repeat;
    return bytes_on_channel_;
  }
  const std::uint64_t stripe = params_.interleave_bytes * params_.units();
  // Rows a whole number of stripes apart land on the channels the same way: map one, scale.
  const bool rows_alike = region.rows == 1 || region.pitch_bytes % stripe == 0;
  if (rows_alike) {
    add_range(region.base, region.row_bytes);
    for (auto& bytes : bytes_on_channel_) bytes *= region.rows * region.repeat;
  } else {
    for (std::uint64_t row = 0; row < region.rows; ++row) {
      add_range(region.base + row * region.pitch_bytes, region.row_bytes);
    }
    if (region.repeat > 1) {
      for (auto& bytes : bytes_on_channel_) bytes *= region.repeat;
    }
  }
  return bytes_on_channel_;
}

void HbmTiming::observe(ActivityObserver* observer) {
  observer_ = observer;
  if (dram_) dram_->observe(observer);
}

void HbmTiming::report_transfers(Time now, bool is_write) const {
  // Told after the loop that reserved them, so that the loop stays as tight as without a tracer:
  // each channel's transfer is the last `transfer` before the time it is free again.
  for (std::uint32_t channel = 0; channel < params_.units(); ++channel) {
    const std::uint64_t bytes = bytes_on_channel_[channel];
    if (bytes == 0) continue;
    const Time end = channel_free_[channel];
    Activity a(UnitKind::hbm, channel, now, end - channel_rate_.time_for(bytes), end);
    a.ready = end + params_.access_latency;
    a.bytes = bytes;
    a.write = is_write;
    observer_->activity(a);
  }
}

void HbmTiming::end_of_run() {
  if (dram_) stats_.last_transfer = max(stats_.last_transfer, dram_->finish());
}

Time HbmTiming::busiest_unit_busy() const {
  Time busiest;
  if (dram_) {
    for (std::uint32_t unit = 0; unit < dram_->units(); ++unit)
      busiest = max(busiest, dram_->unit(unit).stats().bus_busy);
  } else {
    for (const Time busy : busy_on_channel_) busiest = max(busiest, busy);
  }
  return busiest;
}

Time HbmTiming::access(Time now, const Region& region, bool is_write) {
  Time last_transfer_end = now;
  Time longest_wait;
  if (dram_) {
    const DramSystem::Served served = dram_->access(now, region, is_write);
    last_transfer_end = served.data_done;
    longest_wait = served.queue_delay;
    stats_.channel_busy += served.bus_busy;
    last_accepted_ = served.accepted;
  } else {
    last_accepted_ = now;
    split(region);
    for (std::uint32_t channel = 0; channel < params_.units(); ++channel) {
      const std::uint64_t bytes = bytes_on_channel_[channel];
      if (bytes == 0) continue;
      const Time start = max(now, channel_free_[channel]);
      const Time transfer = channel_rate_.time_for(bytes);
      channel_free_[channel] = start + transfer;
      busy_on_channel_[channel] += transfer;
      stats_.channel_busy += transfer;
      longest_wait = max(longest_wait, start - now);
      last_transfer_end = max(last_transfer_end, channel_free_[channel]);
    }
    if (observing(observer_)) report_transfers(now, is_write);
  }
  const std::uint64_t bytes = region.bytes();
  if (is_write) {
    stats_.write_bytes += bytes;
    ++stats_.writes;
  } else {
    stats_.read_bytes += bytes;
    ++stats_.reads;
  }
  stats_.queue_delay += longest_wait;
  if (!is_write) stats_.read_queue_delay += longest_wait;
  stats_.last_transfer = max(stats_.last_transfer, last_transfer_end);
  const Time arrived = last_transfer_end + params_.access_latency;
  stats_.last_data = max(stats_.last_data, arrived);
  return arrived;
}

}  // namespace ridgeline
