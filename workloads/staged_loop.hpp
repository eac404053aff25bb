// The shape every streamed kernel's block program shares: step by step, loads feed one compute;
// loads leave in order from one queue, computes run in order, and with `stages` buffers the
// loads of step k overwrite the buffer that compute k - stages read (a buffer-reuse edge), so one
// stage serialises loading and computing and more let later loads run under earlier computes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "models/program.hpp"

namespace ridgeline {

class StagedLoop {
 public:
  StagedLoop(ProgramBuilder& builder, std::uint32_t stages) : builder_(builder), stages_(stages) {}

  /// Adds one step: `loads` in issue order, all feeding `compute`. Returns the compute's id.
  std::uint32_t add_step(std::initializer_list<Op> loads, const Op& compute) {
    const std::size_t step = computes_.size();
    std::vector<std::uint32_t> added;
    for (const Op& load : loads) {
      const std::uint32_t l = builder_.add(load);
      if (has_load_) builder_.depend(last_load_, l, EdgeKind::issue_order);
      if (step >= stages_) builder_.depend(computes_[step - stages_], l, EdgeKind::buffer_reuse);
      last_load_ = l;
      has_load_ = true;
      added.push_back(l);
    }
    const std::uint32_t c = builder_.add(compute);
    for (std::uint32_t l : added) builder_.depend(l, c, EdgeKind::data);
    if (!computes_.empty()) builder_.depend(computes_.back(), c, EdgeKind::issue_order);
    computes_.push_back(c);
    return c;
  }

  std::uint32_t last_compute() const { return computes_.back(); }

 private:
  ProgramBuilder& builder_;
  std::uint32_t stages_;
  std::vector<std::uint32_t> computes_;
  std::uint32_t last_load_ = 0;
  bool has_load_ = false;
};

}  // namespace ridgeline
