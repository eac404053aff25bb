#include "sim/config/hbm_config.hpp"

#include <fmt/format.h>

#include <array>
#include <string>

namespace ridgeline {

namespace {

bool is_power_of_two(std::uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

std::uint32_t power_of_two_count(const ConfigNode& node, std::uint64_t limit) {
  const std::uint64_t value = node.positive_count();
  if (value > limit) node.fail(fmt::format("must be at most {}", limit));
  if (!is_power_of_two(value)) {
    node.fail("must be a power of two (address bits select it)", "e.g. 2, 4, 8 or 16");
  }
  return static_cast<std::uint32_t>(value);
}

std::array<AddressField, kAddressFields> parse_mapping(const ConfigNode& node) {
  const std::string text = node.text();
  std::string names;
  for (const NamedAddressMapping& m : named_address_mappings()) {
    if (m.name == text) return m.order;
    names += (names.empty() ? "" : ", ") + std::string(m.name);
  }
  const std::string fix = fmt::format(
      "use a named mapping ({}) or six fields, most significant first, e.g. ro-ba-bg-co-pc-ch",
      names);
  std::array<AddressField, kAddressFields> order{};
  std::size_t count = 0;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t dash = std::min(text.find('-', start), text.size());
    const std::string name = text.substr(start, dash - start);
    const auto field = address_field_named(name);
    if (!field) {
      node.fail(fmt::format("'{}' is neither a named mapping nor a bit order of the fields ch, "
                            "pc, bg, ba, ro, co ('{}' is not a field)",
                            text, name),
                fix);
    }
    if (count == kAddressFields) node.fail("a bit order names six fields, no more", fix);
    order[count++] = *field;
    start = dash + 1;
  }
  if (count != kAddressFields) node.fail("a bit order names all six fields", fix);
  return order;
}

// A key that only the detailed mode reads, given in simple mode: named in a warning.
void ignored_in_simple_mode(const ConfigNode& key, const ConfigNode& hbm) {
  key.ignored(fmt::format("hbm.mode is simple{}, which uses hbm.dram only to map addresses to "
                          "pseudo-channels",
                          hbm.optional("mode") ? "" : " (the default)"),
              "set hbm.mode: detailed to simulate it, or remove it");
}

// tREFI and tRFC are required only with refresh on; with it off, those given are ignored (and
// named so when `warn`).
DramTimings parse_timings(const ConfigNode& timing, bool refresh, bool warn) {
  DramTimings t;
  const std::pair<const char*, Time*> keys[] = {
      {"tRCD_RD", &t.tRCD_RD}, {"tRCD_WR", &t.tRCD_WR}, {"tRP", &t.tRP},
      {"tRAS", &t.tRAS},       {"tCL", &t.tCL},         {"tCWL", &t.tCWL},
      {"tCCD_S", &t.tCCD_S},   {"tCCD_L", &t.tCCD_L},   {"tRRD_S", &t.tRRD_S},
      {"tRRD_L", &t.tRRD_L},   {"tFAW", &t.tFAW},       {"tWR", &t.tWR},
      {"tRTP", &t.tRTP},       {"tWTR_S", &t.tWTR_S},   {"tWTR_L", &t.tWTR_L},
      {"tRTW", &t.tRTW},       {"tREFI", &t.tREFI},     {"tRFC", &t.tRFC}};
  for (const auto& [key, value] : keys) {
    if (!refresh && (std::string_view(key) == "tREFI" || std::string_view(key) == "tRFC")) {
      if (auto node = timing.optional(key)) {
        *value = Time::from_ps(node->quantity(Dimension::time));
        if (warn) node->ignored("hbm.dram.refresh is false", "set refresh: true, or remove it");
      }
      continue;
    }
    *value = Time::from_ps(timing.required(key).quantity(Dimension::time));
  }
  timing.reject_unknown_keys();
  return t;
}

void parse_dram(const ConfigNode& dram, HbmParams& params, const ConfigNode& hbm) {
  DramParams& d = params.dram.emplace();
  const ConfigNode bank_groups = dram.required("bank_groups");
  d.bank_groups = power_of_two_count(bank_groups, 1024);
  d.banks_per_group = power_of_two_count(dram.required("banks_per_group"), 1024);
  const ConfigNode rows = dram.required("rows");
  d.rows = rows.positive_count();
  if (d.rows > (std::uint64_t{1} << 32)) rows.fail("must be at most 2^32");
  const ConfigNode row_bytes = dram.required("row_bytes");
  d.row_bytes = row_bytes.positive_quantity(Dimension::bytes);
  if (!is_power_of_two(d.row_bytes)) row_bytes.fail("must be a power of two", "e.g. 1KiB");
  const ConfigNode burst_bytes = dram.required("burst_bytes");
  d.burst_bytes = burst_bytes.positive_quantity(Dimension::bytes);
  if (!is_power_of_two(d.burst_bytes)) burst_bytes.fail("must be a power of two", "e.g. 32B");
  if (d.burst_bytes > d.row_bytes) burst_bytes.fail("a burst must fit in a row");
  d.refresh = true;
  const std::optional<ConfigNode> refresh = dram.optional("refresh");
  if (refresh) d.refresh = refresh->choice({"true", "false"}) == "true";
  // Simple mode uses the organisation alone: the timings may be left out there.
  const bool detailed = params.mode == HbmMode::detailed;
  const std::optional<ConfigNode> timing =
      detailed ? std::optional(dram.required("timing")) : dram.optional("timing");
  if (timing) d.timing = parse_timings(*timing, d.refresh, detailed);
  dram.reject_unknown_keys();
  if (!detailed) {
    for (const auto& unused : {timing, refresh}) {
      if (unused) ignored_in_simple_mode(*unused, hbm);
    }
  }

  if (d.refresh && timing) {
    if (d.timing.tREFI.ps() == 0) {
      timing->required("tREFI").fail("must be greater than zero while refresh is on",
                                     "give the interval, or set hbm.dram.refresh: false");
    }
    if (d.timing.tRFC >= d.timing.tREFI) {
      timing->required("tRFC").fail(
          "must be shorter than tREFI (a refresh must end before the next is due)");
    }
  }
  const ConfigNode interleave = hbm.required("interleave");
  if (!is_power_of_two(params.interleave_bytes) || params.interleave_bytes < d.burst_bytes ||
      params.interleave_bytes > d.row_bytes) {
    interleave.fail(
        fmt::format("with hbm.dram given, the interleave must be a power of two from the burst "
                    "({} B) to the row ({} B)",
                    d.burst_bytes, d.row_bytes),
        "e.g. 256B");
  }
}

}  // namespace

void parse_hbm_organisation(const ConfigNode& hbm, HbmParams& params) {
  params.pseudo_channels = 1;
  std::optional<ConfigNode> pseudo = hbm.optional("pseudo_channels");
  if (pseudo) {
    const std::uint64_t value = pseudo->positive_count();
    if (value > 64) pseudo->fail("must be at most 64");
    params.pseudo_channels = static_cast<std::uint32_t>(value);
  }
  if (std::uint64_t{params.channels} * params.pseudo_channels > (1u << 16)) {
    hbm.required("channels").fail("channels x pseudo_channels must be at most 65536");
  }
  params.mode = HbmMode::simple;
  if (auto mode = hbm.optional("mode")) {
    params.mode =
        mode->choice({"simple", "detailed"}) == "detailed" ? HbmMode::detailed : HbmMode::simple;
  }
  const std::optional<ConfigNode> mapping = hbm.optional("address_mapping");
  const std::optional<ConfigNode> dram = hbm.optional("dram");
  params.dram.reset();
  if (!dram) {
    if (params.mode == HbmMode::detailed) hbm.required("dram");  // the standard message
    if (mapping) {
      mapping->fail("an address mapping needs the DRAM's organisation (hbm.dram)",
                    "add hbm.dram, or leave the mapping out: without it 'interleave' bytes go to "
                    "each of channels x pseudo_channels in turn");
    }
    return;
  }
  // With the DRAM described, address bits select every part: counts must be powers of two.
  if (!is_power_of_two(params.channels)) {
    hbm.required("channels")
        .fail(
            "must be a power of two when hbm.dram is given (address bits "
            "select it)");
  }
  if (pseudo && !is_power_of_two(params.pseudo_channels)) {
    pseudo->fail("must be a power of two when hbm.dram is given (address bits select it)");
  }
  parse_dram(*dram, params, hbm);
  if (mapping) params.dram->mapping = parse_mapping(*mapping);

  if (auto problem = check_address_map(params.geometry(), params.dram->mapping)) {
    const ConfigNode& where = mapping ? *mapping : dram->required("rows");
    where.fail(*problem);
  }
}

}  // namespace ridgeline
