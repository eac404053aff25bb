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

std::uint32_t CacheSets::spare(std::uint64_t set) const {
  // From the least recently used up: the first way that is empty (empty ways are at the back) or
  // holds a copy.
  const std::uint8_t* lru = order(set);
  const std::uint8_t* set_flags = header(set) + flags_at_;
  for (std::uint32_t i = ways_; i-- > 0;) {
    const std::uint8_t f = set_flags[lru[i]];
    if ((f & kValid) == 0 || (f & kCopy) != 0) return lru[i];
  }
  return kNoWay;
}

void CacheSets::invalidate(std::uint64_t set, std::uint32_t way) {
  flags(set, way) = 0;
  header(set)[sectors_at_ + way] = 0;
  // Move to back: shift the older ways up by one from `way`'s place.
  std::uint8_t* order = header(set) + order_at_;
  std::uint32_t at = 0;
  while (order[at] != way) ++at;
  for (; at + 1 < ways_; ++at) order[at] = order[at + 1];
  order[ways_ - 1] = static_cast<std::uint8_t>(way);
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
  assert(params.partitions > 0 && params.sets() % params.partitions == 0);
  for (std::uint32_t core = 0; core < std::max(cores, 1u); ++core) {
    const std::uint32_t partition = params.partition_of_core(core, cores);
    if (near_partitions_.empty() || near_partitions_.back() != partition) {
      near_partitions_.push_back(partition);
    }
  }
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

bool L2CacheTiming::has_copy(std::uint64_t address, std::uint32_t partition) const {
  const std::uint64_t line = address >> line_shift_;
  return partition != home_partition(address) &&
         sets_.find(params_.set_in_partition(set_of_(line), partition), line) != CacheSets::kNoWay;
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
  partition_ = params_.partitions == 1 ? 0 : params_.partition_of_core(core, cores_);
  far_ = false;
  now_ = now;
  is_write_ = is_write;
  // The request is answered once its bytes are through the port and its lines' latency has
  // passed: near, or far when one of them was reached in another partition.
  const auto answered = [&] {
    stats_.far_requests += far_ ? 1 : 0;
    const Time done = port_free_ + (far_ ? params_.far_hit_latency : params_.hit_latency);
    if (observing(observer_)) {
      Activity a(UnitKind::level_port, position_, now, start, port_free_);
      a.ready = done;
      a.bytes = bytes;
      a.write = is_write;
      observer_->activity(a);
    }
    return done;
  };
  if (bytes == 0) return answered();

  // Rows that follow one another without a gap are one row: fewer, longer runs.
  Region shape = region;
  if (shape.rows > 1 && shape.pitch_bytes == shape.row_bytes) {
    shape.row_bytes *= shape.rows;
    shape.rows = 1;
  }

  if (is_write && params_.write_policy == L2WritePolicy::write_through) {
    // Lines present take the new data (and stay clean); none is allocated; HBM gets the store.
    for (std::uint64_t pass = 0; pass < shape.repeat; ++pass) {
      for_each_row(shape, [&](std::uint64_t address) {
        for_each_line(address, shape.row_bytes,
                      [&](std::uint64_t line, std::uint64_t /*offset*/, std::uint64_t covered) {
                        update(line, covered);
                      });
      });
    }
    ++stats_.write_through_requests;
    stats_.write_through_bytes += bytes;
    const Time done = answered();
    return max(done, below_.access(now, region, true));
  }

  data_ready_ = Time{};
  pending_run_.rows = 0;
  pending_run_.pitch_bytes = shape.pitch_bytes;
  for (std::uint64_t pass = 0; pass < shape.repeat; ++pass) {
    const L2CacheStats before = stats_;
    for_each_row(shape, [&](std::uint64_t address) {
      for_each_line(address, shape.row_bytes,
                    [&](std::uint64_t line, std::uint64_t offset, std::uint64_t covered) {
                      look_up(line, offset, covered);
                    });
      if (row_run_sectors_ > 0) close_row_run();  // a run ends with its row
    });
    issue_pending_run();  // before the next pass, which must see these lines as being filled
    if (stats_.miss_lines == before.miss_lines &&
        stats_.copy_fill_lines == before.copy_fill_lines && pass + 1 < shape.repeat) {
      // A pass without a miss or a new copy changed nothing but recency, and leaves the same
      // order each time: the passes left would repeat it exactly.
      const std::uint64_t more = shape.repeat - pass - 1;
      stats_.hit_lines += more * (stats_.hit_lines - before.hit_lines);
      stats_.hit_bytes += more * (stats_.hit_bytes - before.hit_bytes);
      stats_.pending_hit_lines += more * (stats_.pending_hit_lines - before.pending_hit_lines);
      stats_.pending_hit_bytes += more * (stats_.pending_hit_bytes - before.pending_hit_bytes);
      stats_.copy_hit_lines += more * (stats_.copy_hit_lines - before.copy_hit_lines);
      break;
    }
  }
  // Copies made of lines whose fills this request issued arrive with them.
  for (const CopySlot& slot : copy_slots_) {
    if (sets_.tag(slot.set, slot.way) != slot.line) continue;  // replaced again
    const std::uint32_t home_way = sets_.find(slot.home_set, slot.line);
    sets_.ready_ps(slot.set, slot.way) =
        home_way != CacheSets::kNoWay ? sets_.ready_ps(slot.home_set, home_way) : data_ready_.ps();
  }
  copy_slots_.clear();
  // Fills first (a core waits for them), then the write-backs they caused.
  if (!evicted_dirty_.empty()) {
    write_sectors(evicted_dirty_, stats_.writeback_requests, stats_.writeback_bytes);
  }
  return max(answered(), data_ready_);
}

template <class Visit>
void L2CacheTiming::for_each_line(std::uint64_t address, std::uint64_t bytes, Visit&& visit) {
  const std::uint64_t end = address + bytes;
  const std::uint64_t last = (end - 1) >> line_shift_;
  for (std::uint64_t line = address >> line_shift_; line <= last; ++line) {
    const std::uint64_t line_start = line << line_shift_;
    const std::uint64_t first = std::max(address, line_start);
    visit(line, first - line_start, std::min(end, line_start + params_.line_bytes) - first);
  }
}

std::uint8_t L2CacheTiming::touched_sectors(std::uint64_t first, std::uint64_t end) const {
  return sector_bits(first >> sector_shift_, ((end - 1) >> sector_shift_) + 1);
}

void L2CacheTiming::look_up(std::uint64_t line, std::uint64_t offset, std::uint64_t covered) {
  // The sectors the bytes touch, and those they cover whole: a load needs every sector it
  // touches; a store only the ones it covers in part (the rest of their bytes), and makes the
  // whole ones valid itself.
  const std::uint64_t end = offset + covered;
  const std::uint8_t touched = touched_sectors(offset, end);
  const std::uint8_t whole =
      sector_bits((offset + params_.sector_bytes - 1) >> sector_shift_, end >> sector_shift_);
  const LineNeeds needs{is_write_ ? static_cast<std::uint8_t>(touched & ~whole) : touched,
                        is_write_ ? whole : std::uint8_t{0}, is_write_ ? touched : std::uint8_t{0},
                        covered};
  const std::uint64_t home_set = set_of_(line);
  if (params_.partitions == 1 || params_.partition_of_set(home_set) == partition_) {
    serve(home_set, sets_.find(home_set, line), line, needs);
    if (is_write_) drop_copies(line, home_set, partition_);
    return;
  }
  // Homed in another partition: a copy here that has every sector a load needs serves it near.
  const std::uint64_t here = params_.set_in_partition(home_set, partition_);
  const std::uint32_t copy = sets_.find(here, line);
  if (!is_write_ && copy != CacheSets::kNoWay &&
      (needs.needed & ~sets_.valid_sectors(here, copy)) == 0) {
    ++stats_.copy_hit_lines;
    serve(here, copy, line, needs);
    return;
  }
  far_ = true;
  const std::uint32_t home_way = serve(home_set, sets_.find(home_set, line), line, needs);
  if (!is_write_) {
    make_copy(here, copy, home_set, home_way, line, needs.needed);
    return;
  }
  // A store: the copy here takes the sectors it wrote whole (and stays clean, its home holds
  // them dirty), unless it wrote part of one, which the copy cannot merge: then it goes. Any
  // other partition's copy is stale.
  if (copy != CacheSets::kNoWay && needs.needed != 0) {
    sets_.invalidate(here, copy);
  } else if (copy != CacheSets::kNoWay) {
    sets_.touch(here, copy);
    sets_.mark_sectors(here, copy, needs.written, 0);
  }
  drop_copies(line, home_set, partition_);
}

std::uint32_t L2CacheTiming::serve(std::uint64_t set, std::uint32_t way, std::uint64_t line,
                                   const LineNeeds& needs) {
  const std::uint8_t needed = needs.needed;
  if (way != CacheSets::kNoWay) {
    sets_.touch(set, way);
    const auto missing = static_cast<std::uint8_t>(needed & ~sets_.valid_sectors(set, way));
    // What is missing is fetched below, on its way from now on. (A load that hits stores
    // nothing: a byte store would make the compiler reload everything it may alias.)
    if ((needs.written | missing | needs.dirtied) != 0) {
      sets_.mark_sectors(set, way, static_cast<std::uint8_t>(needs.written | missing),
                         needs.dirtied);
    }
    std::uint8_t& flags = sets_.flags(set, way);
    const std::uint64_t ready = flags & CacheSets::kFilling ? sets_.ready_ps(set, way) : 0;
    if (missing != 0) {
      ++stats_.miss_lines;
      ++stats_.sector_miss_lines;
      stats_.miss_bytes += needs.covered;
      // Sectors it needs that an earlier request's fill still brings: wait for that one too.
      if ((needed & ~missing) != 0 && ready > now_.ps() && ready != kFilling) {
        data_ready_ = max(data_ready_, Time::from_ps(ready));
      }
      fetch_sectors(set, way, line, missing);
      return way;
    }
    if (needed != 0 && ready > now_.ps()) {
      // On its way: wait for that fill (one of this request's own, or an earlier request's).
      ++stats_.pending_hit_lines;
      stats_.pending_hit_bytes += needs.covered;
      if (ready != kFilling) data_ready_ = max(data_ready_, Time::from_ps(ready));
    } else {
      if (ready <= now_.ps()) flags &= static_cast<std::uint8_t>(~CacheSets::kFilling);  // arrived
      ++stats_.hit_lines;
      stats_.hit_bytes += needs.covered;
    }
    if (row_run_sectors_ > 0) close_row_run();
    return way;
  }
  // A miss: replace the least recently used way (an empty one first).
  ++stats_.miss_lines;
  stats_.miss_bytes += needs.covered;
  way = replace(set);
  sets_.install(set, way, line, CacheSets::kValid,
                static_cast<std::uint8_t>(needs.written | needed), needs.dirtied);
  if (needed == 0) {  // a store of whole sectors needs nothing from below
    if (row_run_sectors_ > 0) close_row_run();
    return way;
  }
  fetch_sectors(set, way, line, needed);
  return way;
}

std::uint32_t L2CacheTiming::way_for_home_line(std::uint64_t set) const {
  // A copy's way first: copies give way to home lines.
  const std::uint32_t way = params_.partitions == 1 ? CacheSets::kNoWay : sets_.spare(set);
  return way == CacheSets::kNoWay ? sets_.victim(set) : way;
}

std::uint32_t L2CacheTiming::replace(std::uint64_t set) {
  const std::uint32_t way = way_for_home_line(set);
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
  return way;
}

void L2CacheTiming::make_copy(std::uint64_t set, std::uint32_t way, std::uint64_t home_set,
                              std::uint32_t home_way, std::uint64_t line, std::uint8_t needed) {
  if (way == CacheSets::kNoWay) {
    way = sets_.spare(set);  // an empty way or a copy's; never a home line's
    if (way == CacheSets::kNoWay) return;
    stats_.evictions += sets_.flags(set, way) & CacheSets::kValid ? 1 : 0;
    sets_.install(set, way, line, CacheSets::kValid | CacheSets::kCopy, needed, 0);
  } else {
    sets_.touch(set, way);
    sets_.mark_sectors(set, way, needed, 0);
  }
  ++stats_.copy_fill_lines;
  // The copy's data is here when the home's is: now, at a fill in flight's time, or at the time
  // of one this request has yet to issue (set when it is).
  const std::uint64_t home_ready = (sets_.flags(home_set, home_way) & CacheSets::kFilling)
                                       ? sets_.ready_ps(home_set, home_way)
                                       : 0;
  std::uint8_t& flags = sets_.flags(set, way);
  if (home_ready > now_.ps()) {
    flags |= CacheSets::kFilling;
    sets_.ready_ps(set, way) = home_ready;  // the home's: the later of its fills in flight
    if (home_ready == kFilling) copy_slots_.push_back({set, way, home_set, line});
  } else {
    flags &= static_cast<std::uint8_t>(~CacheSets::kFilling);
  }
}

void L2CacheTiming::drop_copies(std::uint64_t line, std::uint64_t home_set, std::uint32_t keep) {
  // Copies are only in partitions near a core: with one of those, in none but `keep`.
  if (near_partitions_.size() < 2) return;
  const std::uint32_t home = params_.partition_of_set(home_set);
  for (const std::uint32_t partition : near_partitions_) {
    if (partition == keep || partition == home) continue;
    const std::uint64_t set = params_.set_in_partition(home_set, partition);
    if (const std::uint32_t way = sets_.find(set, line); way != CacheSets::kNoWay) {
      sets_.invalidate(set, way);
    }
  }
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

void L2CacheTiming::update(std::uint64_t line, std::uint64_t covered) {
  // The store goes to the line's home, updating it if present; the copy of the core's own
  // partition takes it too, any other's is stale.
  const std::uint64_t set = set_of_(line);
  const std::uint32_t way = sets_.find(set, line);
  if (way != CacheSets::kNoWay) {
    sets_.touch(set, way);
    ++stats_.hit_lines;
    stats_.hit_bytes += covered;
  } else {
    ++stats_.miss_lines;
    stats_.miss_bytes += covered;
  }
  if (params_.partitions == 1) return;
  if (params_.partition_of_set(set) != partition_) {
    far_ = true;
    const std::uint64_t here = params_.set_in_partition(set, partition_);
    if (const std::uint32_t copy = sets_.find(here, line); copy != CacheSets::kNoWay) {
      sets_.touch(here, copy);
    }
  }
  drop_copies(line, set, partition_);
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

template <class Sectors>
void L2CacheTiming::place_lines(std::uint64_t first, std::uint64_t last, std::uint32_t copies_for,
                                Sectors&& sectors) {
  // The set a line goes to, or none: a copy of a line homed in `copies_for` itself.
  const auto set_of_line = [&](std::uint64_t line) {
    const std::uint64_t home_set = set_of_(line);
    if (copies_for == kHome) return home_set;
    return params_.partition_of_set(home_set) == copies_for
               ? ~std::uint64_t{0}
               : params_.set_in_partition(home_set, copies_for);
  };
  // A set keeps the last `associativity` lines placed in it. For a range longer than the cache,
  // walk back from its end until every set has that many: what comes before is pushed out by
  // them whatever it is, so placing the range from there leaves what placing it all would (a
  // trace's 16 GiB in a 50 MiB L2 in a fraction of the time).
  if (last - first >= params_.lines()) {
    std::vector<std::uint32_t> placed(params_.sets(), 0);
    const std::uint64_t sets =
        copies_for == kHome ? params_.sets() : params_.sets() / params_.partitions;
    std::uint64_t full_sets = 0;
    std::uint64_t line = last + 1;
    while (line > first && full_sets < sets) {
      --line;
      const std::uint64_t set = set_of_line(line);
      if (set == ~std::uint64_t{0}) continue;
      std::uint32_t& count = placed[set];
      if (count < params_.associativity && ++count == params_.associativity) ++full_sets;
    }
    first = line;
  }
  for (std::uint64_t line = first; line <= last; ++line) {
    const std::uint64_t set = set_of_line(line);
    if (set == ~std::uint64_t{0}) continue;
    const std::uint8_t valid = sectors(line);
    std::uint32_t way = sets_.find(set, line);
    if (way != CacheSets::kNoWay) {
      sets_.touch(set, way);
      sets_.mark_sectors(set, way, valid, 0);
      continue;
    }
    // As the run places them: home lines take copies' ways first, copies only those.
    way = copies_for == kHome ? way_for_home_line(set) : sets_.spare(set);
    if (way == CacheSets::kNoWay) continue;
    sets_.install(set, way, line,
                  copies_for == kHome ? CacheSets::kValid : CacheSets::kValid | CacheSets::kCopy,
                  valid, 0);
    sets_.ready_ps(set, way) = 0;
  }
}

void L2CacheTiming::preload(std::uint64_t address, std::uint64_t bytes, LeftBy left_by) {
  if (bytes == 0) return;
  const std::uint64_t first = address >> line_shift_;
  const std::uint64_t last = (address + bytes - 1) >> line_shift_;
  // The sectors the range touches in a line: a kernel's tensor starts and ends on sectors.
  const auto touched = [&](std::uint64_t line) {
    const std::uint64_t line_start = line << line_shift_;
    return touched_sectors(std::max(address, line_start) - line_start,
                           std::min(address + bytes, line_start + params_.line_bytes) - line_start);
  };
  // Copies first, for each partition near a core, of the lines homed elsewhere; then every line
  // at home, taking the copies' ways where a partition cannot hold both.
  if (params_.partitions > 1 && left_by == LeftBy::reads) {
    for (const std::uint32_t partition : near_partitions_) {
      place_lines(first, last, partition, touched);
    }
  }
  place_lines(first, last, kHome, touched);
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
