#include "sim/config/hbm_config.hpp"

#include <fmt/format.h>

#include <algorithm>
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

// A named mapping or a bit order ("ro-ba-bg-co-pc-ch", parts with widths as "co:2"), then any
// folds, each "target^source" or "target^source@offset" (XOR the target field with the source
// field's bits from that offset on), separated by spaces.
AddressMapping parse_mapping(const ConfigNode& node, const NamedAddressMapping*& named_as) {
  const std::string text = node.text();
  std::vector<std::string> words;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t space = std::min(text.find(' ', at), text.size());
    if (space > at) words.push_back(text.substr(at, space - at));
    at = space + 1;
  }
  if (words.empty()) node.fail("an address mapping cannot be empty");
  std::string names;
  AddressMapping mapping;
  bool named = false;
  named_as = nullptr;
  for (const NamedAddressMapping& m : named_address_mappings()) {
    if (m.name == words.front()) {
      mapping = m.mapping;
      named = true;
      named_as = &m;
    }
    names += (names.empty() ? "" : ", ") + std::string(m.name);
  }
  const std::string fix = fmt::format(
      "use a named mapping ({}) or the six fields, most significant first, e.g. "
      "ro-ba-bg-co-pc-ch (a field in parts: co:2), then folds such as ba^ro",
      names);
  const auto field_of = [&](const std::string& name, const std::string& what) {
    const auto field = address_field_named(name);
    if (!field) {
      node.fail(fmt::format("'{}' is neither a named mapping nor a bit order of the fields ch, "
                            "pc, bg, ba, ro, co ('{}' is not a field{})",
                            text, name, what),
                fix);
    }
    return *field;
  };
  if (!named) {
    const std::string& order = words.front();
    for (std::size_t start = 0; start <= order.size();) {
      const std::size_t dash = std::min(order.find('-', start), order.size());
      std::string name = order.substr(start, dash - start);
      std::uint32_t bits = 0;
      if (const std::size_t colon = name.find(':'); colon != std::string::npos) {
        const std::string width = name.substr(colon + 1);
        if (width.empty() || width.size() > 2 ||
            width.find_first_not_of("0123456789") != std::string::npos || std::stoi(width) == 0)
          node.fail(fmt::format("'{}': a part's width is a number of bits from 1 to 63", name),
                    fix);
        bits = static_cast<std::uint32_t>(std::stoi(width));
        name = name.substr(0, colon);
      }
      mapping.parts.push_back(AddressMapping::Part{field_of(name, ""), bits});
      start = dash + 1;
    }
  }
  for (std::size_t w = 1; w < words.size(); ++w) {
    const std::string& fold = words[w];
    const std::size_t caret = fold.find('^');
    if (caret == std::string::npos) {
      node.fail(
          fmt::format("'{}' is not a fold: write target^source or target^source@offset", fold),
          "e.g. ba^ro folds the row's low bits into the bank");
    }
    const std::size_t at = fold.find('@', caret);
    AddressMapping::Fold f;
    f.target = field_of(fold.substr(0, caret), ", in a fold");
    f.source = field_of(
        fold.substr(caret + 1, at == std::string::npos ? std::string::npos : at - caret - 1),
        ", in a fold");
    if (at != std::string::npos) {
      const std::string offset = fold.substr(at + 1);
      if (offset.empty() || offset.size() > 2 ||
          offset.find_first_not_of("0123456789") != std::string::npos)
        node.fail(fmt::format("'{}': a fold's offset is a bit number from 0 to 63", fold), fix);
      f.offset = static_cast<std::uint32_t>(std::stoi(offset));
    }
    mapping.folds.push_back(f);
  }
  return mapping;
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
  // Per-bank refresh's cycle: read here, required (or named as ignored) once the controller's
  // refresh policy is known (check_refresh_policy).
  if (auto node = timing.optional("tRFCpb")) {
    t.tRFCpb = Time::from_ps(node->positive_quantity(Dimension::time));
  }
  // Stack IDs' spacing: read here, required with more than one stack ID (parse_dram).
  if (auto node = timing.optional("tCCD_R")) {
    t.tCCD_R = Time::from_ps(node->positive_quantity(Dimension::time));
  }
  timing.reject_unknown_keys();
  return t;
}

// hbm.controller: the scheduler, page policy and queues in front of each pseudo-channel.
DramController parse_controller(const ConfigNode& node) {
  DramController c;
  if (auto scheduler = node.optional("scheduler")) {
    c.scheduler = scheduler->choice({"fcfs", "fr_fcfs"}) == "fcfs" ? DramScheduler::fcfs
                                                                   : DramScheduler::fr_fcfs;
  }
  if (auto policy = node.optional("page_policy")) {
    c.page_policy =
        policy->choice({"open", "closed"}) == "closed" ? PagePolicy::closed : PagePolicy::open;
  }
  const auto depth = [&](std::string_view key, std::uint32_t fallback) {
    const auto value = node.optional(key);
    return value ? static_cast<std::uint32_t>(value->positive_count_at_most(4096)) : fallback;
  };
  c.read_queue_depth = depth("read_queue_depth", c.read_queue_depth);
  c.write_queue_depth = depth("write_queue_depth", c.write_queue_depth);
  // Watermarks default to 80 % and 20 % of the write queue, as Ramulator 2's controller.
  const std::optional<ConfigNode> high = node.optional("write_high_watermark");
  const std::optional<ConfigNode> low = node.optional("write_low_watermark");
  c.write_high_watermark = high ? static_cast<std::uint32_t>(high->positive_count_at_most(4096))
                                : std::max<std::uint32_t>(1, c.write_queue_depth * 4 / 5);
  c.write_low_watermark =
      low ? static_cast<std::uint32_t>(low->count()) : c.write_high_watermark / 4;
  if (c.write_high_watermark > c.write_queue_depth) {
    (high ? *high : node.required("write_queue_depth"))
        .fail(fmt::format("the high watermark ({}) must not exceed the write queue depth ({})",
                          c.write_high_watermark, c.write_queue_depth));
  }
  if (c.write_low_watermark >= c.write_high_watermark) {
    (low ? *low : *high)
        .fail(fmt::format("the low watermark ({}) must be below the high watermark ({})",
                          c.write_low_watermark, c.write_high_watermark));
  }
  if (auto unit = node.optional("queue_unit")) {
    c.queue_unit = unit->choice({"request", "transaction"}) == "transaction"
                       ? QueueUnit::transaction
                       : QueueUnit::request;
  }
  if (auto release = node.optional("read_release")) {
    c.read_release = release->choice({"column", "activation"}) == "activation"
                         ? ReadRelease::activation
                         : ReadRelease::column;
  }
  if (auto scope = node.optional("queue_scope")) {
    c.channel_queues = scope->choice({"pseudo_channel", "channel"}) == "channel";
  }
  if (auto stall = node.optional("requesters_stall")) {
    c.requesters_stall = stall->choice({"true", "false"}) == "true";
  }
  if (auto refresh = node.optional("refresh")) {
    c.refresh = refresh->choice({"all_bank", "per_bank"}) == "per_bank" ? RefreshPolicy::per_bank
                                                                        : RefreshPolicy::all_bank;
  }
  if (auto schedule = node.optional("refresh_schedule")) {
    c.staggered_refresh = schedule->choice({"staggered", "simultaneous"}) == "staggered";
  }
  if (auto cap = node.optional("starvation_cap")) {
    c.starvation_cap = static_cast<std::uint32_t>(cap->positive_count_at_most(1u << 20));
  }
  node.reject_unknown_keys();
  return c;
}

void parse_dram(const ConfigNode& dram, HbmParams& params, const ConfigNode& hbm) {
  DramParams& d = params.dram.emplace();
  const ConfigNode bank_groups = dram.required("bank_groups");
  d.bank_groups = power_of_two_count(bank_groups, 1024);
  d.banks_per_group = power_of_two_count(dram.required("banks_per_group"), 1024);
  const std::optional<ConfigNode> stack_ids = dram.optional("stack_ids");
  if (stack_ids) {
    d.stack_ids = power_of_two_count(*stack_ids, 16);
    if (d.bank_groups % d.stack_ids != 0) {
      stack_ids->fail(
          fmt::format("must divide bank_groups = {} (each stack ID has as many)", d.bank_groups),
          "give bank_groups as all of them, every stack ID's");
    }
  }
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
  if (timing && detailed) {
    const std::optional<ConfigNode> turn = timing->optional("tCCD_R");
    if (d.stack_ids > 1 && !turn) {
      dram.required("stack_ids")
          .fail(
              "needs the spacing of column commands to another stack ID, "
              "hbm.dram.timing.tCCD_R",
              "add tCCD_R to hbm.dram.timing (HBM3: 1.875 ns), or give one stack ID");
    } else if (d.stack_ids == 1 && turn) {
      turn->ignored("hbm.dram.stack_ids is 1 (the default)", "give stack_ids, or remove tCCD_R");
    } else if (turn && d.timing.tCCD_R < d.timing.tCCD_S) {
      turn->fail(
          "must be at least tCCD_S (a change of stack ID is no faster than one of bank "
          "group)");
    }
  }
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

// Per-bank refresh needs its cycle, shorter than the interval; all-bank refresh ignores it.
void check_refresh_policy(const ConfigNode& dram, const std::optional<ConfigNode>& controller,
                          const DramParams& d) {
  const ConfigNode timing = dram.required("timing");
  const std::optional<ConfigNode> cycle = timing.optional("tRFCpb");
  const bool per_bank = d.controller.refresh == RefreshPolicy::per_bank;
  if (!per_bank || !d.refresh) {
    if (cycle) {
      cycle->ignored(per_bank ? "hbm.dram.refresh is false"
                              : "hbm.controller.refresh is all_bank (the default)",
                     "set hbm.controller.refresh: per_bank to use it, or remove it");
    }
    if (per_bank) {
      controller->required("refresh").ignored("hbm.dram.refresh is false",
                                              "set refresh: true, or remove it");
    }
    return;
  }
  if (!cycle) {
    controller->required("refresh").fail(
        "per-bank refresh needs the per-bank refresh cycle, hbm.dram.timing.tRFCpb",
        "add it to hbm.dram.timing, e.g. tRFCpb: 200ns, or set refresh: all_bank");
  }
  if (d.timing.tRFCpb >= d.timing.tREFI) {
    cycle->fail("must be shorter than tREFI (a bank's refresh must end before its next is due)");
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
  const std::optional<ConfigNode> controller = hbm.optional("controller");
  params.dram.reset();
  if (!dram) {
    if (params.mode == HbmMode::detailed) hbm.required("dram");  // the standard message
    if (controller) {
      controller->fail("the DRAM controller needs the DRAM (hbm.dram, in detailed mode)",
                       "add hbm.dram and mode: detailed, or leave the controller out");
    }
    if (mapping) {
      mapping->fail("an address mapping needs the DRAM's organisation (hbm.dram)",
                    "add hbm.dram, or leave the mapping out: without it 'interleave' bytes go to "
                    "each of channels x pseudo_channels in turn");
    }
    return;
  }
  // Channels and pseudo-channels whose counts are not powers of two are digits of the granule
  // index (models/address_map.hpp); check_address_map says where a mapping cannot take one.
  parse_dram(*dram, params, hbm);
  if (controller) {
    params.dram->controller = parse_controller(*controller);
    if (params.mode == HbmMode::simple) ignored_in_simple_mode(*controller, hbm);
  }
  if (params.mode == HbmMode::detailed) check_refresh_policy(*dram, controller, *params.dram);
  const NamedAddressMapping* named = nullptr;
  if (mapping) params.dram->mapping = parse_mapping(*mapping, named);
  if (named && named->per_burst && params.interleave_bytes != params.dram->burst_bytes) {
    mapping->fail(fmt::format("this mapping is defined on bursts: it needs interleave equal to "
                              "the burst ({} B), not {} B",
                              params.dram->burst_bytes, params.interleave_bytes),
                  fmt::format("set hbm.interleave: {}B", params.dram->burst_bytes));
  }
  // Ramulator 2.1's mappings order the address within a channel; its channel mapper takes the
  // channel from the bits above `channel_interleave` bytes (the burst unless given).
  const std::optional<ConfigNode> channel_interleave = hbm.optional("channel_interleave");
  if (named && named->within_channel) {
    std::uint64_t bytes = params.dram->burst_bytes;
    if (channel_interleave) {
      bytes = channel_interleave->positive_quantity(Dimension::bytes);
      if (!is_power_of_two(bytes) || bytes < params.dram->burst_bytes ||
          bytes > params.dram->row_bytes) {
        channel_interleave->fail(
            fmt::format("must be a power of two from the burst ({} B) to the row ({} B)",
                        params.dram->burst_bytes, params.dram->row_bytes),
            "e.g. 64B: the two bursts of a 64 B access on one channel");
      }
    }
    std::uint32_t low_bits = 0;
    while ((params.dram->burst_bytes << low_bits) < bytes) ++low_bits;
    params.dram->mapping = with_channel_above(params.dram->mapping, low_bits, params.geometry());
  } else if (channel_interleave) {
    channel_interleave->ignored(
        "it places the channel for Ramulator's mappings (RoBaRaCoCh, MOP4CLXOR), which order the "
        "address within a channel; this mapping places the channel itself",
        "use one of those, or remove it");
  }

  if (auto problem = check_address_map(params.geometry(), params.dram->mapping)) {
    const ConfigNode& where = mapping ? *mapping : dram->required("rows");
    where.fail(*problem);
  }
}

}  // namespace ridgeline
