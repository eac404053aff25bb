#include "models/address_map.hpp"

#include <algorithm>
#include <cassert>

namespace ridgeline {

using F = AddressField;

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

AddressMapping::AddressMapping(const std::array<AddressField, kAddressFields>& order) {
  for (AddressField f : order) parts.push_back(Part{f, 0});
}

bool AddressMapping::operator==(const AddressMapping& other) const {
  if (parts.size() != other.parts.size() || folds.size() != other.folds.size()) return false;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].field != other.parts[i].field || parts[i].bits != other.parts[i].bits)
      return false;
  }
  for (std::size_t i = 0; i < folds.size(); ++i) {
    const Fold& a = folds[i];
    const Fold& b = other.folds[i];
    if (a.target != b.target || a.source != b.source || a.offset != b.offset) return false;
  }
  return true;
}

std::string AddressMapping::text() const {
  std::string out;
  for (const Part& p : parts) {
    if (!out.empty()) out += '-';
    out += short_name(p.field);
    if (p.bits) out += ":" + std::to_string(p.bits);
  }
  for (const Fold& f : folds) {
    out += " " + std::string(short_name(f.target)) + "^" + std::string(short_name(f.source));
    if (f.offset != kFollowingBits) out += "@" + std::to_string(f.offset);
  }
  return out;
}

const std::vector<NamedAddressMapping>& named_address_mappings() {
  using Fold = AddressMapping::Fold;
  static const std::vector<NamedAddressMapping> mappings = [] {
    std::vector<NamedAddressMapping> m = {
        {"channel_interleave",
         std::array<F, kAddressFields>{F::row, F::bank, F::bank_group, F::column, F::pseudo_channel,
                                       F::channel},
         "ro-ba-bg-co-pc-ch: granules rotate over channels, then pseudo-channels, then fill a "
         "row; the next row goes to the next bank group"},
        {"bank_group_interleave",
         std::array<F, kAddressFields>{F::row, F::bank, F::column, F::bank_group, F::pseudo_channel,
                                       F::channel},
         "ro-ba-co-bg-pc-ch: granules rotate over channels, pseudo-channels, then bank groups, "
         "so a stream alternates bank groups on every pseudo-channel (tCCD_S, not tCCD_L, apart)"},
        {"channel_contiguous",
         std::array<F, kAddressFields>{F::channel, F::pseudo_channel, F::row, F::bank,
                                       F::bank_group, F::column},
         "ch-pc-ro-ba-bg-co: each pseudo-channel holds one contiguous slice of memory; a stream "
         "stays on one pseudo-channel"},
        // Ramulator 2.1's RoBaRaCoCh on HBM3 (its levels pseudochannel, stack ID, bank group,
        // bank, row, column within a channel): the column lowest, then the pseudo-channel (its
        // "rank"), the stack ID and bank group (here the bank group field, whose lowest bits are
        // the stack ID: DramChannelParams::stack_ids), the bank, the row.
        {"RoBaRaCoCh", AddressMapping{},
         "ro-ba-bg-pc-co within a channel on bursts (Ramulator 2.1): bursts fill a row of one "
         "pseudo-channel; the channel above the lowest (hbm.channel_interleave)",
         true, true},
    };
    m.back().mapping.parts = {
        {F::row}, {F::bank}, {F::bank_group}, {F::pseudo_channel}, {F::column}};
    // Ramulator 2.1's MOP4CLXOR: within a channel, four bursts of a row (two column bits), the
    // pseudo-channel, stack ID and bank group, the bank, the rest of the column, the row; then
    // the pseudo-channel XORed with column bit 0, the stack ID with bit 1, the bank group with
    // bits 2-3 (here the bank group field, stack ID lowest, with bits 1-3) and the bank with
    // bit 4.
    NamedAddressMapping mop{
        "MOP4CLXOR", AddressMapping{},
        "ro-co:3-ba-bg-pc-co:2 pc^co@0 bg^co@1 ba^co@4 within a channel on "
        "bursts (Ramulator 2.1): runs of 4 bursts, hashed over pseudo-channels, "
        "stack IDs, bank groups and banks",
        true, true};
    mop.mapping.parts = {{F::row, 0},        {F::column, 3},         {F::bank, 0},
                         {F::bank_group, 0}, {F::pseudo_channel, 0}, {F::column, 2}};
    mop.mapping.folds = {Fold{F::pseudo_channel, F::column, 0}, Fold{F::bank_group, F::column, 1},
                         Fold{F::bank, F::column, 4}};
    m.push_back(mop);
    return m;
  }();
  return mappings;
}

namespace {

// The bits each field takes and which address bits give them, or why there are none.
struct Layout {
  std::array<std::uint32_t, kAddressFields> field_bits{};
  std::vector<std::uint32_t> part_bits;  // per part of the mapping, in its order
};

std::string field_bit_range(std::uint32_t from, std::uint32_t to) {
  return from + 1 == to ? "bit " + std::to_string(from)
                        : "bits " + std::to_string(from) + "-" + std::to_string(to - 1);
}

std::optional<std::string> layout_of(const AddressGeometry& g, const AddressMapping& mapping,
                                     Layout& layout) {
  std::array<int, kAddressFields> seen{}, widthless{};
  std::array<std::uint32_t, kAddressFields> given{};
  for (const AddressMapping::Part& p : mapping.parts) {
    const auto i = static_cast<std::size_t>(p.field);
    ++seen[i];
    if (p.bits == 0) ++widthless[i];
    given[i] += p.bits;
  }
  for (std::size_t i = 0; i < kAddressFields; ++i) {
    const auto f = static_cast<AddressField>(i);
    const std::uint32_t bits = bits_for(count_of(g, f));
    layout.field_bits[i] = bits;
    const std::string name(kShortNames[i]);
    if (seen[i] == 0) {
      return "a bit order names all six fields: '" + name + "' is missing (" +
             (bits ? "its " + field_bit_range(0, bits) + " unused" : "it takes no bits") + ")";
    }
    if (widthless[i] > 1) {
      return "the mapping must name each of ch, pc, bg, ba, ro, co exactly once ('" + name +
             "' appears " + std::to_string(seen[i]) +
             " times; a field in parts gives all but one a width, e.g. co:2)";
    }
    if (given[i] > bits || (widthless[i] == 0 && given[i] < bits)) {
      if (given[i] < bits) {
        return "'" + name + "' has " + std::to_string(bits) + " bits; the mapping gives " +
               std::to_string(given[i]) + ": " + name + " " + field_bit_range(given[i], bits) +
               " unused";
      }
      return "'" + name + "' has " + std::to_string(bits) + " bits; the mapping gives " +
             std::to_string(given[i]) + ": " + field_bit_range(bits, given[i]) + " of '" + name +
             "' used twice (beyond its " + std::to_string(bits) + ")";
    }
  }
  for (const AddressMapping::Part& p : mapping.parts) {
    const auto i = static_cast<std::size_t>(p.field);
    layout.part_bits.push_back(p.bits ? p.bits : layout.field_bits[i] - given[i]);
  }
  return std::nullopt;
}

}  // namespace

AddressMapping with_channel_above(const AddressMapping& within_channel, std::uint32_t low_bits,
                                  const AddressGeometry& geometry) {
  // Each part's width: given, or what its field has left after its other parts.
  std::array<std::uint32_t, kAddressFields> given{};
  for (const AddressMapping::Part& p : within_channel.parts) {
    given[static_cast<std::size_t>(p.field)] += p.bits;
  }
  AddressMapping out;
  out.folds = within_channel.folds;
  std::uint32_t below = 0;  // bits of the parts after this one (less significant)
  std::vector<AddressMapping::Part> low_first(within_channel.parts.rbegin(),
                                              within_channel.parts.rend());
  std::vector<AddressMapping::Part> placed;  // least significant first
  bool channel_placed = low_bits == 0;
  if (channel_placed) placed.push_back({AddressField::channel, 0});
  for (const AddressMapping::Part& p : low_first) {
    const auto i = static_cast<std::size_t>(p.field);
    const std::uint32_t width = p.bits ? p.bits : bits_for(count_of(geometry, p.field)) - given[i];
    if (!channel_placed && below + width > low_bits) {
      // The channel goes inside this part: its low bits below it, the rest above.
      const std::uint32_t low = low_bits - below;
      if (low > 0) placed.push_back({p.field, low});
      placed.push_back({AddressField::channel, 0});
      placed.push_back({p.field, width - low});
      channel_placed = true;
    } else {
      placed.push_back({p.field, p.bits ? p.bits : (given[i] ? width : 0)});
    }
    below += width;
    if (!channel_placed && below == low_bits) {
      placed.push_back({AddressField::channel, 0});
      channel_placed = true;
    }
  }
  if (!channel_placed) placed.push_back({AddressField::channel, 0});  // above everything
  out.parts.assign(placed.rbegin(), placed.rend());
  return out;
}

std::optional<std::string> check_address_map(const AddressGeometry& geometry,
                                             const AddressMapping& mapping) {
  if (!is_power_of_two(geometry.interleave_bytes)) return "the interleave must be a power of two";
  if (!is_power_of_two(geometry.row_bytes)) return "the row size must be a power of two";
  if (geometry.interleave_bytes > geometry.row_bytes) {
    return "the interleave must not exceed the row size (a granule lies in one row)";
  }
  const std::pair<const char*, std::uint64_t> counts[] = {
      {"bank groups", geometry.bank_groups}, {"banks per group", geometry.banks_per_group}};
  for (const auto& [name, count] : counts) {
    if (!is_power_of_two(count)) {
      return std::string("the number of ") + name + " must be a power of two to be bit-mapped";
    }
  }
  if (geometry.channels == 0 || geometry.pseudo_channels == 0) {
    return "there must be at least one channel and pseudo-channel";
  }
  if (geometry.rows == 0) return "there must be at least one row";
  Layout layout;
  if (auto problem = layout_of(geometry, mapping, layout)) return problem;
  // A count that is not a power of two is a digit of its own (the address above it divided by
  // the count): whole, never in parts, never folded.
  for (const AddressField f : {AddressField::channel, AddressField::pseudo_channel}) {
    if (is_power_of_two(count_of(geometry, f))) continue;
    const std::string name(short_name(f));
    for (const AddressMapping::Part& p : mapping.parts) {
      if (p.field == f && p.bits != 0) {
        return "'" + name + "' has " + std::to_string(count_of(geometry, f)) +
               " values, not a power of two: it must be given whole, not in parts";
      }
    }
    for (const AddressMapping::Fold& fold : mapping.folds) {
      if (fold.target == f || fold.source == f) {
        return "'" + name + "' has " + std::to_string(count_of(geometry, f)) +
               " values, not a power of two: it cannot be folded into or from";
      }
    }
  }
  const AddressMapping::Part& top = mapping.parts.front();
  if (!is_power_of_two(geometry.rows) && (top.field != AddressField::row || top.bits != 0)) {
    return "a row count that is not a power of two needs the whole row field on top ('ro' "
           "first)";
  }
  for (const AddressMapping::Fold& f : mapping.folds) {
    if (f.target == AddressField::column) return "a fold may not change the column";
    if (f.target == f.source) return "a fold XORs a field with another one, not with itself";
    for (const AddressMapping::Fold& other : mapping.folds) {
      if (other.target == f.source) {
        return "'" + std::string(short_name(f.source)) +
               "' is both folded into and folded from: fold from fields left as they are";
      }
    }
  }
  std::uint32_t bits = log2_of(geometry.interleave_bytes);
  for (std::uint32_t b : layout.field_bits) bits += b;
  if (bits > 63) return "the capacity must stay below 2^63 bytes";
  return std::nullopt;
}

AddressMap::AddressMap(const AddressGeometry& geometry, const AddressMapping& mapping)
    : geometry_(geometry) {
  assert(!check_address_map(geometry, mapping));
  Layout layout;
  layout_of(geometry, mapping, layout);
  granule_log2_ = log2_of(geometry.interleave_bytes);
  std::array<std::uint32_t, kAddressFields> next_bit{};  // per field, the next bit to place
  std::uint32_t shift = granule_log2_;
  const std::size_t n = mapping.parts.size();
  for (std::size_t j = n; j-- > 0;) {  // least significant first
    const AddressField f = mapping.parts[j].field;
    const auto i = static_cast<std::size_t>(f);
    PartBits b;
    b.field = f;
    b.shift = shift;
    b.width = layout.part_bits[j];
    b.field_offset = next_bit[i];
    const bool whole = b.width == layout.field_bits[i];
    b.count = whole ? count_of(geometry, f) : std::uint64_t{1} << b.width;
    next_bit[i] += b.width;
    if (b.width == 0 && !(j == 0 && whole)) {
      shift += 0;
      continue;  // takes no bits
    }
    parts_.push_back(b);
    shift += b.width;
  }
  // The most significant part takes every bit above it, so that addresses beyond the capacity
  // wrap (modulo its count).
  if (!parts_.empty()) parts_.back().modulo = !is_power_of_two(parts_.back().count);
  // A count below the top that is not a power of two makes the map mixed-radix: each part is a
  // digit of the granule index, the rest divided by its count.
  mixed_radix_ = std::any_of(parts_.begin(), parts_.end() - (parts_.empty() ? 0 : 1),
                             [](const PartBits& b) { return !is_power_of_two(b.count); });
  const auto address_bits_of = [&](std::size_t field, std::uint32_t from, std::uint32_t to) {
    std::uint64_t mask = 0;
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      const PartBits& b = parts_[k];
      if (static_cast<std::size_t>(b.field) != field) continue;
      const bool top = k + 1 == parts_.size();
      for (std::uint32_t bit = std::max(from, b.field_offset); bit < to; ++bit) {
        if (!top && bit >= b.field_offset + b.width) break;
        const std::uint32_t at = b.shift + bit - b.field_offset;
        if (at < 64) mask |= std::uint64_t{1} << at;
      }
    }
    return mask;
  };
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const PartBits& b = parts_[k];
    if (b.field == AddressField::column || b.count <= 1 || b.shift >= 64) continue;
    const bool top = k + 1 == parts_.size();
    const std::uint64_t width_mask =
        top ? ~std::uint64_t{0} : ((std::uint64_t{1} << b.width) - 1);
    row_select_mask_ |= width_mask << b.shift;
  }
  std::array<std::uint32_t, kAddressFields> following{};  // per source, the next fold bit
  for (const AddressMapping::Fold& f : mapping.folds) {
    const auto t = static_cast<std::size_t>(f.target);
    const auto src = static_cast<std::size_t>(f.source);
    const std::uint32_t width = layout.field_bits[t];
    const std::uint32_t offset = f.offset == kFollowingBits ? following[src] : f.offset;
    if (f.offset == kFollowingBits) following[src] += width;
    if (width == 0) continue;
    folds_.push_back(FoldBits{t, src, offset, (std::uint64_t{1} << width) - 1});
    row_select_mask_ |= address_bits_of(src, offset, offset + width);
  }
  linear_ = !mixed_radix_ &&
            std::none_of(parts_.begin(), parts_.end(), [](const PartBits& b) { return b.modulo; });
  if (linear_) build_byte_tables(layout.field_bits);
}

void AddressMap::build_byte_tables(const std::array<std::uint32_t, kAddressFields>& field_bits) {
  // Packed low to high as pc, ch, ba, bg, co, ro: a unit (ch x pseudo_channels + pc) and a bank
  // (bg x banks_per_group + ba) are each one run of bits (the counts are powers of two).
  std::uint32_t packed = 0;
  for (const AddressField f : {F::pseudo_channel, F::channel, F::bank, F::bank_group,
                               F::column, F::row}) {
    const auto i = static_cast<std::size_t>(f);
    field_shift_[i] = packed;
    field_mask_[i] = (std::uint64_t{1} << field_bits[i]) - 1;
    packed += field_bits[i];
  }
  const auto run_mask = [&](F low, F high) {
    return (std::uint64_t{1} << (field_bits[static_cast<std::size_t>(low)] +
                                 field_bits[static_cast<std::size_t>(high)])) -
           1;
  };
  unit_mask_ = run_mask(F::pseudo_channel, F::channel);
  bank_mask_ = run_mask(F::bank, F::bank_group);
  assert(packed <= 64 && "the fields fit one word (check_address_map bounds the capacity)");
  // What each address bit sets: its field's bit, and the bits of the folds it is a source of.
  std::array<std::uint64_t, 64> of_bit{};
  for (const PartBits& b : parts_) {
    const std::uint32_t bits = log2_of(b.count);  // a part keeps raw & (count - 1)
    for (std::uint32_t k = 0; k < bits && b.shift + k < 64; ++k) {
      const auto field = static_cast<std::size_t>(b.field);
      const std::uint32_t field_bit = b.field_offset + k;
      std::uint64_t sets = std::uint64_t{1} << (field_shift_[field] + field_bit);
      for (const FoldBits& f : folds_) {
        if (f.source != field || field_bit < f.offset) continue;
        const std::uint32_t target_bit = field_bit - f.offset;
        if (target_bit < 64 && (f.mask >> target_bit & 1) != 0) {
          sets ^= std::uint64_t{1} << (field_shift_[f.target] + target_bit);
        }
      }
      of_bit[b.shift + k] ^= sets;
    }
  }
  for (std::size_t byte = 0; byte < fields_by_byte_.size(); ++byte) {
    for (std::uint32_t value = 0; value < 256; ++value) {
      std::uint64_t fields = 0;
      for (std::uint32_t bit = 0; bit < 8; ++bit) {
        if (value >> bit & 1) fields ^= of_bit[byte * 8 + bit];
      }
      fields_by_byte_[byte][value] = fields;
    }
  }
}

std::array<std::uint64_t, kAddressFields> AddressMap::fields_of(std::uint64_t address) const {
  std::array<std::uint64_t, kAddressFields> v{};
  if (linear_) {
    const std::uint64_t packed = packed_fields(address);
    for (std::size_t f = 0; f < kAddressFields; ++f) v[f] = packed >> field_shift_[f] & field_mask_[f];
    return v;
  }
  if (mixed_radix_) {
    // Digits of the granule index, least significant first; the top part takes the rest.
    std::uint64_t rest = address >> granule_log2_;
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      const PartBits& b = parts_[k];
      const bool top = k + 1 == parts_.size();
      const std::uint64_t value = top && !b.modulo ? rest & (b.count - 1) : rest % b.count;
      rest /= b.count;
      v[static_cast<std::size_t>(b.field)] |= value << b.field_offset;
    }
  } else {
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      const PartBits& b = parts_[k];
      if (b.shift >= 64) continue;
      const std::uint64_t raw = address >> b.shift;
      const std::uint64_t value = b.modulo ? raw % b.count : raw & (b.count - 1);
      v[static_cast<std::size_t>(b.field)] |= value << b.field_offset;
    }
  }
  if (!folds_.empty()) {
    const std::array<std::uint64_t, kAddressFields> original = v;
    for (const FoldBits& f : folds_) {
      v[f.target] ^= (f.offset >= 64 ? 0 : original[f.source] >> f.offset) & f.mask;
    }
  }
  return v;
}

std::uint64_t AddressMap::packed_fields(std::uint64_t address) const {
  std::uint64_t packed = 0;
  for (std::size_t byte = 0; byte < fields_by_byte_.size(); ++byte) {
    packed ^= fields_by_byte_[byte][address >> (8 * byte) & 0xFF];
  }
  return packed;
}

RowPiece AddressMap::piece_at(std::uint64_t address, std::uint64_t bytes) const {
  const std::uint64_t low_column = address & (geometry_.interleave_bytes - 1);
  if (linear_) {
    const std::uint64_t p = packed_fields(address);
    const auto at = [&](F f) { return field_shift_[static_cast<std::size_t>(f)]; };
    return RowPiece{static_cast<std::uint32_t>(p >> at(F::pseudo_channel) & unit_mask_),
                    static_cast<std::uint32_t>(p >> at(F::bank) & bank_mask_),
                    p >> at(F::row) & field_mask_[static_cast<std::size_t>(F::row)], bytes,
                    (p >> at(F::column) & field_mask_[static_cast<std::size_t>(F::column)]) *
                            geometry_.interleave_bytes +
                        low_column};
  }
  const DramAddress a = decode(address);
  return RowPiece{unit_of(a), a.bank_group * geometry_.banks_per_group + a.bank, a.row, bytes,
                  a.column_byte};
}

DramAddress AddressMap::decode(std::uint64_t address) const {
  const std::array<std::uint64_t, kAddressFields> v = fields_of(address);
  const auto at = [&](AddressField f) { return v[static_cast<std::size_t>(f)]; };
  DramAddress a;
  a.channel = static_cast<std::uint32_t>(at(AddressField::channel));
  a.pseudo_channel = static_cast<std::uint32_t>(at(AddressField::pseudo_channel));
  a.bank_group = static_cast<std::uint32_t>(at(AddressField::bank_group));
  a.bank = static_cast<std::uint32_t>(at(AddressField::bank));
  a.row = at(AddressField::row);
  a.column_byte = at(AddressField::column) * geometry_.interleave_bytes +
                  (address & (geometry_.interleave_bytes - 1));
  return a;
}

std::uint64_t AddressMap::encode(const DramAddress& a) const {
  std::array<std::uint64_t, kAddressFields> v{};
  v[static_cast<std::size_t>(AddressField::channel)] = a.channel;
  v[static_cast<std::size_t>(AddressField::pseudo_channel)] = a.pseudo_channel;
  v[static_cast<std::size_t>(AddressField::bank_group)] = a.bank_group;
  v[static_cast<std::size_t>(AddressField::bank)] = a.bank;
  v[static_cast<std::size_t>(AddressField::row)] = a.row;
  v[static_cast<std::size_t>(AddressField::column)] = a.column_byte / geometry_.interleave_bytes;
  const std::array<std::uint64_t, kAddressFields> decoded = v;  // sources are never folded into
  for (const FoldBits& f : folds_) {
    v[f.target] ^= (f.offset >= 64 ? 0 : decoded[f.source] >> f.offset) & f.mask;
  }
  std::uint64_t address = a.column_byte & (geometry_.interleave_bytes - 1);
  if (mixed_radix_) {
    std::uint64_t granule = 0;
    for (std::size_t k = parts_.size(); k-- > 0;) {
      const PartBits& b = parts_[k];
      std::uint64_t value = v[static_cast<std::size_t>(b.field)] >> b.field_offset;
      if (k + 1 < parts_.size()) value %= b.count;
      granule = granule * b.count + value;
    }
    return address | granule << granule_log2_;
  }
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const PartBits& b = parts_[k];
    std::uint64_t value = v[static_cast<std::size_t>(b.field)] >> b.field_offset;
    if (k + 1 < parts_.size()) value &= b.count - 1;
    if (b.shift < 64) address |= value << b.shift;
  }
  return address;
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
    push_piece(out, piece_at(base | subset, bytes));
    subset = (subset - varying) & varying;
  } while (subset != 0);
}

void AddressMap::split(std::uint64_t base, std::uint64_t length, std::vector<RowPiece>& out) const {
  const std::uint64_t end = base + length;
  std::uint64_t at = base;
  if (mixed_radix_) {  // no bit selects a part alone: granule by granule
    while (at < end) {
      const std::uint64_t granule_end = (at | (geometry_.interleave_bytes - 1)) + 1;
      const std::uint64_t stop = granule_end < end ? granule_end : end;
      push_piece(out, piece_at(at, stop - at));
      at = stop;
    }
    return;
  }
  while (at < end) {
    // The largest aligned power-of-two block that starts here and fits in the range.
    std::uint32_t log2_bytes = at == 0 ? 63 : static_cast<std::uint32_t>(__builtin_ctzll(at));
    while (log2_bytes > 0 && (std::uint64_t{1} << log2_bytes) > end - at) --log2_bytes;
    const std::uint64_t block = std::uint64_t{1} << log2_bytes;
    // Below the granule nothing selects a row: take the rest of the granule in one go.
    if (log2_bytes < granule_log2_) {
      const std::uint64_t granule_end = (at | (geometry_.interleave_bytes - 1)) + 1;
      const std::uint64_t stop = granule_end < end ? granule_end : end;
      push_piece(out, piece_at(at, stop - at));
      at = stop;
      continue;
    }
    emit_block(at, log2_bytes, out);
    at += block;
  }
}

}  // namespace ridgeline
