// Where a workload's tensors live in the HBM address space.
#pragma once

#include <cstdint>
#include <vector>

namespace ridgeline {

/// Tensors start on this boundary, as an allocator would place them.
inline constexpr std::uint64_t kTensorAlignmentBytes = 1 << 20;

inline constexpr std::uint64_t align_up(std::uint64_t bytes, std::uint64_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

/// Tensors of `bytes` each, one after the other from address 0, each aligned: their addresses.
inline std::vector<std::uint64_t> one_after_another(const std::vector<std::uint64_t>& bytes) {
  std::vector<std::uint64_t> addresses;
  std::uint64_t next = 0;
  for (std::uint64_t size : bytes) {
    addresses.push_back(next);
    next += align_up(size, kTensorAlignmentBytes);
  }
  return addresses;
}

struct MatrixLayout {
  std::uint64_t a = 0;  ///< byte address of A (or the first input)
  std::uint64_t b = 0;  ///< of B (or the second input)
  std::uint64_t c = 0;  ///< of C (the output)
};

/// A, B, C of a GEMM one after the other, each row-major and aligned.
inline MatrixLayout gemm_layout(std::uint64_t m, std::uint64_t n, std::uint64_t k,
                                std::uint64_t element_bytes) {
  MatrixLayout layout;
  layout.b = align_up(m * k * element_bytes, kTensorAlignmentBytes);
  layout.c = layout.b + align_up(k * n * element_bytes, kTensorAlignmentBytes);
  return layout;
}

/// Three vectors of `length` elements one after the other.
inline MatrixLayout vector_layout(std::uint64_t length, std::uint64_t element_bytes) {
  const std::uint64_t size = align_up(length * element_bytes, kTensorAlignmentBytes);
  return MatrixLayout{0, size, 2 * size};
}

}  // namespace ridgeline
