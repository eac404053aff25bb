// The tensors a workload reads and writes, as a graph of kernels will connect them: each with
// its name, role, shape, data type and where it lies in the address space. Plain C++.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/data_type.hpp"

namespace ridgeline {

/// Dimensions, outermost first (row-major: the last varies fastest).
struct TensorShape {
  std::vector<std::uint64_t> dims;

  std::uint64_t elements() const {
    std::uint64_t n = 1;
    for (std::uint64_t d : dims) n *= d;
    return n;
  }
  /// "[4096, 1024]".
  std::string text() const { return fmt::format("[{}]", fmt::join(dims, ", ")); }
  bool operator==(const TensorShape& other) const { return dims == other.dims; }
};

enum class TensorRole { input, output, workspace };

struct TensorRef {
  std::string name;  ///< "A", "x", "bias": the kind's own name for it
  TensorRole role = TensorRole::input;
  TensorShape shape;
  DataType dtype = DataType::fp32;
  std::uint64_t address = 0;  ///< byte address of its first element

  std::uint64_t bytes() const { return shape.elements() * element_bytes(dtype); }
};

}  // namespace ridgeline
