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
#pragma once

#include <cstdint>
#include <vector>

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
  Time tCCD_S;   ///< column to column, different bank groups
  Time tCCD_L;   ///< column to column, same bank group
  Time tRRD_S;   ///< ACT to ACT, different bank groups
  Time tRRD_L;   ///< ACT to ACT, same bank group
  Time tFAW;     ///< window holding at most four ACTs
  Time tWR;      ///< end of write data to PRE, same bank
  Time tRTP;     ///< READ to PRE, same bank
  Time tWTR_S;   ///< end of write data to READ, different bank groups
  Time tWTR_L;   ///< end of write data to READ, same bank group
  Time tRTW;     ///< READ to WRITE
  Time tREFI;    ///< refresh interval
  Time tRFC;     ///< refresh cycle: all banks busy
};

struct DramChannelParams {
  std::uint32_t bank_groups = 1;
  std::uint32_t banks_per_group = 1;
  std::uint64_t burst_bytes = 32;  ///< bytes one column command moves
  TransferRate data_rate;          ///< this pseudo-channel's share of the peak bandwidth
  DramTimings timing;
  bool refresh = true;
  Time first_refresh;  ///< when the first refresh falls due (staggers pseudo-channels)
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
  Time refresh_busy;  ///< time spent refreshing (tRFC each)
  Time bus_busy;      ///< data bus time of all bursts
  std::uint64_t bus_bytes = 0;  ///< whole bursts: what the bus carried, not what was asked

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
                "bytes the data bus carried: whole bursts (requests are rounded out to them)"));
  }
};

/// A row access: `bursts` column commands to `row` of `bank` (bank group x banks + bank).
struct RowAccess {
  std::uint32_t bank = 0;
  std::uint64_t row = 0;
  std::uint64_t bursts = 1;
  bool is_write = false;
};

enum class RowOutcome : std::uint8_t { hit, miss, conflict };

struct RowAccessTiming {
  RowOutcome outcome = RowOutcome::hit;
  Time first_command;  ///< PRE (conflict), ACT (miss) or first column command (hit)
  Time first_column;   ///< first column command
  Time last_column;    ///< last column command
  Time data_done;      ///< last data beat on the bus (read data out, or write data in)
  Time bus_start;      ///< the access's reservation of the data bus: bus_time(bursts) from here
};

class DramChannel {
 public:
  explicit DramChannel(const DramChannelParams& params);

  /// Serves a row access arriving at `now`; accesses must arrive in time order.
  RowAccessTiming access(Time now, const RowAccess& access);

  const DramStats& stats() const { return stats_; }
  const DramChannelParams& params() const { return params_; }
  /// Time for `bursts` bursts on the data bus: max(bursts x tCCD_S, their transfer time).
  Time bus_time(std::uint64_t bursts) const;
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
  };
  struct Group {
    Time act_ready;         // tRRD_L after the group's last ACT
    Time column_ready;      // tCCD_L after the group's last column command
    Time read_after_write;  // tWTR_L after the group's last write data
  };

  void refresh_until(Time t);
  Time activate(Time now, Time bank_ready, std::uint32_t group);

  DramChannelParams params_;
  Time burst_time_;  // one burst's transfer
  std::vector<Bank> banks_;
  std::vector<Group> groups_;
  Time act_ready_;  // tRRD_S after the last ACT
  Time faw_[4];     // the last four ACTs, oldest at faw_next_
  std::uint32_t faw_next_ = 0;
  std::uint32_t activations_seen_ = 0;  // up to 4: how many of faw_ are real
  Time bus_free_;                       // when the data bus has carried every burst queued so far
  Time write_ready_;                    // tRTW after the last READ
  Time read_after_write_;               // tWTR_S after the last write data
  bool last_was_write_ = false;
  bool any_access_ = false;
  Time horizon_;  // the latest command scheduled so far
  Time next_refresh_;
  DramStats stats_;
};

}  // namespace ridgeline
