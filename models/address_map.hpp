// Where a byte address lives in a stack of DRAM: channel, pseudo-channel, bank group, bank, row
// and column, by a bit-order mapping.
//
// The lowest log2(interleave) address bits are the low part of the column: that many consecutive
// bytes stay in one row of one bank of one pseudo-channel. Above them come the six fields in the
// order the mapping gives (most significant first), each as many bits as its count needs: channel
// (ch), pseudo-channel (pc), bank group (bg), bank within the group (ba), row (ro) and the rest of
// the column (co, row_bytes / interleave values). "ro-ba-bg-co-pc-ch" puts the channel right above
// the interleave granule, so consecutive granules rotate over channels, then pseudo-channels, then
// fill a row; "ch-pc-ro-ba-bg-co" gives each channel one contiguous slice of memory instead.
//
// Every count is a power of two except, possibly, the rows when the row field is the most
// significant one (a 24 GB stack has 24576 rows a bank). The capacity is the product of the
// counts; addresses beyond it wrap around.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline {

enum class AddressField : std::uint8_t { channel, pseudo_channel, bank_group, bank, row, column };
inline constexpr std::size_t kAddressFields = 6;

/// "ch", "pc", "bg", "ba", "ro", "co": the names bit-order strings use.
std::string_view short_name(AddressField field);
std::optional<AddressField> address_field_named(std::string_view name);

/// A named mapping and its fields, most significant first.
struct NamedAddressMapping {
  std::string_view name;
  std::array<AddressField, kAddressFields> order;
  std::string_view meaning;
};
/// channel_interleave (the default), bank_group_interleave, channel_contiguous.
const std::vector<NamedAddressMapping>& named_address_mappings();

struct AddressGeometry {
  std::uint32_t channels = 1;
  std::uint32_t pseudo_channels = 1;  ///< per channel
  std::uint32_t bank_groups = 1;      ///< per pseudo-channel
  std::uint32_t banks_per_group = 1;
  std::uint64_t rows = 1;                 ///< per bank
  std::uint64_t row_bytes = 1024;         ///< page size of one pseudo-channel
  std::uint64_t interleave_bytes = 1024;  ///< low column bytes kept together, <= row_bytes

  std::uint32_t units() const { return channels * pseudo_channels; }
  std::uint32_t banks() const { return bank_groups * banks_per_group; }
  std::uint64_t capacity_bytes() const {
    return std::uint64_t{units()} * banks() * rows * row_bytes;
  }
};

/// One address, decoded.
struct DramAddress {
  std::uint32_t channel = 0;
  std::uint32_t pseudo_channel = 0;
  std::uint32_t bank_group = 0;
  std::uint32_t bank = 0;  ///< within its bank group
  std::uint64_t row = 0;
  std::uint64_t column_byte = 0;  ///< byte offset within the row
};

/// Bytes of a range that fall into one row of one bank of one pseudo-channel.
struct RowPiece {
  std::uint32_t unit;  ///< channel x pseudo_channels + pseudo-channel
  std::uint32_t bank;  ///< bank_group x banks_per_group + bank
  std::uint64_t row;
  std::uint64_t bytes;
};

class AddressMap {
 public:
  /// `order`: the six fields, most significant first. The caller has checked the rules above
  /// (check_address_map says what is wrong).
  AddressMap(const AddressGeometry& geometry,
             const std::array<AddressField, kAddressFields>& order);

  const AddressGeometry& geometry() const { return geometry_; }
  DramAddress decode(std::uint64_t address) const;
  std::uint64_t encode(const DramAddress& location) const;
  std::uint32_t unit_of(const DramAddress& a) const {
    return a.channel * geometry_.pseudo_channels + a.pseudo_channel;
  }

  /// Appends the pieces of [base, base + length), one per (unit, bank, row) run, in address order
  /// of their first byte; a piece that continues the row of the one before (this call's or the
  /// previous one's) is added to it; a row met again after others gets a second piece. Cost: one
  /// piece per row touched, computed by aligned blocks (never per byte or per burst).
  void split(std::uint64_t base, std::uint64_t length, std::vector<RowPiece>& out) const;

 private:
  struct FieldBits {
    std::uint32_t shift = 0;
    std::uint32_t width = 0;  // bits; the top field may take the rest (see count)
    std::uint64_t count = 1;  // values; power of two unless the field is the top one
  };
  void emit_block(std::uint64_t base, std::uint32_t log2_bytes, std::vector<RowPiece>& out) const;
  std::uint64_t field(std::uint64_t address, AddressField f) const {
    const FieldBits& b = bits_[static_cast<std::size_t>(f)];
    return b.shift >= 64 ? 0 : (address >> b.shift) % b.count;
  }

  AddressGeometry geometry_;
  std::array<FieldBits, kAddressFields> bits_{};
  std::uint32_t granule_log2_ = 0;
  std::uint64_t row_select_mask_ = 0;  // address bits that select (unit, bank, row)
};

/// Why a geometry and order cannot be mapped, or nothing: each field once, counts powers of two
/// (rows may be any count when the row field is the most significant), interleave a power of two
/// dividing row_bytes.
std::optional<std::string> check_address_map(const AddressGeometry& geometry,
                                             const std::array<AddressField, kAddressFields>& order);

}  // namespace ridgeline
