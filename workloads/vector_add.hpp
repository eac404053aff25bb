// C[i] = A[i] + B[i] over `length` elements: one FLOP and three element transfers per element.
//
// Each thread block handles `block_elements` consecutive elements, `chunk_elements` at a time:
// load A and B chunks into registers, add, store the C chunk. `stages` chunks may be loading at
// once (software pipelining); the last block takes whatever is left. The block's `threads` share
// each chunk evenly; its operands live in their registers.
#pragma once

#include <cstdint>
#include <string>

#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/analysis.hpp"

namespace ridgeline {

struct VectorAddSpec {
  std::uint64_t length = 0;          ///< elements
  DataType dtype = DataType::fp32;   ///< A, B and C
  std::uint64_t block_elements = 0;  ///< elements per thread block
  std::uint64_t chunk_elements = 0;  ///< elements per load
  std::uint32_t stages = 2;          ///< chunks in flight per block
  std::uint64_t threads = 256;       ///< threads per block
};

std::string describe(const VectorAddSpec& spec);
Analysis analyze(const VectorAddSpec& spec, const Roof& roof, const KernelTarget& target = {});
Footprint footprint(const VectorAddSpec& spec, const KernelTarget& target = {});
Kernel build_kernel(const VectorAddSpec& spec, const KernelTarget& target = {});

}  // namespace ridgeline
