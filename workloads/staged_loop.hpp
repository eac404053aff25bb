// The shape every streamed kernel's block program shares: step by step, loads feed one compute;
// loads leave in order from one queue, computes run in order, and with `stages` buffers the
// loads of step k overwrite the buffer that compute k - stages read (a buffer-reuse edge), so one
// stage serialises loading and computing and more let later loads run under earlier computes.
//
// Two optional additions, both off by default (and then the program is exactly the above):
//
// Barriers (shared-memory buffers that all of a block's threads fill and read). Every barrier is
// a point in the block's instruction stream: it starts once the block's previous compute (or
// barrier) has finished, and lasts `barrier` cycles, during which the block computes nothing.
// - An arrival barrier before each compute: its loads have landed, and every thread is past the
//   previous step (__syncthreads() after the tile loads).
// - Before a buffer is overwritten: with two or more stages, the arrival barrier of step
//   k - stages + 1 already follows compute k - stages, so the loads of step k wait for it; with
//   one stage a release barrier after each compute (the second __syncthreads() of the classic
//   loop) comes before the next step's loads.
//
// Spilled registers (CUDA local memory): each step after the first reloads the block's spilled
// registers before its compute and each step but the last writes them back after it, as loads and
// stores of a local tensor that travel through the memory hierarchy like any other. The reload
// leaves the queue after the write-back it reads (an issue-order edge: the queue is in order).
//
// An op may also follow a step's compute in the chain (add_after_compute: an FP8 kernel's
// promotion of its partial sums); the next compute, barrier and spill write-back come after it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "models/program.hpp"

namespace ridgeline {

/// Registers a block keeps in local memory across the steps of its loop.
struct LocalSpill {
  std::uint8_t tensor = 0;  ///< the program's tensor for local memory
  AddressPattern region;    ///< the block's spilled registers
};

/// Spilled registers of `bytes` a block, each block's one after the other from `base` (block
/// (r, c) at (r x grid_cols + c) x bytes): local memory is per thread.
inline LocalSpill spill_per_block(std::uint8_t tensor, std::uint64_t base, std::uint64_t bytes,
                                  std::uint64_t grid_cols) {
  LocalSpill spill{tensor, {}};
  spill.region.region_of_block0 = Region::contiguous(base, bytes);
  spill.region.block_row_bytes = grid_cols * bytes;
  spill.region.block_col_bytes = bytes;
  return spill;
}

struct StagedLoopShape {
  std::uint32_t stages = 1;         ///< buffers of loaded operands
  Cycles barrier;                   ///< cost of each barrier; 0: no barriers
  std::optional<LocalSpill> spill;  ///< registers kept in local memory, if any
};

class StagedLoop {
 public:
  StagedLoop(ProgramBuilder& builder, std::uint32_t stages)
      : StagedLoop(builder, {stages, {}, {}}) {}
  StagedLoop(ProgramBuilder& builder, const StagedLoopShape& shape)
      : builder_(builder), shape_(shape) {}

  /// Adds one step: `loads` in issue order, all feeding `compute`. Returns the compute's id.
  std::uint32_t add_step(std::initializer_list<Op> loads, const Op& compute) {
    return add_loads_and_compute(loads, compute);
  }
  /// The same, for a step whose loads are counted when the program is built.
  std::uint32_t add_step(const std::vector<Op>& loads, const Op& compute) {
    return add_loads_and_compute(loads, compute);
  }

  /// Adds `op` to the block's instruction stream after the last step's compute, reading its
  /// result (an FP8 kernel's promotion of its partial sums): the next compute follows it.
  std::uint32_t add_after_compute(const Op& op) {
    const std::uint32_t added = builder_.add(op);
    builder_.depend(chain_tail_, added, EdgeKind::data);
    chain_tail_ = added;
    if (stream_tail_ == computes_.back()) stream_tail_ = added;
    return added;
  }
  /// The last op of the compute chain: the last step's compute, or what followed it.
  std::uint32_t last_compute() const { return chain_tail_; }

 private:
  template <class Loads>
  std::uint32_t add_loads_and_compute(const Loads& loads, const Op& compute) {
    const std::size_t step = computes_.size();
    const auto label = static_cast<std::uint32_t>(step);
    const bool barriers = shape_.barrier.count > 0;
    if (step > 0) close_previous_step(label - 1);

    std::vector<std::uint32_t> added;
    for (const Op& load : loads) {
      const std::uint32_t l = builder_.add(load);
      if (has_load_) builder_.depend(last_load_, l, EdgeKind::issue_order);
      if (step >= shape_.stages) builder_.depend(buffer_free(step), l, EdgeKind::buffer_reuse);
      last_load_ = l;
      has_load_ = true;
      added.push_back(l);
    }
    std::vector<std::uint32_t> feeds = added;  // what the compute waits for
    if (barriers) {
      const std::uint32_t arrival = builder_.add(Op::barrier(label, shape_.barrier));
      for (std::uint32_t l : added) builder_.depend(l, arrival, EdgeKind::data);
      if (step > 0) builder_.depend(stream_tail_, arrival, EdgeKind::data);
      arrivals_.push_back(arrival);
      feeds = {arrival};
    }
    if (shape_.spill && step > 0) {
      const std::uint32_t reload =
          builder_.add(Op::load(shape_.spill->tensor, label, shape_.spill->region, 0).as_local());
      builder_.depend(last_spill_store_, reload, EdgeKind::issue_order);
      feeds.push_back(reload);
    }
    const std::uint32_t c = builder_.add(compute);
    for (std::uint32_t f : feeds) builder_.depend(f, c, EdgeKind::data);
    if (!computes_.empty()) builder_.depend(chain_tail_, c, EdgeKind::issue_order);
    computes_.push_back(c);
    chain_tail_ = c;
    stream_tail_ = c;
    return c;
  }

  // What step `previous` leaves behind once another step follows: its spill write-back and,
  // with one stage, the release barrier before the next loads overwrite its buffer.
  void close_previous_step(std::uint32_t previous) {
    const std::uint32_t compute = chain_tail_;
    if (shape_.spill) {
      last_spill_store_ =
          builder_.add(Op::store(shape_.spill->tensor, previous, shape_.spill->region).as_local());
      builder_.depend(compute, last_spill_store_, EdgeKind::data);
    }
    if (shape_.barrier.count > 0 && shape_.stages == 1) {
      release_ = builder_.add(Op::barrier(previous, shape_.barrier));
      builder_.depend(compute, release_, EdgeKind::data);
      stream_tail_ = release_;
    }
  }

  // The op after which the buffer step `step` loads into is no longer read.
  std::uint32_t buffer_free(std::size_t step) const {
    if (shape_.barrier.count == 0) return computes_[step - shape_.stages];
    return shape_.stages == 1 ? release_ : arrivals_[step - shape_.stages + 1];
  }

  ProgramBuilder& builder_;
  StagedLoopShape shape_;
  std::vector<std::uint32_t> computes_;
  std::vector<std::uint32_t> arrivals_;
  std::uint32_t release_ = 0;           // the last release barrier (one stage)
  std::uint32_t stream_tail_ = 0;       // the last op of the block's instruction stream
  std::uint32_t chain_tail_ = 0;        // the last op of the compute chain
  std::uint32_t last_spill_store_ = 0;  // the last spill write-back
  std::uint32_t last_load_ = 0;
  bool has_load_ = false;
};

}  // namespace ridgeline
