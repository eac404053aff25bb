#include "models/l2_cache.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <utility>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace ridgeline {

namespace {
constexpr std::uint64_t kFilling = std::numeric_limits<std::uint64_t>::max();  // fill not issued
constexpr std::uint64_t kRowsPrefetched = 8;  // look-ups run this many rows behind prefetches
constexpr std::uint32_t kPrintsPerStep = 16;  // fingerprints compared at once
constexpr std::uint64_t kHostLineBytes = 64;  // the host's cache line, for the sets' layout

// One byte of a line's number, well mixed: a way whose fingerprint differs cannot hold the line,
// so a look-up compares one tag in most sets instead of every way's.
std::uint8_t fingerprint(std::uint64_t line) {
  return static_cast<std::uint8_t>((line * 0x9E3779B97F4A7C15ULL) >> 56);
}

std::uint64_t round_up(std::uint64_t value, std::uint64_t step) {
  return (value + step - 1) / step * step;
}

// A set's header: fingerprints, LRU order, flags and sectors, each padded to whole 16-way steps,
// in whole host cache lines.
constexpr std::uint64_t kHeaderArrays = 4;
std::uint64_t header_words(std::uint32_t ways) {
  return round_up(kHeaderArrays * round_up(ways, kPrintsPerStep), kHostLineBytes) /
         sizeof(std::uint64_t);
}

std::uint32_t log2_of(std::uint64_t power_of_two) {
  return static_cast<std::uint32_t>(__builtin_ctzll(power_of_two));
}

// Bits first .. end - 1 (end <= 4).
std::uint8_t sector_bits(std::uint64_t first, std::uint64_t end) {
  return static_cast<std::uint8_t>(((1u << end) - 1) & ~((1u << first) - 1));
}
}  // namespace

std::string_view name_of(L2SetIndex index) {
  return index == L2SetIndex::xor_folded ? "xor" : "modulo";
}

SetIndex::SetIndex(std::uint64_t sets, L2SetIndex kind)
    : sets_(sets),
      fold_(kind == L2SetIndex::xor_folded && sets > 1),
      power_of_two_((sets & (sets - 1)) == 0) {
  assert(sets > 0);
  if (fold_) {
    bits_ = 0;
    while ((std::uint64_t{1} << bits_) < sets) ++bits_;
    low_mask_ = (std::uint64_t{1} << bits_) - 1;
  }
  if (!power_of_two_) inverse_ = ~std::uint64_t{0} / sets + 1;
}

std::uint64_t CacheSets::state_bytes(std::uint64_t sets, std::uint32_t ways) {
  return sets * (header_words(ways) + 2 * std::uint64_t{ways}) * sizeof(std::uint64_t);
}

CacheSets::CacheSets(std::uint64_t sets, std::uint32_t ways) : sets_(sets), ways_(ways) {
  assert(sets > 0 && ways > 0 && ways <= kMaxWays);
  const auto padded = static_cast<std::uint32_t>(round_up(ways, kPrintsPerStep));
  order_at_ = padded;
  flags_at_ = 2 * padded;
  sectors_at_ = 3 * padded;
  header_words_ = header_words(ways);
  block_words_ = header_words_ + 2 * std::uint64_t{ways};
  storage_.assign(sets * block_words_ + kHostLineBytes / sizeof(std::uint64_t), 0);
  const auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
  base_ = storage_.data() + (round_up(address, kHostLineBytes) - address) / sizeof(std::uint64_t);
  for (std::uint64_t set = 0; set < sets; ++set) {
    std::uint8_t* order = header(set) + order_at_;
    for (std::uint32_t way = 0; way < ways; ++way) order[way] = static_cast<std::uint8_t>(way);
  }
}

std::uint32_t CacheSets::find(std::uint64_t set, std::uint64_t line) const {
  const std::uint8_t* prints = header(set);
  const std::uint64_t* set_tags = tags(set);
  const std::uint8_t print = fingerprint(line);
  for (std::uint32_t first = 0; first < ways_; first += kPrintsPerStep) {
    std::uint32_t matches = 0;  // bit i: way first + i has the fingerprint
#ifdef __SSE2__
    const __m128i group = _mm_loadu_si128(reinterpret_cast<const __m128i*>(prints + first));
    matches = static_cast<std::uint32_t>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(group, _mm_set1_epi8(static_cast<char>(print)))));
#else
    for (std::uint32_t i = 0; i < kPrintsPerStep; ++i) {
      matches |= static_cast<std::uint32_t>(prints[first + i] == print) << i;
    }
#endif
    if (ways_ - first < kPrintsPerStep) matches &= (1u << (ways_ - first)) - 1;  // padding
    for (; matches != 0; matches &= matches - 1) {
      const std::uint32_t way = first + static_cast<std::uint32_t>(__builtin_ctz(matches));
      if ((flags(set, way) & kValid) && set_tags[way] == line) return way;
    }
  }
  return kNoWay;
}

void CacheSets::touch(std::uint64_t set, std::uint32_t way) {
  // Move to front: shift the more recent ways down by one until `way`'s place.
  std::uint8_t* order = header(set) + order_at_;
  auto carried = static_cast<std::uint8_t>(way);
  for (std::uint32_t i = 0; carried != way || i == 0; ++i) {
    assert(i < ways_);
    std::swap(carried, order[i]);
  }
}

void CacheSets::install(std::uint64_t set, std::uint32_t way, std::uint64_t line,
                        std::uint8_t new_flags, std::uint8_t valid, std::uint8_t dirty) {
  header(set)[way] = fingerprint(line);
  flags(set, way) = new_flags;
  header(set)[sectors_at_ + way] = 0;
  mark_sectors(set, way, valid, dirty);
  tags(set)[way] = line;
  touch(set, way);
}

void CacheSets::prefetch(std::uint64_t set) const {
  const std::uint64_t* words = base_ + set * block_words_;
  for (std::uint64_t word = 0; word < block_words_;
       word += kHostLineBytes / sizeof(std::uint64_t)) {
    __builtin_prefetch(words + word);
  }
}

std::string_view name_of(L2WritePolicy policy) {
  return policy == L2WritePolicy::write_back ? "write_back" : "write_through";
}

L2CacheTiming::L2CacheTiming(const L2CacheParams& params, MemoryBelow& below, std::uint32_t cores,
                             std::string name)
    : params_(params),
      cores_(cores),
      name_(std::move(name)),
      below_(below),
      port_rate_(params.bandwidth, 1),
      line_shift_(log2_of(params.line_bytes)),
      sector_shift_(log2_of(params.sector_bytes)),
      sectors_per_line_shift_(line_shift_ - sector_shift_),
      set_of_(params.sets(), params.set_index),
      sets_(params.sets(), params.associativity) {
  assert(params.line_bytes > 0 && (params.line_bytes & (params.line_bytes - 1)) == 0);
  assert(params.sets() * params.associativity * params.line_bytes == params.capacity_bytes);
  assert(params.sector_bytes > 0 && (params.sector_bytes & (params.sector_bytes - 1)) == 0);
  assert(params.sector_bytes <= params.line_bytes &&
         params.sectors_per_line() <= kMaxSectorsPerLine);
  assert(params.bandwidth.bytes_per_second > 0);
}

template <class Visit>
void L2CacheTiming::for_each_row(const Region& shape, Visit&& visit) {
  // The model's state is megabytes and rows land far apart in it: the set of the row a few rows
  // ahead is prefetched while this one is looked up.
  const auto prefetch = [&](std::uint64_t row) {
    sets_.prefetch(set_of_((shape.base + row * shape.pitch_bytes) >> line_shift_));
  };
  for (std::uint64_t row = 0; row < std::min(kRowsPrefetched, shape.rows); ++row) prefetch(row);
  for (std::uint64_t row = 0; row < shape.rows; ++row) {
    if (row + kRowsPrefetched < shape.rows) prefetch(row + kRowsPrefetched);
    visit(shape.base + row * shape.pitch_bytes);
  }
}

bool L2CacheTiming::contains(std::uint64_t address) const {
  const std::uint64_t line = address >> line_shift_;
  return sets_.find(set_of_(line), line) != CacheSets::kNoWay;
}

bool L2CacheTiming::is_dirty(std::uint64_t address) const {
  const std::uint64_t line = address >> line_shift_;
  const std::uint64_t set = set_of_(line);
  const std::uint32_t way = sets_.find(set, line);
  const std::uint64_t sector = (address >> sector_shift_) & (params_.sectors_per_line() - 1);
  return way != CacheSets::kNoWay && ((sets_.dirty_sectors(set, way) >> sector) & 1) != 0;
}

bool L2CacheTiming::reaches_far_partition(const Region& shape, std::uint32_t core) const {
  if (params_.partitions == 1 || shape.bytes() == 0) return false;
  const std::uint32_t own = params_.partition_of_core(core, cores_);
  // With two partitions the first line or two settle it; a region all near is walked whole.
  for (std::uint64_t row = 0; row < shape.rows; ++row) {
    const std::uint64_t address = shape.base + row * shape.pitch_bytes;
    const std::uint64_t last = (address + shape.row_bytes - 1) >> line_shift_;
    for (std::uint64_t line = address >> line_shift_; line <= last; ++line) {
      if (params_.partition_of_line(line) != own) return true;
    }
  }
  return false;
}

Time L2CacheTiming::access(Time now, const Region& region, bool is_write, std::uint32_t core) {
  const std::uint64_t bytes = region.bytes();
  if (is_write) {
    ++stats_.write_requests;
    stats_.write_bytes += bytes;
  } else {
    ++stats_.read_requests;
    stats_.read_bytes += bytes;
  }
  // Every requested byte crosses the port to the cores, hit or miss.
  const Time start = max(now, port_free_);
  const Time transfer = port_rate_.time_for(bytes);
  port_free_ = start + transfer;
  stats_.port_busy += transfer;
  stats_.port_queue_delay += start - now;
  const bool far = reaches_far_partition(region, core);
  stats_.far_requests += far ? 1 : 0;
  Time done = port_free_ + (far ? params_.far_hit_latency : params_.hit_latency);
  if (observing(observer_)) {
    Activity a(UnitKind::level_port, position_, now, start, port_free_);
    a.ready = done;
    a.bytes = bytes;
    a.write = is_write;
    observer_->activity(a);
  }
  if (bytes == 0) return done;

  // Rows that follow one another without a gap are one row: fewer, longer runs.
  Region shape = region;
  if (shape.rows > 1 && shape.pitch_bytes == shape.row_bytes) {
    shape.row_bytes *= shape.rows;
    shape.rows = 1;
  }
  now_ = now;
  is_write_ = is_write;

  if (is_write && params_.write_policy == L2WritePolicy::write_through) {
    // Lines present take the new data (and stay clean); none is allocated; HBM gets the store.
    for (std::uint64_t pass = 0; pass < shape.repeat; ++pass) {
      for_each_row(shape, [&](std::uint64_t address) {
        for_each_line(address, shape.row_bytes,
                      [&](std::uint64_t line, std::uint64_t set, std::uint64_t /*offset*/,
                          std::uint64_t covered) { update(line, set, covered); });
      });
    }
    ++stats_.write_through_requests;
    stats_.write_through_bytes += bytes;
    return max(done, below_.access(now, region, true));
  }

  data_ready_ = Time{};
  pending_run_.rows = 0;
  pending_run_.pitch_bytes = shape.pitch_bytes;
  for (std::uint64_t pass = 0; pass < shape.repeat; ++pass) {
    const L2CacheStats before = stats_;
    for_each_row(shape, [&](std::uint64_t address) {
      for_each_line(address, shape.row_bytes,
                    [&](std::uint64_t line, std::uint64_t set, std::uint64_t offset,
                        std::uint64_t covered) { look_up(line, set, offset, covered); });
      if (row_run_sectors_ > 0) close_row_run();  // a run ends with its row
    });
    issue_pending_run();  // before the next pass, which must see these lines as being filled
    if (stats_.miss_lines == before.miss_lines && pass + 1 < shape.repeat) {
      // A pass without a miss changed nothing but recency, and leaves the same order each time:
      // the passes left would repeat it exactly.
      const std::uint64_t more = shape.repeat - pass - 1;
      stats_.hit_lines += more * (stats_.hit_lines - before.hit_lines);
      stats_.hit_bytes += more * (stats_.hit_bytes - before.hit_bytes);
      stats_.pending_hit_lines += more * (stats_.pending_hit_lines - before.pending_hit_lines);
      stats_.pending_hit_bytes += more * (stats_.pending_hit_bytes - before.pending_hit_bytes);
      break;
    }
  }
  // Fills first (a core waits for them), then the write-backs they caused.
  if (!evicted_dirty_.empty()) {
    write_sectors(evicted_dirty_, stats_.writeback_requests, stats_.writeback_bytes);
  }
  return max(done, data_ready_);
}

template <class Visit>
void L2CacheTiming::for_each_line(std::uint64_t address, std::uint64_t bytes, Visit&& visit) {
  const std::uint64_t end = address + bytes;
  const std::uint64_t last = (end - 1) >> line_shift_;
  for (std::uint64_t line = address >> line_shift_; line <= last; ++line) {
    const std::uint64_t line_start = line << line_shift_;
    const std::uint64_t first = std::max(address, line_start);
    visit(line, set_of_(line), first - line_start,
          std::min(end, line_start + params_.line_bytes) - first);
  }
}

void L2CacheTiming::look_up(std::uint64_t line, std::uint64_t set, std::uint64_t offset,
                            std::uint64_t covered) {
  // The sectors the bytes touch, and those they cover whole: a load needs every sector it
  // touches; a store only the ones it covers in part (the rest of their bytes), and makes the
  // whole ones valid itself.
  const std::uint64_t end = offset + covered;
  const std::uint8_t touched =
      sector_bits(offset >> sector_shift_, ((end - 1) >> sector_shift_) + 1);
  const std::uint8_t whole =
      sector_bits((offset + params_.sector_bytes - 1) >> sector_shift_, end >> sector_shift_);
  const std::uint8_t needed = is_write_ ? touched & static_cast<std::uint8_t>(~whole) : touched;
  const std::uint8_t written = is_write_ ? whole : 0;
  const std::uint8_t dirtied = is_write_ ? touched : 0;
  std::uint32_t way = sets_.find(set, line);
  if (way != CacheSets::kNoWay) {
    sets_.touch(set, way);
    const auto missing = static_cast<std::uint8_t>(needed & ~sets_.valid_sectors(set, way));
    // What is missing is fetched below, on its way from now on. (A load that hits stores
    // nothing: a byte store would make the compiler reload everything it may alias.)
    if ((written | missing | dirtied) != 0) {
      sets_.mark_sectors(set, way, static_cast<std::uint8_t>(written | missing), dirtied);
    }
    std::uint8_t& flags = sets_.flags(set, way);
    const std::uint64_t ready = flags & CacheSets::kFilling ? sets_.ready_ps(set, way) : 0;
    if (missing != 0) {
      ++stats_.miss_lines;
      ++stats_.sector_miss_lines;
      stats_.miss_bytes += covered;
      // Sectors it needs that an earlier request's fill still brings: wait for that one too.
      if ((needed & ~missing) != 0 && ready > now_.ps() && ready != kFilling) {
        data_ready_ = max(data_ready_, Time::from_ps(ready));
      }
      fetch_sectors(set, way, line, missing);
      return;
    }
    if (needed != 0 && ready > now_.ps()) {
      // On its way: wait for that fill (one of this request's own, or an earlier request's).
      ++stats_.pending_hit_lines;
      stats_.pending_hit_bytes += covered;
      if (ready != kFilling) data_ready_ = max(data_ready_, Time::from_ps(ready));
    } else {
      if (ready <= now_.ps()) flags &= static_cast<std::uint8_t>(~CacheSets::kFilling);  // arrived
      ++stats_.hit_lines;
      stats_.hit_bytes += covered;
    }
    if (row_run_sectors_ > 0) close_row_run();
    return;
  }
  // A miss: replace the least recently used way (an empty one first).
  ++stats_.miss_lines;
  stats_.miss_bytes += covered;
  way = sets_.victim(set);
  if (sets_.flags(set, way) & CacheSets::kValid) {
    ++stats_.evictions;
    // The victim's tag is a host cache miss of its own: read only when there is a write-back.
    if (std::uint32_t dirty = sets_.dirty_sectors(set, way); dirty != 0) {
      const std::uint64_t first_sector = sets_.tag(set, way) << sectors_per_line_shift_;
      for (; dirty != 0; dirty &= dirty - 1) {
        evicted_dirty_.push_back(first_sector + static_cast<std::uint64_t>(__builtin_ctz(dirty)));
      }
    }
  }
  sets_.install(set, way, line, CacheSets::kValid, static_cast<std::uint8_t>(written | needed),
                dirtied);
  if (needed == 0) {  // a store of whole sectors needs nothing from below
    if (row_run_sectors_ > 0) close_row_run();
    return;
  }
  fetch_sectors(set, way, line, needed);
}

void L2CacheTiming::fetch_sectors(std::uint64_t set, std::uint32_t way, std::uint64_t line,
                                  std::uint8_t mask) {
  // The line's fill time becomes this request's (issue_pending_run keeps the later of the two
  // if an earlier fill of other sectors is still on its way).
  std::uint8_t& flags = sets_.flags(set, way);
  std::uint64_t& ready = sets_.ready_ps(set, way);
  if (!(flags & CacheSets::kFilling) || ready <= now_.ps()) ready = kFilling;
  flags |= CacheSets::kFilling;
  const std::uint64_t line_sector = line << sectors_per_line_shift_;
  std::uint32_t rest = mask;
  while (rest != 0) {
    // One run of adjacent sectors: first .. first + count - 1 of the line.
    const auto first = static_cast<std::uint32_t>(__builtin_ctz(rest));
    const auto count = static_cast<std::uint32_t>(__builtin_ctz(~(rest >> first)));
    rest &= ~((((1u << count) - 1)) << first);
    const std::uint64_t sector = line_sector + first;
    if (row_run_sectors_ > 0 && sector != row_run_first_ + row_run_sectors_) close_row_run();
    if (row_run_sectors_ == 0) row_run_first_ = sector;
    row_run_sectors_ += count;
    Slot& slot = row_slots_.emplace_back();  // filled in place: no copy through the stack
    slot.set = set;
    slot.way = way;
    slot.line = line;
  }
}

void L2CacheTiming::update(std::uint64_t line, std::uint64_t set, std::uint64_t covered) {
  const std::uint32_t way = sets_.find(set, line);
  if (way != CacheSets::kNoWay) {
    sets_.touch(set, way);
    ++stats_.hit_lines;
    stats_.hit_bytes += covered;
  } else {
    ++stats_.miss_lines;
    stats_.miss_bytes += covered;
  }
}

void L2CacheTiming::close_row_run() {
  if (row_run_sectors_ == 0) return;
  const std::uint64_t base = row_run_first_ << sector_shift_;
  const std::uint64_t bytes = row_run_sectors_ << sector_shift_;
  row_run_sectors_ = 0;
  // The same columns one row further down extend the pending 2-D run; anything else starts one.
  Region& run = pending_run_;
  const bool extends = run.rows > 0 && run.row_bytes == bytes && bytes <= run.pitch_bytes &&
                       base == run.base + run.rows * run.pitch_bytes;
  if (extends) {
    ++run.rows;
  } else {
    issue_pending_run();
    run.base = base;
    run.rows = 1;
    run.row_bytes = bytes;
    run.repeat = 1;
  }
  run_slots_.insert(run_slots_.end(), row_slots_.begin(), row_slots_.end());
  row_slots_.clear();
}

void L2CacheTiming::issue_pending_run() {
  close_row_run();
  Region& run = pending_run_;
  if (run.rows == 0) return;
  const Region fill{run.base, run.rows, run.row_bytes,
                    run.rows > 1 ? run.pitch_bytes : run.row_bytes, 1};
  const Time arrived = below_.access(now_, fill, false);
  ++stats_.fill_requests;
  stats_.fill_bytes += fill.bytes();
  data_ready_ = max(data_ready_, arrived);
  for (const Slot& slot : run_slots_) {
    // A line this very request evicted again (a set smaller than the request) keeps its own.
    if (sets_.tag(slot.set, slot.way) != slot.line) continue;
    std::uint64_t& ready = sets_.ready_ps(slot.set, slot.way);
    if (ready == kFilling || ready < arrived.ps()) ready = arrived.ps();
  }
  run_slots_.clear();
  run.rows = 0;
}

void L2CacheTiming::write_sectors(std::vector<std::uint64_t>& sectors, std::uint64_t& requests,
                                  std::uint64_t& bytes) {
  std::sort(sectors.begin(), sectors.end());
  for (std::size_t first = 0; first < sectors.size();) {
    std::size_t end = first + 1;
    while (end < sectors.size() && sectors[end] == sectors[end - 1] + 1) ++end;
    const std::uint64_t run_bytes = (end - first) << sector_shift_;
    below_.access(now_, Region{sectors[first] << sector_shift_, 1, run_bytes, run_bytes, 1}, true);
    ++requests;
    bytes += run_bytes;
    first = end;
  }
  sectors.clear();
}

void L2CacheTiming::preload(std::uint64_t address, std::uint64_t bytes) {
  if (bytes == 0) return;
  // A set keeps the last `associativity` lines placed in it. For a range longer than the cache,
  // walk back from its end until every set has that many: what comes before is pushed out by
  // them whatever it is, so placing the range from there leaves what placing it all would (a
  // trace's 16 GiB in a 50 MiB L2 in a fraction of the time).
  const std::uint64_t first_line = address >> line_shift_;
  const std::uint64_t last_line = (address + bytes - 1) >> line_shift_;
  if (last_line - first_line >= params_.lines()) {
    std::vector<std::uint32_t> placed(params_.sets(), 0);
    std::uint64_t full_sets = 0;
    std::uint64_t line = last_line + 1;
    while (line > first_line && full_sets < params_.sets()) {
      --line;
      std::uint32_t& count = placed[set_of_(line)];
      if (count < params_.associativity && ++count == params_.associativity) ++full_sets;
    }
    if (line > first_line) {
      const std::uint64_t start = line << line_shift_;
      bytes -= start - address;
      address = start;
    }
  }
  for_each_line(
      address, bytes,
      [&](std::uint64_t line, std::uint64_t set, std::uint64_t offset, std::uint64_t covered) {
        // The sectors the bytes touch: a kernel's tensor starts and ends on sectors.
        const std::uint8_t touched =
            sector_bits(offset >> sector_shift_, ((offset + covered - 1) >> sector_shift_) + 1);
        std::uint32_t way = sets_.find(set, line);
        if (way == CacheSets::kNoWay) {
          way = sets_.victim(set);
          sets_.install(set, way, line, CacheSets::kValid, touched, 0);
          sets_.ready_ps(set, way) = 0;
        } else {
          sets_.touch(set, way);
          sets_.mark_sectors(set, way, touched, 0);
        }
      });
}

void L2CacheTiming::end_of_run() {
  std::uint64_t lines = 0;
  std::uint64_t sectors = 0;
  for (std::uint64_t set = 0; set < sets_.sets(); ++set) {
    for (std::uint32_t way = 0; way < sets_.ways(); ++way) {
      const std::uint32_t dirty = sets_.dirty_sectors(set, way);
      lines += dirty != 0;
      sectors += static_cast<std::uint64_t>(__builtin_popcount(dirty));
    }
  }
  stats_.dirty_at_end_lines = lines;
  stats_.dirty_at_end_bytes = sectors << sector_shift_;
}

}  // namespace ridgeline
