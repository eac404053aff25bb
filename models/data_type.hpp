// The numeric formats a compute unit can execute and a workload can store.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ridgeline {

// fp64 last: the order is the order messages list the types in, and it came after the others.
enum class DataType : std::uint8_t { fp32, tf32, bf16, fp16, fp8, int8, int32, fp64 };

inline constexpr std::size_t kDataTypeCount = 8;

inline constexpr std::array<DataType, kDataTypeCount> kAllDataTypes = {
    DataType::fp32, DataType::tf32, DataType::bf16,  DataType::fp16,
    DataType::fp8,  DataType::int8, DataType::int32, DataType::fp64};

constexpr std::size_t index_of(DataType type) { return static_cast<std::size_t>(type); }

/// Storage size of one element, bytes. TF32 is stored in FP32's 32-bit container.
constexpr std::uint64_t element_bytes(DataType type) {
  switch (type) {
    case DataType::fp64:
      return 8;
    case DataType::fp32:
    case DataType::tf32:
    case DataType::int32:
      return 4;
    case DataType::bf16:
    case DataType::fp16:
      return 2;
    case DataType::fp8:
    case DataType::int8:
      return 1;
  }
  return 0;
}

constexpr std::string_view name_of(DataType type) {
  switch (type) {
    case DataType::fp32:
      return "fp32";
    case DataType::tf32:
      return "tf32";
    case DataType::bf16:
      return "bf16";
    case DataType::fp16:
      return "fp16";
    case DataType::fp8:
      return "fp8";
    case DataType::int8:
      return "int8";
    case DataType::int32:
      return "int32";
    case DataType::fp64:
      return "fp64";
  }
  return "?";
}

inline std::optional<DataType> data_type_named(std::string_view name) {
  for (DataType type : kAllDataTypes) {
    if (name_of(type) == name) return type;
  }
  return std::nullopt;
}

/// Whether a matrix product in `type` runs as each lane's own multiply-adds (FFMA, IMAD, DFMA on a
/// GPU's CUDA cores), one a lane per warp instruction, rather than as matrix instructions (the
/// tensor cores' TF32 and narrower types, thousands of FLOPs an instruction).
constexpr bool multiplies_on_lanes(DataType type) {
  return type == DataType::fp32 || type == DataType::int32 || type == DataType::fp64;
}

/// The accumulator format a matrix product in `input` format keeps its partial sums in:
/// FP32 for every floating-point input (as tensor cores do), INT32 for INT8.
constexpr DataType default_accumulator(DataType input) {
  return input == DataType::int8 || input == DataType::int32 ? DataType::int32 : DataType::fp32;
}

}  // namespace ridgeline
