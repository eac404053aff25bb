// The compute unit of one core: a FLOP rate per data type, an issue rate and a pipeline latency.
//
// Ops are served first come first served: an op of F FLOPs occupies the unit for ceil(F / rate)
// cycles, longer if its operands arrive from SRAM more slowly or if its warp instructions take
// longer to issue (a GPU's SM issues one warp instruction a cycle per warp scheduler; where its
// lanes' multiply-adds need every issue slot, as an H100's FP32 FFMAs do, each shared-memory load
// takes one from them). Its result is ready `pipeline_latency` cycles after that. Back-to-back ops
// overlap their pipeline latency.
#pragma once

#include <array>
#include <cstdint>

#include "models/data_type.hpp"
#include "models/stat_fields.hpp"
#include "models/units.hpp"

namespace ridgeline {

struct ComputeUnitParams {
  /// FLOPs per cycle for each data type; 0 where the unit cannot execute that type.
  std::array<std::uint64_t, kDataTypeCount> flops_per_cycle{};
  Cycles pipeline_latency;  ///< from the last issue to the result
  /// Warp instructions the core issues a cycle, all its schedulers together; 0: issue is not
  /// modelled (an op takes its FLOPs' time whatever instructions it counts).
  std::uint32_t warp_instructions_per_cycle = 0;
};

struct ComputeUnitStats : StatFields<ComputeUnitStats> {
  std::uint64_t flops = 0;  ///< FLOPs executed
  std::uint64_t ops = 0;    ///< compute ops executed
  std::uint64_t warp_instructions = 0;  ///< warp instructions the ops issued (where they count)
  Time busy;                ///< time the unit was occupied
  Time operand_limited;     ///< part of `busy` stretched by SRAM read bandwidth
  Time issue_limited;       ///< part of `busy` stretched by the issue of warp instructions

  static constexpr auto fields() {
    return std::make_tuple(
        counter("flops", &ComputeUnitStats::flops, "FLOP", Merge::sum,
                "floating-point operations executed"),
        counter("ops", &ComputeUnitStats::ops, "ops", Merge::sum, "compute ops executed"),
        counter("warp_instructions", &ComputeUnitStats::warp_instructions, "instructions",
                Merge::sum,
                "warp instructions the compute ops issued, where the workload counts them"),
        counter("busy_s", &ComputeUnitStats::busy, "s", Merge::sum,
                "time the compute unit was occupied"),
        counter("operand_limited_s", &ComputeUnitStats::operand_limited, "s", Merge::sum,
                "part of busy time stretched by SRAM read bandwidth"),
        counter("issue_limited_s", &ComputeUnitStats::issue_limited, "s", Merge::sum,
                "part of busy time stretched by the issue of warp instructions"));
  }
};

class ComputeUnitTiming {
 public:
  ComputeUnitTiming(const ComputeUnitParams& params, Clock clock);

  bool supports(DataType type) const { return params_.flops_per_cycle[index_of(type)] > 0; }
  /// Time `flops` FLOPs of `type` take at the unit's rate.
  Time execution_time(std::uint64_t flops, DataType type) const;
  Time free() const { return free_; }
  Time pipeline_latency() const { return clock_.duration(params_.pipeline_latency); }
  /// Time `warp_instructions` take to issue; zero where issue is not modelled.
  Time issue_time(std::uint64_t warp_instructions) const;

  struct Slot {
    Time start;  ///< the op starts executing
    Time end;    ///< the unit is free again
  };
  /// Runs `flops` FLOPs of `type` in `warp_instructions` (0: not counted) starting no earlier
  /// than `earliest`, for at least `operand_time` (the time its operands take to arrive) and the
  /// time its instructions take to issue.
  Slot execute(Time earliest, std::uint64_t flops, DataType type, Time operand_time,
               std::uint64_t warp_instructions = 0);

  const ComputeUnitParams& params() const { return params_; }
  const ComputeUnitStats& stats() const { return stats_; }

 private:
  ComputeUnitParams params_;
  Clock clock_;
  ComputeUnitStats stats_;
  Time free_;
};

}  // namespace ridgeline
