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
// A field may be given in parts ("co:2" is two bits of the column; the lower parts hold its lower
// bits), and folds XOR a field with bits of another (bank and channel hashing). Every count is a
// power of two except, possibly, the rows when the whole row field is the most significant one (a
// 24 GB stack has 24576 rows a bank), and the channels and pseudo-channels (a GPU's 5 stacks have
// 40 or 80 channels), each then a digit of the granule index (address / interleave): the part of
// the index below it modulo its count, the rest divided by it, given whole and never folded. The
// capacity is the product of the counts; addresses beyond it wrap around.
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

/// Which address bits select what, above the interleave granule: `parts`, most significant first,
/// each a field or a part of one (`bits` of it, the lower parts holding its lower bits; 0: the
/// whole field), then `folds`: a target field's bits XORed with bits of a source field's value
/// (from bit `offset` of it), as DRAM simulators hash banks and channels.
/// A fold's offset that continues where the previous fold from the same source stopped.
inline constexpr std::uint32_t kFollowingBits = ~std::uint32_t{0};

struct AddressMapping {
  struct Part {
    AddressField field;
    std::uint32_t bits = 0;  ///< 0: all of the field's bits
  };
  struct Fold {
    AddressField target;
    AddressField source;
    std::uint32_t offset = kFollowingBits;
  };
  std::vector<Part> parts;
  std::vector<Fold> folds;

  AddressMapping() = default;
  /// The six whole fields, most significant first.
  AddressMapping(const std::array<AddressField, kAddressFields>& order);  // NOLINT: implicit
  bool operator==(const AddressMapping& other) const;
  bool operator!=(const AddressMapping& other) const { return !(*this == other); }
  /// "ro-ba-bg-co-pc-ch", parts with a width as "co:2", folds as " ch^co@0".
  std::string text() const;
};

/// A named mapping.
struct NamedAddressMapping {
  std::string_view name;
  /// The whole bit order; for a `within_channel` mapping, the order of the address within a
  /// channel (every field but `ch`), the channel placed by with_channel_above().
  AddressMapping mapping;
  std::string_view meaning;
  bool per_burst = false;  ///< defined on bursts (transactions): the interleave must be the burst
  /// Ramulator 2.1's split: a channel mapper takes the channel from the bits above the lowest
  /// few of the address, and the mapping orders the address within the channel.
  bool within_channel = false;
};
/// channel_interleave (the default), bank_group_interleave, channel_contiguous, and the mappings
/// of Ramulator 2.1 on HBM3 (ramulator/controller/addr_mapper): RoBaRaCoCh and MOP4CLXOR.
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

/// Ramulator 2.1's CacheLineInterleave channel mapper around a mapping of the address within a
/// channel: the lowest `low_bits` bits above the granule stay the within-channel mapping's lowest,
/// then comes the channel, then the rest of the within-channel mapping (a part cut where the
/// channel goes becomes two). `geometry` gives the fields' widths.
AddressMapping with_channel_above(const AddressMapping& within_channel, std::uint32_t low_bits,
                                  const AddressGeometry& geometry);

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
  std::uint64_t column = 0;  ///< byte offset in the row of the piece's first byte
};

class AddressMap {
 public:
  /// The caller has checked the rules (check_address_map says what is wrong).
  AddressMap(const AddressGeometry& geometry, const AddressMapping& mapping);

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
  struct PartBits {
    AddressField field;
    std::uint32_t shift = 0;         // lowest address bit
    std::uint32_t width = 0;         // address bits (the top part takes the rest, modulo count)
    std::uint32_t field_offset = 0;  // the field bit its lowest address bit gives
    std::uint64_t count = 1;         // values (power of two unless the part is the whole top field)
    // The part's value of an address shifted down: raw % count for a top field whose count is
    // not a power of two (the only division, kept off the common path), else raw & (count - 1).
    bool modulo = false;
  };
  struct FoldBits {
    std::size_t target, source;
    std::uint32_t offset;
    std::uint64_t mask;  // the target's bits
  };
  void emit_block(std::uint64_t base, std::uint32_t log2_bytes, std::vector<RowPiece>& out) const;
  std::array<std::uint64_t, kAddressFields> fields_of(std::uint64_t address) const;

  AddressGeometry geometry_;
  std::vector<PartBits> parts_;  // least significant first
  std::vector<FoldBits> folds_;
  std::uint32_t granule_log2_ = 0;
  std::uint64_t row_select_mask_ = 0;  // address bits that select (unit, bank, row)
  // Every count a power of two (the common case): the map is linear over the address bits (a
  // permutation with XOR folds), so the fields of an address are the XOR of what each of its
  // bytes gives, looked up; the fields packed in one word, field f at bit field_shift_[f].
  bool linear_ = false;
  // A part below the top whose count is not a power of two (the GPUs' 40 or 80 channels): the
  // granule index is taken apart digit by digit (a division each), and split() goes granule by
  // granule.
  bool mixed_radix_ = false;
  std::array<std::uint32_t, kAddressFields> field_shift_{};
  std::array<std::uint64_t, kAddressFields> field_mask_{};
  std::array<std::array<std::uint64_t, 256>, 8> fields_by_byte_{};
  std::uint64_t unit_mask_ = 0;  // the packed unit's bits (pc, then ch), from field_shift_[pc]
  std::uint64_t bank_mask_ = 0;  // the packed bank's bits (ba, then bg), from field_shift_[ba]
  void build_byte_tables(const std::array<std::uint32_t, kAddressFields>& field_bits);
  std::uint64_t packed_fields(std::uint64_t address) const;  // linear_ only
  /// The piece of `bytes` from `address`: its unit, bank, row and column.
  RowPiece piece_at(std::uint64_t address, std::uint64_t bytes) const;
};

/// Why a geometry and mapping cannot be mapped, or nothing: every bit of every field given once
/// (the bits left unused or given twice are named), counts powers of two (rows may be any count
/// when the whole row field is the most significant), interleave a power of two dividing
/// row_bytes, folds neither into the column nor from a field that is itself folded into.
std::optional<std::string> check_address_map(const AddressGeometry& geometry,
                                             const AddressMapping& mapping);

}  // namespace ridgeline
