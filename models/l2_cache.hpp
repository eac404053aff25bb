// A shared L2 cache between the cores and the HBM: set-associative, LRU, write-back with
// write-allocate or write-through without allocation, lines cut into sectors.
//
// A line is the unit of look-up and replacement (one tag); a sector, a power-of-two part of it,
// the unit of valid and dirty state, of fills and of write-backs, as NVIDIA's L2 keeps 128 B
// lines of four 32 B sectors. A load fetches only the sectors it touches that are not there; a
// store makes the sectors it covers whole valid and dirty without reading anything, and fetches
// a sector it covers only in part (so a sector is valid only when every byte of it is known). An
// unsectored cache is one whose sector is the line.
//
// A request is a 2-D region (a tile); the cache looks it up line by line along each contiguous
// row, never byte by byte. Lines it misses are fetched from the memory below in as few requests
// as possible: consecutive missing lines of a row form one run, and runs of the same columns in
// consecutive rows are merged into one 2-D request. Every byte the cores ask for crosses the
// cache's port, a bandwidth resource reserved first come first served; a request completes when
// both paths are done: its bytes through the port plus the hit latency, and the fills it needed.
//
// A line keeps the time its data arrives. A request that finds a line whose fill is still on its
// way waits for that fill instead of fetching the line again, so a tile that several cores ask
// for at nearly the same time crosses HBM once. Dirty lines are written back when evicted
// (coalesced into contiguous runs); what is still dirty when the kernel ends stays in the cache,
// counted (end_of_run()) but neither written nor timed, as a GPU's L2 keeps it across kernels.
//
// The L2 may be split in partitions (the A100's and H100's two halves), each near a share of the
// cores and each holding an equal share of the sets: a line's home is the partition of its set.
// Its fills from HBM, its stores and its dirty data are there. A partition also keeps copies of
// lines homed elsewhere that its own cores read, as NVIDIA describes the A100's ("each L2
// partition localizes and caches data for memory accesses from SMs in the GPCs directly connected
// to the partition"), clean, each in the partition's set paired with the line's home set. Copies
// give way to home lines: a copy takes only an empty way or another copy's, and a fill takes a
// copy's way before it evicts a home line, so copies use what the partition's own lines leave
// free. A load whose line is in its core's partition (home or copy) is near and takes
// hit_latency; one that has to reach the line's home in another partition is far and takes
// far_hit_latency, and leaves a copy where there is room. A store goes to the home (far when that
// is another partition), updates its own partition's copy (drops it, when it writes part of a
// sector) and drops any other's. A request's data is there when its last line is: one far line
// makes it far. (A miss's path is the HBM's latency, which the memory's own figure gives for the
// chip as a whole.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/activity.hpp"
#include "models/memory_level.hpp"
#include "models/program.hpp"
#include "models/stat_fields.hpp"
#include "models/units.hpp"

namespace ridgeline {

enum class L2WritePolicy : std::uint8_t {
  write_back,     ///< stores allocate lines and mark them dirty; HBM sees them when evicted
  write_through,  ///< stores go on to HBM at once; lines present are updated, none allocated
};

std::string_view name_of(L2WritePolicy policy);

enum class L2SetIndex : std::uint8_t {
  xor_folded,  ///< the line number's higher bits XORed onto the index bits, then modulo the sets
  modulo,      ///< the line number modulo the sets
};

std::string_view name_of(L2SetIndex index);

/// A line's sectors: their valid and dirty bits share one byte of the tag store.
inline constexpr std::uint64_t kMaxSectorsPerLine = 4;

struct L2CacheParams {
  std::uint64_t capacity_bytes = 0;  ///< data capacity, a whole number of sets
  std::uint64_t line_bytes = 128;    ///< a power of two
  std::uint64_t sector_bytes = 128;  ///< a power of two dividing the line, at most 4 a line
  std::uint32_t associativity = 16;  ///< ways per set
  Bandwidth bandwidth;               ///< the port towards the cores, bytes/s, all cores together
  Time hit_latency;                  ///< from a request to its data when every line hits (in
                                     ///< the requesting core's own partition)
  std::uint32_t partitions = 1;      ///< parts the lines are spread over, each near a share of
                                     ///< the cores
  Time far_hit_latency;              ///< the same from a partition not the core's own; with one
                                     ///< partition, hit_latency
  L2WritePolicy write_policy = L2WritePolicy::write_back;
  L2SetIndex set_index = L2SetIndex::xor_folded;

  std::uint64_t lines() const { return capacity_bytes / line_bytes; }
  std::uint64_t sectors_per_line() const { return line_bytes / sector_bytes; }
  std::uint64_t sets() const { return lines() / associativity; }
  /// The partition set `set` belongs to. The sets go in groups of `partitions` consecutive ones,
  /// one in each partition, rotated by a hash of the group's number: sequential lines, which the
  /// set index puts in consecutive sets, alternate between the partitions, and lines a power of
  /// two apart (which the index spreads over the sets) spread over them alike.
  std::uint32_t partition_of_set(std::uint64_t set) const {
    return static_cast<std::uint32_t>((set % partitions + rotation_of_group(set / partitions)) %
                                      partitions);
  }
  /// The set of partition `partition` in the group of `set`: where a copy of a line homed in
  /// `set` goes.
  std::uint64_t set_in_partition(std::uint64_t set, std::uint32_t partition) const {
    const std::uint64_t group = set / partitions;
    return group * partitions + (partition + partitions - rotation_of_group(group)) % partitions;
  }
  /// How far group `group`'s sets are rotated over the partitions: a multiplicative hash.
  std::uint32_t rotation_of_group(std::uint64_t group) const {
    const std::uint64_t hashed = (group * 0x9E3779B97F4A7C15ULL) >> 32;
    return static_cast<std::uint32_t>((hashed * partitions) >> 32);
  }
  /// The partition core `core` (0 to cores - 1) of `cores` is near: the cores in `partitions`
  /// consecutive equal shares.
  std::uint32_t partition_of_core(std::uint32_t core, std::uint32_t cores) const {
    const std::uint32_t count = std::max(cores, 1u);
    return static_cast<std::uint32_t>(std::uint64_t{std::min(core, count - 1)} * partitions /
                                      count);
  }
};

struct L2CacheStats : StatFields<L2CacheStats> {
  std::uint64_t read_requests = 0;           ///< loads from the cores
  std::uint64_t write_requests = 0;          ///< stores from the cores
  std::uint64_t far_requests = 0;            ///< of both, those that reached a far partition
  std::uint64_t read_bytes = 0;              ///< bytes the cores read
  std::uint64_t write_bytes = 0;             ///< bytes the cores wrote
  std::uint64_t hit_lines = 0;               ///< line look-ups that found the data there
  std::uint64_t pending_hit_lines = 0;       ///< look-ups that found the line's fill on its way
  std::uint64_t miss_lines = 0;              ///< look-ups that fetched or allocated
  std::uint64_t copy_hit_lines = 0;          ///< hits on a copy of a line homed elsewhere
  std::uint64_t copy_fill_lines = 0;         ///< loads that made or filled such a copy
  std::uint64_t sector_miss_lines = 0;       ///< of those, ones that found the line (not sectors)
  std::uint64_t hit_bytes = 0;               ///< requested bytes in lines that hit
  std::uint64_t pending_hit_bytes = 0;       ///< requested bytes that waited for a fill in flight
  std::uint64_t miss_bytes = 0;              ///< requested bytes in lines that missed
  std::uint64_t fill_requests = 0;           ///< HBM reads issued for missing lines
  std::uint64_t fill_bytes = 0;              ///< bytes those reads moved (whole sectors)
  std::uint64_t evictions = 0;               ///< valid lines replaced
  std::uint64_t writeback_requests = 0;      ///< HBM writes of evicted dirty sectors
  std::uint64_t writeback_bytes = 0;         ///< bytes they moved (whole sectors)
  std::uint64_t write_through_requests = 0;  ///< stores passed on to HBM (write-through)
  std::uint64_t write_through_bytes = 0;     ///< bytes they moved
  std::uint64_t dirty_at_end_lines = 0;      ///< lines with a dirty sector when the kernel ended
  std::uint64_t dirty_at_end_bytes = 0;      ///< their dirty sectors' bytes: not in Q, not written
  Time port_busy;                            ///< time the port to the cores was transferring
  Time port_queue_delay;                     ///< summed over requests: wait for a busy port

  std::uint64_t hbm_read_bytes() const { return fill_bytes; }
  std::uint64_t hbm_write_bytes() const {
    return writeback_bytes + write_through_bytes;
  }
  static constexpr auto fields() {
    return std::make_tuple(
        counter("read_requests", &L2CacheStats::read_requests, "requests", Merge::sum,
                "loads the cores sent to the L2"),
        counter("write_requests", &L2CacheStats::write_requests, "requests", Merge::sum,
                "stores the cores sent to the L2"),
        counter("far_requests", &L2CacheStats::far_requests, "requests", Merge::sum,
                "loads and stores with a line they had to reach in its home partition, not "
                "their core's: their hits take far_hit_latency"),
        counter("read_bytes", &L2CacheStats::read_bytes, "bytes", Merge::sum,
                "bytes the cores read through the L2"),
        counter("write_bytes", &L2CacheStats::write_bytes, "bytes", Merge::sum,
                "bytes the cores wrote through the L2"),
        counter("hit_lines", &L2CacheStats::hit_lines, "lines", Merge::sum,
                "line look-ups that found the data there"),
        counter("pending_hit_lines", &L2CacheStats::pending_hit_lines, "lines", Merge::sum,
                "line look-ups that found the line's fill on its way and waited for it"),
        counter("miss_lines", &L2CacheStats::miss_lines, "lines", Merge::sum,
                "line look-ups that found no line, or not every sector they needed"),
        counter("sector_miss_lines", &L2CacheStats::sector_miss_lines, "lines", Merge::sum,
                "misses that found the line but not every sector they needed: those fetched"),
        counter("copy_hit_lines", &L2CacheStats::copy_hit_lines, "lines", Merge::sum,
                "hits on a copy, in the core's own partition, of a line homed in another: near"),
        counter("copy_fill_lines", &L2CacheStats::copy_fill_lines, "lines", Merge::sum,
                "loads that reached a line's home partition and left a copy of it in their "
                "core's"),
        counter("hit_bytes", &L2CacheStats::hit_bytes, "bytes", Merge::sum,
                "requested bytes in lines that hit"),
        counter("pending_hit_bytes", &L2CacheStats::pending_hit_bytes, "bytes", Merge::sum,
                "requested bytes that waited for a fill already in flight"),
        counter("miss_bytes", &L2CacheStats::miss_bytes, "bytes", Merge::sum,
                "requested bytes in lines that missed"),
        counter("fill_requests", &L2CacheStats::fill_requests, "requests", Merge::sum,
                "HBM reads for missing lines"),
        counter("fill_bytes", &L2CacheStats::fill_bytes, "bytes", Merge::sum,
                "bytes read from HBM to fill sectors"),
        counter("evictions", &L2CacheStats::evictions, "lines", Merge::sum, "valid lines replaced"),
        counter("writeback_requests", &L2CacheStats::writeback_requests, "requests", Merge::sum,
                "HBM writes of evicted lines' dirty sectors"),
        counter("writeback_bytes", &L2CacheStats::writeback_bytes, "bytes", Merge::sum,
                "bytes of evicted dirty sectors written"),
        counter("write_through_requests", &L2CacheStats::write_through_requests, "requests",
                Merge::sum, "stores passed on to HBM (write-through)"),
        counter("write_through_bytes", &L2CacheStats::write_through_bytes, "bytes", Merge::sum,
                "bytes of stores passed on to HBM (write-through)"),
        counter("dirty_at_end_lines", &L2CacheStats::dirty_at_end_lines, "lines", Merge::sum,
                "lines with a dirty sector when the kernel ended: kept in the L2, not written to "
                "HBM"),
        counter("dirty_at_end_bytes", &L2CacheStats::dirty_at_end_bytes, "bytes", Merge::sum,
                "bytes of the sectors still dirty at the end: beside Q, not in it"),
        formula(
            "hbm_bytes",
            +[](const L2CacheStats& s) {
              return as_stat(s.hbm_read_bytes() + s.hbm_write_bytes());
            },
            "bytes",
            "bytes the L2 moved to and from HBM while the kernel ran: fills, write-backs, "
            "write-through"),
        counter("port_busy_s", &L2CacheStats::port_busy, "s", Merge::sum,
                "time the port to the cores was transferring"),
        counter("port_queue_delay_s", &L2CacheStats::port_queue_delay, "s", Merge::sum,
                "sum over requests of the wait for a busy port"));
  }
};

/// Where the cache's misses and write-backs go: the HBM, or a stand-in in tests.
class MemoryBelow {
 public:
  virtual ~MemoryBelow() = default;
  /// Serves `region` arriving at `now` (calls come in time order); returns when it is done.
  virtual Time access(Time now, const Region& region, bool is_write) = 0;
};

/// Which set a line goes to. Plain modulo puts the rows of a matrix whose pitch is a power of two
/// into the same few sets (rows 16 KiB apart fill 1 set in 128 of a 2^n-set cache); GPUs hash
/// their L2 index against that, and the XOR fold does the same: the line number's higher bits,
/// in slices as wide as the index, are XORed onto its lowest slice before taking the modulo.
/// Lines of one aligned run of 2^bits stay in distinct sets when the sets are a power of two.
class SetIndex {
 public:
  SetIndex(std::uint64_t sets, L2SetIndex kind);
  std::uint64_t operator()(std::uint64_t line) const {
    if (fold_) {
      std::uint64_t folded = 0;
      for (std::uint64_t rest = line; rest != 0; rest >>= bits_) folded ^= rest & low_mask_;
      line = folded;
    }
    if (power_of_two_) return line & (sets_ - 1);
    if (line <= 0xffffffffu) {
      // Lemire's remainder by multiplication: exact for 32-bit operands, no division.
      const std::uint64_t fraction = inverse_ * line;
      return static_cast<std::uint64_t>((static_cast<unsigned __int128>(fraction) * sets_) >> 64);
    }
    return line % sets_;
  }

 private:
  std::uint64_t sets_;
  bool fold_;
  bool power_of_two_;
  std::uint32_t bits_ = 64;         // index width: ceil(log2(sets))
  std::uint64_t low_mask_ = ~0ull;  // 2^bits - 1
  std::uint64_t inverse_ = 0;       // 2^64 / sets, rounded up
};

/// The tag store of a set-associative cache with exact LRU replacement.
///
/// Look-ups are what an L2 run spends its time on, and the state of a large cache is megabytes
/// the host's caches do not hold, so each set keeps what a look-up reads first in one 64-byte
/// header: per way a fingerprint byte (compared 16 at a time), the ways in LRU order, and flags.
/// A hit reads the header and one tag; a miss the header alone (and the victim's tag only when
/// it is dirty). Per way the header also keeps the line's valid and dirty sectors in one byte.
/// Tags and fill times follow the header.
class CacheSets {
 public:
  static constexpr std::uint32_t kMaxWays = 256;  // the LRU order is kept in bytes
  static constexpr std::uint32_t kNoWay = 0xffffffffu;
  enum Flag : std::uint8_t {
    kValid = 1,    ///< the way holds a line
    kFilling = 2,  ///< data for it was on its way at the last look: read ready_ps()
    kCopy = 4,     ///< the line is a copy of one homed in another set
  };

  CacheSets(std::uint64_t sets, std::uint32_t ways);

  /// Host memory the state of `sets` x `ways` takes, bytes.
  static std::uint64_t state_bytes(std::uint64_t sets, std::uint32_t ways);

  /// The way of `set` that holds `line`, or kNoWay.
  std::uint32_t find(std::uint64_t set, std::uint64_t line) const;
  /// Makes `way` the most recently used of its set.
  void touch(std::uint64_t set, std::uint32_t way);
  /// The way a new line replaces: an empty one if any, else the least recently used.
  std::uint32_t victim(std::uint64_t set) const { return order(set)[ways_ - 1]; }
  /// The least recently used way that is empty or holds a copy, or kNoWay.
  std::uint32_t spare(std::uint64_t set) const;
  /// Empties `way` and makes it the first to be replaced.
  void invalidate(std::uint64_t set, std::uint32_t way);
  /// Puts `line` in `way` with `flags` and its sectors' masks, most recently used.
  void install(std::uint64_t set, std::uint32_t way, std::uint64_t line, std::uint8_t flags,
               std::uint8_t valid, std::uint8_t dirty);

  std::uint8_t& flags(std::uint64_t set, std::uint32_t way) { return header(set)[flags_at_ + way]; }
  std::uint8_t flags(std::uint64_t set, std::uint32_t way) const {
    return header(set)[flags_at_ + way];
  }
  /// Bit s: sector s of the line holds every byte of its data (or its fill is on its way).
  std::uint8_t valid_sectors(std::uint64_t set, std::uint32_t way) const {
    return header(set)[sectors_at_ + way] & kSectorMask;
  }
  /// Bit s: sector s was written since it was filled.
  std::uint8_t dirty_sectors(std::uint64_t set, std::uint32_t way) const {
    return static_cast<std::uint8_t>(header(set)[sectors_at_ + way] >> kMaxSectorsPerLine);
  }
  /// Adds sectors to the line's valid and dirty ones.
  void mark_sectors(std::uint64_t set, std::uint32_t way, std::uint8_t valid, std::uint8_t dirty) {
    header(set)[sectors_at_ + way] |=
        static_cast<std::uint8_t>(valid | dirty << kMaxSectorsPerLine);
  }
  std::uint64_t tag(std::uint64_t set, std::uint32_t way) const { return tags(set)[way]; }
  std::uint64_t& ready_ps(std::uint64_t set, std::uint32_t way) { return tags(set)[ways_ + way]; }

  /// Asks the host to bring `set`'s state into its caches ahead of a look-up.
  void prefetch(std::uint64_t set) const;

  std::uint64_t sets() const { return sets_; }
  std::uint32_t ways() const { return ways_; }

 private:
  std::uint8_t* header(std::uint64_t set) {
    return reinterpret_cast<std::uint8_t*>(base_ + set * block_words_);
  }
  const std::uint8_t* header(std::uint64_t set) const {
    return reinterpret_cast<const std::uint8_t*>(base_ + set * block_words_);
  }
  const std::uint8_t* order(std::uint64_t set) const { return header(set) + order_at_; }
  std::uint64_t* tags(std::uint64_t set) { return base_ + set * block_words_ + header_words_; }
  const std::uint64_t* tags(std::uint64_t set) const {
    return base_ + set * block_words_ + header_words_;
  }

  std::uint64_t sets_;
  std::uint32_t ways_;
  static constexpr std::uint8_t kSectorMask = (1u << kMaxSectorsPerLine) - 1;
  // Header offsets, bytes: fingerprints at 0, then LRU order, flags, sectors (valid in the low
  // half of the byte, dirty in the high).
  std::uint32_t order_at_;
  std::uint32_t flags_at_;
  std::uint32_t sectors_at_;
  std::uint64_t header_words_;  // a whole number of 64-byte host cache lines
  std::uint64_t block_words_;   // header, tags[ways], ready_ps[ways]
  std::vector<std::uint64_t> storage_;
  std::uint64_t* base_ = nullptr;  // storage_ aligned to 64 bytes
};

/// The name an L2 has in the reports, the JSON and the module hierarchy.
inline constexpr const char* kL2Name = "l2";

/// The timing core, plain C++: usable without the SystemC kernel. A shared memory level.
class L2CacheTiming final : public MemoryLevel {
 public:
  /// `cores`: the cores of the machine, whose consecutive equal shares are each near one
  /// partition (L2CacheParams::partition_of_core).
  L2CacheTiming(const L2CacheParams& params, MemoryBelow& below, std::uint32_t cores = 1,
                std::string name = kL2Name);

  /// Serves a request of core `core` arriving at `now` (in time order); returns when it is done.
  Time access(Time now, const Region& region, bool is_write, std::uint32_t core = 0);

  /// How a kernel before this one left a range in the L2: it read the lines (each at home, and
  /// copied in the partitions whose cores read it) or wrote them (at home only: stores go there).
  enum class LeftBy : std::uint8_t { reads, writes };

  /// Puts the lines of [address, address + bytes) in the cache, clean, before the run starts,
  /// as a kernel before this one left them (they count in no statistic): each in its home
  /// partition, and, where it read them, a copy in every other partition near one of this run's
  /// cores, as reading them on these cores would leave. The copies are placed first, so that
  /// where a partition cannot hold both, its home lines stay; where a set cannot hold them all,
  /// the last ones placed stay, as least-recently-used replacement keeps them.
  void preload(std::uint64_t address, std::uint64_t bytes, LeftBy left_by = LeftBy::reads);

  /// Counts the dirty lines (dirty_at_end_lines, dirty_at_end_bytes) and leaves them dirty.
  void end_of_run() override;

  const L2CacheParams& params() const { return params_; }
  const L2CacheStats& stats() const { return stats_; }

  const std::string& name() const override { return name_; }
  Bandwidth port_bandwidth() const override { return params_.bandwidth; }
  /// Q at the L2 is what the cores asked for; below it, fills, write-backs and write-through.
  LevelTraffic traffic() const override {
    return {stats_.read_bytes + stats_.write_bytes,
            stats_.hbm_read_bytes() + stats_.hbm_write_bytes(), stats_.port_busy,
            stats_.read_requests + stats_.write_requests, stats_.port_queue_delay};
  }
  void visit(const StatVisitor& visitor) const override { stats_.visit(visitor); }
  void observe(ActivityObserver* observer, std::uint32_t position) override {
    observer_ = observer;
    position_ = position;
  }

  /// The partition the line holding `address` lives in.
  std::uint32_t home_partition(std::uint64_t address) const {
    return params_.partitions == 1 ? 0 : params_.partition_of_set(set_of_(address >> line_shift_));
  }
  /// Whether the line holding `address` is in its home partition, and whether the sector
  /// holding it is dirty there; whether partition `partition` holds a copy of it (for tests).
  bool contains(std::uint64_t address) const;
  bool is_dirty(std::uint64_t address) const;
  bool has_copy(std::uint64_t address, std::uint32_t partition) const;

 private:
  struct Slot {  // a line with sectors in the current request's fills, not yet issued
    std::uint64_t set;
    std::uint32_t way;
    std::uint64_t line;  // line number (address / line size)
  };

  struct CopySlot {  // a copy made while its home line's fill was not yet issued
    std::uint64_t set;
    std::uint32_t way;
    std::uint64_t home_set;
    std::uint64_t line;
  };
  /// What a request wants of one line: the sectors it needs there, writes whole and dirties.
  struct LineNeeds {
    std::uint8_t needed;
    std::uint8_t written;
    std::uint8_t dirtied;
    std::uint64_t covered;  // bytes of the request in the line
  };

  /// The sectors bytes first .. end - 1 of a line touch.
  std::uint8_t touched_sectors(std::uint64_t first, std::uint64_t end) const;
  /// Calls visit(row address) for each row of `shape`, in order, prefetching ahead.
  template <class Visit>
  void for_each_row(const Region& shape, Visit&& visit);
  /// Calls visit(line, first byte covered within it, bytes covered) for each line of a row.
  template <class Visit>
  void for_each_line(std::uint64_t address, std::uint64_t bytes, Visit&& visit);
  /// One line of a request that allocates: served from the core's own partition when the line
  /// is there (its home or a copy), else from its home, where it may hit, wait for a fill in
  /// flight, or miss (the line or sectors of it) and be fetched.
  void look_up(std::uint64_t line, std::uint64_t offset, std::uint64_t covered);
  /// The look-up proper in `set`, whose `way` holds the line (or is kNoWay); returns the way
  /// that holds it after.
  std::uint32_t serve(std::uint64_t set, std::uint32_t way, std::uint64_t line,
                      const LineNeeds& needs);
  /// Leaves in `set` a copy of the sectors `needed` of `line`, homed in way `home_way` of
  /// `home_set`, where there is room; `way` is the copy already there, or kNoWay.
  void make_copy(std::uint64_t set, std::uint32_t way, std::uint64_t home_set,
                 std::uint32_t home_way, std::uint64_t line, std::uint8_t needed);
  /// Drops the copies of `line` (homed in `home_set`) in the partitions near a core other than
  /// `keep`: a store made them stale.
  void drop_copies(std::uint64_t line, std::uint64_t home_set, std::uint32_t keep);
  /// The way of `set` a home line takes: an empty way or a copy's, else the least recently used.
  std::uint32_t way_for_home_line(std::uint64_t set) const;
  /// The way of `set` a new home line takes (way_for_home_line), evicted (dirty sectors queued for
  /// writing).
  std::uint32_t replace(std::uint64_t set);
  /// Adds the sectors of `line` in `mask` to the current row's fills.
  void fetch_sectors(std::uint64_t set, std::uint32_t way, std::uint64_t line, std::uint8_t mask);
  /// One line of a write-through store: updated where present, nothing allocated.
  void update(std::uint64_t line, std::uint64_t covered);
  /// Places the lines first .. last with the valid sectors `sectors(line)`, as reading them in
  /// that order would leave them: at home, or, with `copies_for` a partition, its copies of the
  /// lines homed elsewhere.
  static constexpr std::uint32_t kHome = ~0u;
  template <class Sectors>
  void place_lines(std::uint64_t first, std::uint64_t last, std::uint32_t copies_for,
                   Sectors&& sectors);
  void close_row_run();
  void issue_pending_run();
  void write_sectors(std::vector<std::uint64_t>& sectors, std::uint64_t& requests,
                   std::uint64_t& bytes);

  L2CacheParams params_;
  std::uint32_t cores_;
  std::string name_;
  MemoryBelow& below_;
  TransferRate port_rate_;
  std::uint32_t line_shift_;
  std::uint32_t sector_shift_;          // log2(sector bytes)
  std::uint32_t sectors_per_line_shift_;  // log2(sectors a line)
  L2CacheStats stats_;
  Time port_free_;
  SetIndex set_of_;
  CacheSets sets_;
  std::vector<std::uint32_t> near_partitions_;  // those near one of the cores, in order

  // The request being served: when it arrived, whether it writes, its core's partition, whether
  // it reached a far one, the latest fill it waits for, the current row's run of missing sectors,
  // the 2-D run of equal row runs it may extend, the copies waiting for their fills' times, and
  // the dirty sectors it evicted.
  Time now_;
  bool is_write_ = false;
  std::uint32_t partition_ = 0;
  bool far_ = false;
  Time data_ready_;
  std::uint64_t row_run_first_ = 0;    // first sector (address / sector size) of the row's run
  std::uint64_t row_run_sectors_ = 0;  // sectors in it; 0: no run open
  Region pending_run_;                 // rows == 0: none
  std::vector<Slot> row_slots_;        // lines of the current row's run
  std::vector<Slot> run_slots_;        // lines of pending_run_
  std::vector<CopySlot> copy_slots_;
  std::vector<std::uint64_t> evicted_dirty_;  // sector numbers
  ActivityObserver* observer_ = nullptr;
  std::uint32_t position_ = 0;  // in the chain of levels, for the observer
};

}  // namespace ridgeline
