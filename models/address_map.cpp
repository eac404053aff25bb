#include "models/address_map.hpp"

#include <cassert>

namespace ridgeline {

namespace {

constexpr std::array<std::string_view, kAddressFields> kShortNames = {"ch", "pc", "bg",
                                                                      "ba", "ro", "co"};

// Appends a piece, or adds it to the last one when it continues the same row.
void push_piece(std::vector<RowPiece>& out, const RowPiece& piece) {
  if (!out.empty()) {
    RowPiece& last = out.back();
    if (last.unit == piece.unit && last.bank == piece.bank && last.row == piece.row) {
      last.bytes += piece.bytes;
      return;
    }
  }
  out.push_back(piece);
}

bool is_power_of_two(std::uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

std::uint32_t log2_of(std::uint64_t power_of_two) {
  std::uint32_t bits = 0;
  while ((std::uint64_t{1} << bits) < power_of_two) ++bits;
  return bits;
}

// Bits a count of values takes when it is the top field: enough for every value.
std::uint32_t bits_for(std::uint64_t count) { return count <= 1 ? 0 : log2_of(count); }

std::uint64_t count_of(const AddressGeometry& g, AddressField f) {
  switch (f) {
    case AddressField::channel:
      return g.channels;
    case AddressField::pseudo_channel:
      return g.pseudo_channels;
    case AddressField::bank_group:
      return g.bank_groups;
    case AddressField::bank:
      return g.banks_per_group;
    case AddressField::row:
      return g.rows;
    case AddressField::column:
      return g.interleave_bytes ? g.row_bytes / g.interleave_bytes : 0;
  }
  return 0;
}

}  // namespace

std::string_view short_name(AddressField field) {
  return kShortNames[static_cast<std::size_t>(field)];
}

std::optional<AddressField> address_field_named(std::string_view name) {
  for (std::size_t i = 0; i < kAddressFields; ++i) {
    if (kShortNames[i] == name) return static_cast<AddressField>(i);
  }
  return std::nullopt;
}

const std::vector<NamedAddressMapping>& named_address_mappings() {
  using F = AddressField;
  static const std::vector<NamedAddressMapping> mappings = {
      {"channel_interleave",
       {F::row, F::bank, F::bank_group, F::column, F::pseudo_channel, F::channel},
       "ro-ba-bg-co-pc-ch: granules rotate over channels, then pseudo-channels, then fill a row; "
       "the next row goes to the next bank group"},
      {"bank_group_interleave",
       {F::row, F::bank, F::column, F::bank_group, F::pseudo_channel, F::channel},
       "ro-ba-co-bg-pc-ch: granules rotate over channels, pseudo-channels, then bank groups, so "
       "a stream alternates bank groups on every pseudo-channel (tCCD_S, not tCCD_L, apart)"},
      {"channel_contiguous",
       {F::channel, F::pseudo_channel, F::row, F::bank, F::bank_group, F::column},
       "ch-pc-ro-ba-bg-co: each pseudo-channel holds one contiguous slice of memory; a stream "
       "stays on one pseudo-channel"},
  };
  return mappings;
}

std::optional<std::string> check_address_map(
    const AddressGeometry& geometry, const std::array<AddressField, kAddressFields>& order) {
  std::array<int, kAddressFields> seen{};
  for (AddressField f : order) ++seen[static_cast<std::size_t>(f)];
  for (std::size_t i = 0; i < kAddressFields; ++i) {
    if (seen[i] != 1) {
      return "the mapping must name each of ch, pc, bg, ba, ro, co exactly once ('" +
             std::string(kShortNames[i]) + "' appears " + std::to_string(seen[i]) + " times)";
    }
  }
  if (!is_power_of_two(geometry.interleave_bytes)) return "the interleave must be a power of two";
  if (!is_power_of_two(geometry.row_bytes)) return "the row size must be a power of two";
  if (geometry.interleave_bytes > geometry.row_bytes) {
    return "the interleave must not exceed the row size (a granule lies in one row)";
  }
  const std::pair<const char*, std::uint64_t> counts[] = {
      {"channels", geometry.channels},
      {"pseudo-channels", geometry.pseudo_channels},
      {"bank groups", geometry.bank_groups},
      {"banks per group", geometry.banks_per_group}};
  for (const auto& [name, count] : counts) {
    if (!is_power_of_two(count)) {
      return std::string("the number of ") + name + " must be a power of two to be bit-mapped";
    }
  }
  if (geometry.rows == 0) return "there must be at least one row";
  if (!is_power_of_two(geometry.rows) && order.front() != AddressField::row) {
    return "a row count that is not a power of two needs the row field on top ('ro' first)";
  }
  std::uint32_t bits = log2_of(geometry.interleave_bytes);
  for (AddressField f : order) bits += bits_for(count_of(geometry, f));
  if (bits > 63) return "the capacity must stay below 2^63 bytes";
  return std::nullopt;
}

AddressMap::AddressMap(const AddressGeometry& geometry,
                       const std::array<AddressField, kAddressFields>& order)
    : geometry_(geometry) {
  assert(!check_address_map(geometry, order));
  granule_log2_ = log2_of(geometry.interleave_bytes);
  std::uint32_t shift = granule_log2_;
  for (std::size_t i = kAddressFields; i-- > 0;) {  // least significant first
    const AddressField f = order[i];
    FieldBits& b = bits_[static_cast<std::size_t>(f)];
    b.count = count_of(geometry, f);
    b.width = bits_for(b.count);
    b.shift = shift;
    if (f != AddressField::column && b.count > 1) {
      // The top field takes every bit above it, so that addresses beyond the capacity wrap.
      const std::uint64_t field_mask =
          i == 0 ? ~std::uint64_t{0} : ((std::uint64_t{1} << b.width) - 1);
      row_select_mask_ |= field_mask << shift;
    }
    shift += b.width;
  }
}

DramAddress AddressMap::decode(std::uint64_t address) const {
  DramAddress a;
  a.channel = static_cast<std::uint32_t>(field(address, AddressField::channel));
  a.pseudo_channel = static_cast<std::uint32_t>(field(address, AddressField::pseudo_channel));
  a.bank_group = static_cast<std::uint32_t>(field(address, AddressField::bank_group));
  a.bank = static_cast<std::uint32_t>(field(address, AddressField::bank));
  a.row = field(address, AddressField::row);
  a.column_byte = field(address, AddressField::column) * geometry_.interleave_bytes +
                  (address & (geometry_.interleave_bytes - 1));
  return a;
}

std::uint64_t AddressMap::encode(const DramAddress& a) const {
  auto place = [&](AddressField f, std::uint64_t value) {
    return value << bits_[static_cast<std::size_t>(f)].shift;
  };
  return (a.column_byte & (geometry_.interleave_bytes - 1)) |
         place(AddressField::column, a.column_byte / geometry_.interleave_bytes) |
         place(AddressField::channel, a.channel) |
         place(AddressField::pseudo_channel, a.pseudo_channel) |
         place(AddressField::bank_group, a.bank_group) | place(AddressField::bank, a.bank) |
         place(AddressField::row, a.row);
}

void AddressMap::emit_block(std::uint64_t base, std::uint32_t log2_bytes,
                            std::vector<RowPiece>& out) const {
  const std::uint64_t below =
      log2_bytes >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << log2_bytes) - 1;
  const std::uint64_t varying = row_select_mask_ & below;
  const auto column_bits = static_cast<std::uint32_t>(log2_bytes - __builtin_popcountll(varying));
  const std::uint64_t bytes = std::uint64_t{1} << column_bits;
  // Every value of the row-selecting bits inside the block, in increasing order: one row each.
  std::uint64_t subset = 0;
  do {
    const DramAddress a = decode(base | subset);
    push_piece(
        out, RowPiece{unit_of(a), a.bank_group * geometry_.banks_per_group + a.bank, a.row, bytes});
    subset = (subset - varying) & varying;
  } while (subset != 0);
}

void AddressMap::split(std::uint64_t base, std::uint64_t length, std::vector<RowPiece>& out) const {
  const std::uint64_t end = base + length;
  std::uint64_t at = base;
  while (at < end) {
    // The largest aligned power-of-two block that starts here and fits in the range.
    std::uint32_t log2_bytes = at == 0 ? 63 : static_cast<std::uint32_t>(__builtin_ctzll(at));
    while (log2_bytes > 0 && (std::uint64_t{1} << log2_bytes) > end - at) --log2_bytes;
    const std::uint64_t block = std::uint64_t{1} << log2_bytes;
    // Below the granule nothing selects a row: take the rest of the granule in one go.
    if (log2_bytes < granule_log2_) {
      const std::uint64_t granule_end = (at | (geometry_.interleave_bytes - 1)) + 1;
      const std::uint64_t stop = granule_end < end ? granule_end : end;
      const DramAddress a = decode(at);
      push_piece(out, RowPiece{unit_of(a), a.bank_group * geometry_.banks_per_group + a.bank, a.row,
                               stop - at});
      at = stop;
      continue;
    }
    emit_block(at, log2_bytes, out);
    at += block;
  }
}

}  // namespace ridgeline
