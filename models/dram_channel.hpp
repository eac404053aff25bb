// One DRAM pseudo-channel's timing: banks in bank groups with open-page row buffers, the data
// bus, read/write turnaround and refresh. Plain C++, tested without the SystemC kernel.
//
// The unit of work is a row access: the bursts of one request that fall into one row of one bank.
// It costs at most one precharge and one activation, then column bursts, computed arithmetically:
// never one step per burst. Row accesses arrive in time order (the reservation model of the rest
// of the simulator) and are served first come first served; the policy:
//
// - open page: a row stays open after its access. A row access finds its row open (hit: column
//   commands at once), its bank closed (miss: ACT, tRCD, columns) or another row open (conflict:
//   PRE when tRAS, tRTP and tWR allow, tRP, ACT, tRCD, columns).
// - row commands (PRE, ACT) take slots of the row-command path in arrival order, one per tRRD_S
//   (tRRD_L within a bank group), four per tFAW, reserved from the access's arrival; an ACT also
//   waits for its own bank (tRP, tRAS...), which holds back no other bank's ACT. HBM has separate
//   row and column command buses, so activations overlap the data of earlier accesses.
// - column bursts of one row access are tCCD_L apart (one bank group). The bank group's column
//   path (a burst per tCCD_L) and the data bus (a burst per max(tCCD_S, burst time)) are each
//   reserved in arrival order from when the bank can deliver; the access's last burst is the
//   later of the two. Accesses to different bank groups thus interleave their bursts on the bus;
//   an access whose bank is late delays the bursts behind it, as in-order column commands do.
// - a read after a write waits tWTR_S (tWTR_L in the same bank group) after the write data; a
//   write after a read waits tRTW after the read command.
// - refresh: all banks every tREFI for tRFC (REFab), staggered over the pseudo-channels by the
//   caller. A refresh that falls due while accesses are scheduled is taken after them, before the
//   next access (postponed, never skipped); it closes every row.
//
// The controller (DramController): `fcfs` is the above, row accesses served as they arrive, no
// queue. `fr_fcfs` adds what a controller with request queues does, within the reservation model
// (every read is answered when it arrives, so a later request never delays an earlier one):
// - writes are posted: they wait in a write queue (`write_queue_depth` entries: requests' row
//   accesses, or transactions) and
//   are drained in batches, FR-FCFS among them (row hits first, then the write whose bank is
//   ready first; at most `starvation_cap` younger writes pass the oldest), when the queue reaches
//   the high watermark (down to the low one), when the pseudo-channel has nothing to read, and at
//   the end of the run (finish). A batch is a barrier: reads that arrive after it wait for it, so
//   a mixed stream pays its turnarounds per batch.
// - refresh is all-bank (above) or per bank (REFpb): one bank at a time, in turn, every
//   tREFI / banks, busy tRFCpb while the others work.
// - a read covered by a queued write is served from it, with no DRAM command.
// - ready first: the data bus and each bank group's column path keep the gaps an access waiting
//   for its bank left behind, and a later access that is ready sooner takes them.
// - row hits first: a read to the row a conflict is about to close (its bank's previous row) is a
//   hit if its bursts fit before that precharge.
// - the read queue holds the reads whose first column has not issued; a read that finds it full
//   (`read_queue_depth`) enters when the oldest leaves (back-pressure); so does a write that finds
//   the write queue full.
// Page policy: `open` keeps rows open; `closed` precharges a bank as soon as tRAS, tRTP and tWR
// allow unless a request to its row has arrived by then (or a queued write targets it).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/latency_histogram.hpp"
#include "models/stat_fields.hpp"
#include "models/units.hpp"

namespace ridgeline {

/// JEDEC-style timings of one pseudo-channel, in picoseconds (see docs/CONFIG.md for each).
struct DramTimings {
  Time tRCD_RD;  ///< ACT to READ, same bank
  Time tRCD_WR;  ///< ACT to WRITE, same bank
  Time tRP;      ///< PRE to ACT, same bank
  Time tRAS;     ///< ACT to PRE, same bank
  Time tCL;      ///< READ to its first data
  Time tCWL;     ///< WRITE to its first data
  Time tCCD_S;   ///< column to column, different bank groups of one stack ID
  /// column to column, different stack IDs of one pseudo-channel (HBM3's tCCD_R; with one stack
  /// ID never used)
  Time tCCD_R;
  Time tCCD_L;  ///< column to column, same bank group
  Time tRRD_S;  ///< ACT to ACT, different bank groups
  Time tRRD_L;  ///< ACT to ACT, same bank group
  Time tFAW;    ///< window holding at most four ACTs
  Time tWR;     ///< end of write data to PRE, same bank
  Time tRTP;    ///< READ to PRE, same bank
  Time tWTR_S;  ///< end of write data to READ, different bank groups
  Time tWTR_L;  ///< end of write data to READ, same bank group
  Time tRTW;    ///< READ to WRITE
  Time tREFI;   ///< refresh interval
  Time tRFC;    ///< refresh cycle: all banks busy
  Time tRFCpb;  ///< per-bank refresh cycle: one bank busy (per-bank refresh only)
};

enum class DramScheduler : std::uint8_t { fcfs, fr_fcfs };
enum class PagePolicy : std::uint8_t { open, closed };
/// What a queue entry holds (DramController::queue_unit).
enum class QueueUnit : std::uint8_t { request, transaction };
/// When a queued read gives its entries back (DramController::read_release).
enum class ReadRelease : std::uint8_t { column, activation };
/// REFab: every bank of a pseudo-channel at once, once a tREFI, for tRFC. REFpb: one bank at a
/// time, in turn, every tREFI / banks, for tRFCpb; the other banks go on working.
enum class RefreshPolicy : std::uint8_t { all_bank, per_bank };

/// The controller in front of each pseudo-channel (see the comment at the top).
struct DramController {
  DramScheduler scheduler = DramScheduler::fr_fcfs;
  PagePolicy page_policy = PagePolicy::open;
  std::uint32_t read_queue_depth = 32;      ///< entries (QueueUnit)
  std::uint32_t write_queue_depth = 32;     ///< entries
  std::uint32_t write_high_watermark = 25;  ///< entries
  std::uint32_t write_low_watermark = 6;    ///< entries
  /// What an entry of the queues holds: a request's row access (its piece on this
  /// pseudo-channel), or one transaction (a burst), as a front end that sends burst-sized
  /// requests (Ramulator's) fills them.
  QueueUnit queue_unit = QueueUnit::request;
  /// When a read leaves the read queue: at its first column command (column); or, for a read
  /// that opens its row, its first transaction's entry at the activation, the request then
  /// waiting in its bank (Ramulator 2's controllers move it to their active buffer), and its other
  /// transactions' at the column (activation).
  ReadRelease read_release = ReadRelease::column;
  std::uint32_t starvation_cap = 16;  ///< younger row hits that may pass the oldest request
  /// Refreshes of the pseudo-channels spread over the interval (true), or all at once, every
  /// tREFI from tREFI (as Ramulator 2's AllBank refresh manager issues them).
  bool staggered_refresh = true;
  RefreshPolicy refresh = RefreshPolicy::all_bank;
  /// The queues' depths and watermarks are a channel's, shared by its pseudo-channels (as a
  /// controller a channel has them), instead of each pseudo-channel's.
  bool channel_queues = false;
  /// A full queue holds the requester too (an in-order front end: the HBM hands the later
  /// `accepted` time back and a trace player issues nothing before it); otherwise only the
  /// request waits.
  bool requesters_stall = false;
};

struct DramChannelParams {
  std::uint32_t bank_groups = 1;  ///< all of them, every stack ID's
  std::uint32_t banks_per_group = 1;
  /// Stack IDs (an 8-high HBM3 stack's two halves) the bank groups are split into: bank group g
  /// is on stack ID g % stack_ids. Bursts of different stack IDs are tCCD_R apart on the bus.
  std::uint32_t stack_ids = 1;
  std::uint64_t burst_bytes = 32;  ///< bytes one column command moves
  TransferRate data_rate;          ///< this pseudo-channel's share of the peak bandwidth
  DramTimings timing;
  bool refresh = true;
  Time first_refresh;  ///< when the first refresh falls due (staggers pseudo-channels)
  DramController controller;
};

/// Counters of one pseudo-channel (summed over pseudo-channels in reports).
struct DramStats : StatFields<DramStats> {
  std::uint64_t row_hits = 0;       ///< row accesses that found their row open
  std::uint64_t row_misses = 0;     ///< found their bank closed
  std::uint64_t row_conflicts = 0;  ///< found another row open
  std::uint64_t activations = 0;    ///< ACT commands
  std::uint64_t precharges = 0;     ///< PRE commands, including before refresh
  std::uint64_t read_bursts = 0;
  std::uint64_t write_bursts = 0;
  std::uint64_t turnarounds = 0;  ///< switches between reading and writing
  std::uint64_t refreshes = 0;
  Time refresh_busy;            ///< time spent refreshing (tRFC each)
  Time bus_busy;                ///< data bus time of all bursts
  std::uint64_t bus_bytes = 0;  ///< whole bursts: what the bus carried, not what was asked
  // The controller (fr_fcfs; fcfs counts only in_order).
  std::uint64_t in_order = 0;       ///< row accesses placed after everything scheduled before
  std::uint64_t ready_first = 0;    ///< took a gap left by an earlier access waiting for its bank
  std::uint64_t row_hit_first = 0;  ///< hit the row a scheduled conflict was about to close
  std::uint64_t forwarded = 0;      ///< reads served from a queued write
  std::uint64_t writes_merged = 0;  ///< writes covered by one already queued
  std::uint64_t starvation_cap_hits = 0;  ///< the oldest write taken because the cap was reached
  std::uint64_t write_batches = 0;
  std::uint64_t batched_writes = 0;  ///< row accesses written by batches
  std::uint64_t longest_batch = 0;
  std::uint64_t queue_full_waits = 0;  ///< accesses that waited for room in a full queue
  Time queue_full_time;                ///< and how long, summed
  std::uint64_t queue_samples = 0;     ///< arrivals at which the queues were sampled
  std::uint64_t read_queue_sum = 0;    ///< read queue occupancy (entries) summed over samples
  std::uint64_t write_queue_sum = 0;
  std::uint64_t read_queue_max = 0;
  std::uint64_t write_queue_max = 0;
  std::uint64_t served_reads = 0;  ///< read row accesses that reached the DRAM
  Time read_queueing;              ///< summed: arrival to the first command of each
  Time read_service;               ///< summed: first command to the last data
  /// The distributions of the two sums above, over each read row access: accepted to first
  /// command, first command to last data. Kept for the whole stack by DramSystem (one pair of
  /// histograms, not one a pseudo-channel: the reports give the stack's percentiles and each
  /// pseudo-channel's means), so a pseudo-channel's own stats leave them empty.
  LatencyHistogram read_queueing_latency;
  LatencyHistogram read_service_latency;

  /// The counters by their rules, and the histograms.
  void add(const DramStats& other) {
    StatFields::add(other);
    read_queueing_latency.merge(other.read_queueing_latency);
    read_service_latency.merge(other.read_service_latency);
  }

  static constexpr auto fields() {
    return std::make_tuple(
        counter("row_hits", &DramStats::row_hits, "row accesses", Merge::sum,
                "row accesses that found their row open"),
        counter("row_misses", &DramStats::row_misses, "row accesses", Merge::sum,
                "row accesses that found the bank closed"),
        counter("row_conflicts", &DramStats::row_conflicts, "row accesses", Merge::sum,
                "row accesses that found another row open (precharge, then activate)"),
        counter("activations", &DramStats::activations, "commands", Merge::sum, "ACT commands"),
        counter("precharges", &DramStats::precharges, "commands", Merge::sum,
                "PRE commands, including before refreshes"),
        counter("read_bursts", &DramStats::read_bursts, "bursts", Merge::sum,
                "read column commands"),
        counter("write_bursts", &DramStats::write_bursts, "bursts", Merge::sum,
                "write column commands"),
        counter("turnarounds", &DramStats::turnarounds, "switches", Merge::sum,
                "switches of a pseudo-channel between reading and writing"),
        counter("refreshes", &DramStats::refreshes, "commands", Merge::sum, "all-bank refreshes"),
        counter("refresh_busy_s", &DramStats::refresh_busy, "s", Merge::sum,
                "sum over pseudo-channels of time refreshing"),
        counter("bus_busy_s", &DramStats::bus_busy, "s", Merge::sum,
                "sum over pseudo-channels of data-bus time of bursts"),
        counter("bus_bytes", &DramStats::bus_bytes, "bytes", Merge::sum,
                "bytes the data bus carried: whole bursts (requests are rounded out to them)"),
        counter("in_order", &DramStats::in_order, "row accesses", Merge::sum,
                "scheduler: placed after everything scheduled before them"),
        counter("ready_first", &DramStats::ready_first, "row accesses", Merge::sum,
                "scheduler: took a gap left by an older access waiting for its bank"),
        counter("row_hit_first", &DramStats::row_hit_first, "row accesses", Merge::sum,
                "scheduler: hit a row before the precharge of an older conflict"),
        counter("forwarded", &DramStats::forwarded, "row accesses", Merge::sum,
                "reads served from a queued write"),
        counter("writes_merged", &DramStats::writes_merged, "row accesses", Merge::sum,
                "writes covered by a write already queued"),
        counter("starvation_cap_hits", &DramStats::starvation_cap_hits, "row accesses", Merge::sum,
                "writes taken oldest-first because younger hits reached the cap"),
        counter("write_batches", &DramStats::write_batches, "batches", Merge::sum,
                "write-queue drains"),
        counter("batched_writes", &DramStats::batched_writes, "row accesses", Merge::sum,
                "row accesses written by the drains"),
        counter("longest_batch", &DramStats::longest_batch, "row accesses", Merge::max,
                "the longest drain"),
        counter("queue_full_waits", &DramStats::queue_full_waits, "row accesses", Merge::sum,
                "accesses that found their queue full and waited"),
        counter("queue_full_s", &DramStats::queue_full_time, "s", Merge::sum,
                "time those accesses waited for room"),
        counter("queue_samples", &DramStats::queue_samples, "arrivals", Merge::sum,
                "arrivals at which the queue occupancy was sampled"),
        counter("read_queue_sum", &DramStats::read_queue_sum, "entries", Merge::sum,
                "read-queue occupancy summed over the samples"),
        counter("write_queue_sum", &DramStats::write_queue_sum, "entries", Merge::sum,
                "write-queue occupancy summed over the samples"),
        counter("read_queue_max", &DramStats::read_queue_max, "entries", Merge::max,
                "the fullest read queue"),
        counter("write_queue_max", &DramStats::write_queue_max, "entries", Merge::max,
                "the fullest write queue"),
        counter("served_reads", &DramStats::served_reads, "row accesses", Merge::sum,
                "read row accesses that reached the DRAM"),
        counter("read_queueing_s", &DramStats::read_queueing, "s", Merge::sum,
                "summed over reads: arrival to their first DRAM command"),
        counter("read_service_s", &DramStats::read_service, "s", Merge::sum,
                "summed over reads: first DRAM command to their last data"));
  }
};

/// A row access: `bursts` column commands to `row` of `bank` (bank group x banks + bank).
struct RowAccess {
  std::uint32_t bank = 0;
  std::uint64_t row = 0;
  std::uint64_t bursts = 1;
  bool is_write = false;
  std::uint64_t column = 0;  ///< byte offset in the row of the first burst (write forwarding)
};

enum class RowOutcome : std::uint8_t { hit, miss, conflict };

struct RowAccessTiming {
  RowOutcome outcome = RowOutcome::hit;
  Time first_command;  ///< PRE (conflict), ACT (miss) or first column command (hit)
  Time activation;     ///< ACT (miss or conflict; unset for a hit)
  Time first_column;   ///< first column command
  Time last_column;    ///< last column command
  Time data_done;      ///< last data beat on the bus (read data out, or write data in)
  Time bus_start;      ///< the access's reservation of the data bus: bus_time(bursts) from here
  /// fr_fcfs: a posted write (queued; its DRAM timing is decided when its batch drains) or a read
  /// served from a queued write. Then only `accepted` is meaningful.
  bool queued = false;
  /// fr_fcfs: a write whose bursts a queued write already holds (merged into it: no bus time).
  bool merged = false;
  Time accepted;  ///< when the controller took the access (later than its arrival when full)
};

/// The reads a controller's queue holds (reads that have not left it: DramController::
/// read_release): the times they leave as a min-heap, and the entries they take in all, which the
/// depth counts. One a pseudo-channel, or one a channel its pseudo-channels share.
struct ReadQueue {
  struct Entry {
    Time first_column;      // when these entries leave the queue
    std::uint64_t entries;  // of the queue's depth: 1, or the access's transactions
    bool operator>(const Entry& other) const { return first_column > other.first_column; }
  };
  std::vector<Entry> heap;
  std::uint64_t entries = 0;
};

class DramChannel {
 public:
  explicit DramChannel(const DramChannelParams& params);

  /// Serves a row access arriving at `now`; accesses must arrive in time order.
  RowAccessTiming access(Time now, const RowAccess& access);
  /// fr_fcfs: writes still queued (not yet drained).
  std::size_t queued_writes() const { return write_queue_.size(); }
  /// The end of the run: nothing more to read, so the controller drains every queued write, as
  /// it would once its reads ran out. Returns when the last data of any access was on the bus.
  Time finish();

  /// A posted write when its batch drained it: what it asked for, when it arrived, its timing.
  struct Drained {
    RowAccess access;
    Time arrival;
    RowAccessTiming timing;
  };
  /// fr_fcfs: keep each drained write for the caller to take (for traces); off by default.
  void keep_drained(bool keep) { keep_drained_ = keep; }
  /// The writes drained since the last call; the caller empties it.
  std::vector<Drained>& drained() { return drained_; }
  /// fr_fcfs: count this pseudo-channel's queued reads in `reads` (a min-heap of first-column
  /// times another pseudo-channel of the channel shares) against the depth; null: its own.
  void share_read_queue(ReadQueue* reads) { shared_reads_ = reads; }

  const DramStats& stats() const { return stats_; }
  const DramChannelParams& params() const { return params_; }
  /// Time for `bursts` bursts on the data bus: max(bursts x tCCD_S, their transfer time).
  Time bus_time(std::uint64_t bursts) const {
    return bursts < kBusTimes ? bus_times_[bursts] : bus_time_of(bursts);
  }
  bool row_open(std::uint32_t bank, std::uint64_t row) const {
    return banks_[bank].open && banks_[bank].row == row;
  }
  Time next_refresh() const { return next_refresh_; }

 private:
  struct Bank {
    bool open = false;
    std::uint64_t row = 0;
    Time act_ready;    // earliest ACT (after tRP or a refresh)
    Time pre_ready;    // earliest PRE (tRAS, tRTP, tWR)
    Time read_ready;   // earliest READ (tRCD_RD)
    Time write_ready;  // earliest WRITE (tRCD_WR)
    // fr_fcfs: the row a scheduled conflict closes, open until `previous_close` (its PRE).
    bool previous_open = false;
    std::uint64_t previous_row = 0;
    Time previous_read_ready;
    Time previous_close;
  };
  // A resource reserved in time: everything up to `free`, less a few gaps an access that had to
  // wait left behind (fr_fcfs fills them; fcfs never records any). Each reservation carries a tag
  // (the data bus: its stack ID), and a reservation next to one of another tag keeps `turn` away
  // from it (tCCD_R - tCCD_S on the bus; 0 where tags do not matter).
  struct Timeline {
    struct Gap {
      Time start, end;
      std::uint8_t before = 0, after = 0;  // the tags of the reservations around it
    };
    static constexpr std::size_t kGaps = 6;
    Time free;
    std::uint8_t free_tag = 0;  // the tag of the reservation that ends at `free`
    bool used = false;          // anything reserved yet (the first needs no turn)
    std::array<Gap, kGaps> gaps{};
    std::uint32_t count = 0;
    /// The earliest start at or after `earliest` with `length` free (in a gap or at the end) for a
    /// reservation tagged `tag`.
    Time find(Time earliest, Time length, std::uint8_t tag = 0, Time turn = {}) const;
    /// Whether [start, end) is free for a reservation tagged `tag`.
    bool fits(Time start, Time end, std::uint8_t tag = 0, Time turn = {}) const;
    void take(Time start, Time end, bool keep_gaps, std::uint8_t tag = 0);
    void add_gap(Gap gap);
  };
  struct Group {
    Time act_ready;         // tRRD_L after the group's last ACT
    Timeline column;        // the group's column path: tCCD_L a burst
    Time read_after_write;  // tWTR_L after the group's last write data
  };
  struct QueuedWrite {
    RowAccess access;
    Time arrival;
    std::uint32_t passed = 0;  // younger writes drained before it
  };

  Time bus_time_of(std::uint64_t bursts) const;
  void refresh_until(Time t);
  void refresh_banks_until(Time t);
  /// When `bank` can start a refresh due at `due`, counting its precharge if a row is open.
  Time ready_to_refresh(const Bank& bank, Time due);
  Time activate(Time now, Time bank_ready, std::uint32_t group);
  RowAccessTiming serve(Time now, const RowAccess& access, bool reorder);
  bool try_row_hit_first(Time now, const RowAccess& a, RowAccessTiming& result);
  void place_columns(Time first, const RowAccess& a, bool reorder, RowAccessTiming& result);
  void finish_columns(const RowAccess& a, RowAccessTiming& result);
  void close_idle_row(Time now, std::uint32_t bank);
  RowAccessTiming read(Time now, const RowAccess& a);
  RowAccessTiming write(Time now, const RowAccess& a);
  void catch_up(Time now);
  void drain(Time start, std::size_t down_to);
  void begin_batch();
  RowAccessTiming drain_one(Time start);
  void end_batch();
  std::size_t pick_write();
  bool covered_by_queued_write(const RowAccess& a) const;
  void sample_queues(Time now);
  std::uint64_t pending_reads(Time now);   // queue entries
  std::uint64_t pending_writes(Time now);  // queue entries
  /// The entries of a queue `a` takes: one a request's row access, or one a transaction.
  std::uint64_t entries(const RowAccess& a) const {
    return params_.controller.queue_unit == QueueUnit::transaction ? a.bursts : 1;
  }
  void count_read(const RowAccessTiming& t);

  DramChannelParams params_;
  Time burst_time_;  // one burst's transfer
  Time stack_turn_;  // tCCD_R - tCCD_S: what a change of stack ID adds on the bus (or 0)
  std::uint8_t stack_of(std::uint32_t bank) const {
    return static_cast<std::uint8_t>(bank / params_.banks_per_group % params_.stack_ids);
  }
  // bus_time(n) for the bursts a row access usually has (a row of up to 64 bursts), worked out
  // once: the transfer time of a share of the bandwidth is a 128-bit division.
  static constexpr std::uint64_t kBusTimes = 65;
  std::array<Time, kBusTimes> bus_times_{};
  std::vector<Bank> banks_;
  std::vector<Group> groups_;
  Time act_ready_;  // tRRD_S after the last ACT
  Time faw_[4];     // the last four ACTs, oldest at faw_next_
  std::uint32_t faw_next_ = 0;
  std::uint32_t activations_seen_ = 0;  // up to 4: how many of faw_ are real
  Timeline bus_;                        // the data bus: one burst per max(tCCD_S, burst time)
  Time write_ready_;                    // tRTW after the last READ
  Time read_after_write_;               // tWTR_S after the last write data
  bool last_was_write_ = false;
  bool any_access_ = false;
  Time horizon_;    // the latest command scheduled so far
  Time last_data_;  // the latest data of any access on the bus
  bool keep_drained_ = false;
  std::vector<Drained> drained_;  // kept for the caller's traces
  Time next_refresh_;
  std::uint32_t next_refresh_bank_ = 0;  // per-bank refresh: whose turn is next
  DramStats stats_;
  bool reorder_;                          // fr_fcfs
  std::vector<QueuedWrite> write_queue_;  // fr_fcfs: posted writes not yet drained
  struct Issue {  // when a drained write's first column issues, and its queue entries
    Time first_column;
    std::uint64_t entries;
  };
  std::vector<Issue> drained_columns_;      // drained writes, in time order
  std::size_t drained_head_ = 0;            // ... of which those before this have issued
  std::uint64_t drained_entries_ = 0;       // entries of those not yet issued
  std::uint64_t queued_write_entries_ = 0;  // entries of write_queue_
  ReadQueue read_columns_;                  // reads not yet issued
  ReadQueue* shared_reads_ = nullptr;       // the channel's, when its pseudo-channels share
  ReadQueue& reads() { return shared_reads_ ? *shared_reads_ : read_columns_; }
  Time read_tail_;                  // the last column of the reads scheduled so far
  Time batch_end_;                  // the last write column of the latest drain
  std::uint64_t batch_length_ = 0;  // row accesses of the drain in progress
};

}  // namespace ridgeline
