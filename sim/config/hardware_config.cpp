#include "sim/config/hardware_config.hpp"

#include <fmt/format.h>

#include <limits>

#include "sim/config/energy_config.hpp"
#include "sim/config/hardware_guards.hpp"
#include "sim/config/hbm_config.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

std::uint32_t small_count(const ConfigNode& node, std::uint64_t limit) {
  return static_cast<std::uint32_t>(node.positive_count_at_most(limit));
}

// Threads, warps and registers (all optional: docs/CONFIG.md gives each default). Reads the
// optional keys of `cores` and `cores.registers` and closes the latter.
void parse_thread_limits(const ConfigNode& cores, const ConfigNode& registers,
                         HardwareParams& params) {
  KernelTarget& threads = params.threads;
  if (auto per_thread = registers.optional("max_per_thread")) {
    threads.max_registers_per_thread = small_count(*per_thread, 1u << 16);
  }
  registers.reject_unknown_keys();
  if (auto warp = cores.optional("warp_size")) threads.warp_size = small_count(*warp, 1u << 10);
  if (auto warps = cores.optional("max_warps"))
    params.core.max_warps = small_count(*warps, 1u << 20);
  if (auto block = cores.optional("max_threads_per_block")) {
    threads.max_threads_per_block = small_count(*block, 1u << 24);
  }
  if (auto cluster = cores.optional("max_cluster_size")) {
    threads.max_cluster_size = small_count(*cluster, 16);
  }
  if (auto warpgroup = cores.optional("warpgroup_mma")) {
    threads.warpgroup_mma = warpgroup->choice({"true", "false"}) == "true";
  }
  if (auto barrier = cores.optional("barrier_latency")) {
    threads.barrier = Cycles{barrier->quantity(Dimension::cycles)};
    if (threads.barrier.count > 1'000'000) barrier->fail("must be at most 1000000cycles");
  }
  for (auto [key, cycles] : {std::pair{"block_launch_latency", &params.core.block_launch},
                             std::pair{"warp_launch_latency", &params.core.warp_launch}}) {
    if (auto latency = cores.optional(key)) {
      *cycles = Cycles{latency->quantity(Dimension::cycles)};
      if (cycles->count > 1'000'000) latency->fail("must be at most 1000000cycles");
    }
  }
  if (const std::uint64_t registers_per_warp =
          std::uint64_t{threads.warp_size} * threads.max_registers_per_thread * kRegisterBytes;
      registers_per_warp > params.core.registers.capacity_bytes) {
    registers.required("max_per_thread")
        .fail(fmt::format("one warp at this limit needs {} of registers ({} threads) but a core "
                          "has {} (hardware.cores.registers.capacity)",
                          format_bytes(registers_per_warp), threads.warp_size,
                          format_bytes(params.core.registers.capacity_bytes)),
              "lower the limit or enlarge the register file");
  }
}

// `bandwidth`: one port for reads and writes; or `read_bandwidth` and `write_bandwidth`, two.
void parse_sram_ports(const ConfigNode& sram, SramParams& params) {
  const auto shared = sram.optional("bandwidth");
  const auto read = sram.optional("read_bandwidth");
  const auto write = sram.optional("write_bandwidth");
  if (shared) {
    if (read || write) {
      (read ? *read : *write)
          .fail("bandwidth already gives one port for reads and writes together",
                "keep bandwidth (one set of banks) or read_bandwidth and write_bandwidth (two "
                "ports), not both");
    }
    params.shared_port = true;
    params.read_bytes_per_cycle = params.write_bytes_per_cycle =
        shared->positive_quantity(Dimension::bytes_per_cycle);
    return;
  }
  if (!read && !write) {
    sram.fail("the SRAM's port is not given",
              "give bandwidth (one port that reads and writes share, e.g. 128B/cycle), or "
              "read_bandwidth and write_bandwidth (two ports)");
  }
  params.read_bytes_per_cycle =
      sram.required("read_bandwidth").positive_quantity(Dimension::bytes_per_cycle);
  params.write_bytes_per_cycle =
      sram.required("write_bandwidth").positive_quantity(Dimension::bytes_per_cycle);
}

ComputeUnitParams parse_compute(const ConfigNode& compute, StatedFigures& stated) {
  ComputeUnitParams params;
  const ConfigNode throughput = compute.required("throughput");
  bool any = false;
  for (DataType type : kAllDataTypes) {
    if (auto rate = throughput.optional(name_of(type))) {
      params.flops_per_cycle[index_of(type)] = rate->positive_quantity(Dimension::flops_per_cycle);
      any = true;
    }
  }
  throughput.reject_unknown_keys();
  if (!any) throughput.fail("no data type given", "give at least one, e.g. 'fp32: 256FLOP/cycle'");
  params.pipeline_latency =
      Cycles{compute.required("pipeline_latency").quantity(Dimension::cycles)};
  if (auto issue = compute.optional("warp_instructions_per_cycle"))
    params.warp_instructions_per_cycle = small_count(*issue, 1024);
  stated.peak = compute.optional("stated_peak");
  compute.reject_unknown_keys();
  return params;
}

// The optional shared L2 (docs/CONFIG.md, "hardware.l2").
L2CacheParams parse_l2(const ConfigNode& l2, StatedFigures& stated) {
  L2CacheParams params;
  const ConfigNode capacity = l2.required("capacity");
  params.capacity_bytes = capacity.positive_quantity(Dimension::bytes);
  const ConfigNode line = l2.required("line_size");
  params.line_bytes = line.positive_quantity(Dimension::bytes);
  if ((params.line_bytes & (params.line_bytes - 1)) != 0) {
    line.fail("must be a power of two", "e.g. 128B");
  }
  params.sector_bytes = params.line_bytes;  // unsectored unless the key says otherwise
  if (const auto sector = l2.optional("sector_size")) {
    params.sector_bytes = sector->positive_quantity(Dimension::bytes);
    if ((params.sector_bytes & (params.sector_bytes - 1)) != 0) {
      sector->fail("must be a power of two", "e.g. 32B");
    }
    if (params.sector_bytes > params.line_bytes ||
        params.line_bytes / params.sector_bytes > kMaxSectorsPerLine) {
      sector->fail(fmt::format("must divide line_size = {} into 1 to {} sectors",
                               format_bytes(params.line_bytes), kMaxSectorsPerLine),
                   fmt::format("use {} to {}", format_bytes(params.line_bytes / kMaxSectorsPerLine),
                               format_bytes(params.line_bytes)));
    }
  }
  const ConfigNode ways = l2.required("associativity");
  params.associativity = small_count(ways, CacheSets::kMaxWays);
  params.bandwidth.bytes_per_second =
      l2.required("bandwidth").positive_quantity(Dimension::bandwidth);
  params.hit_latency = Time::from_ps(l2.required("hit_latency").quantity(Dimension::time));
  params.far_hit_latency = params.hit_latency;
  const std::optional<ConfigNode> partitions = l2.optional("partitions");
  const std::optional<ConfigNode> far = l2.optional("far_hit_latency");
  // More partitions than cores is a machine cut down to a few of its cores (one SM of a GPU):
  // some partitions are near no core, and the lines still spread over all of them.
  if (partitions) params.partitions = small_count(*partitions, 1u << 16);
  if (params.partitions > 1 && !far) {
    partitions->fail(fmt::format("splits the L2 in {}, which needs the latency of a hit in a "
                                 "partition other than the core's",
                                 params.partitions),
                     "add far_hit_latency, e.g. twice hit_latency");
  }
  if (far) {
    if (params.partitions == 1) {
      far->fail("is the latency of a hit in another partition, and the L2 has one",
                "remove it, or split the L2 with partitions: 2");
    }
    params.far_hit_latency = Time::from_ps(far->quantity(Dimension::time));
    if (params.far_hit_latency < params.hit_latency) {
      const std::string near = fmt::format("{:g}ns", params.hit_latency.seconds() * 1e9);
      far->fail(fmt::format("is below hit_latency ({}): a far partition is reached across the "
                            "chip, never sooner than the near one",
                            near),
                fmt::format("use at least {}", near));
    }
  }
  if (auto policy = l2.optional("write_policy")) {
    params.write_policy = policy->choice({"write_back", "write_through"}) == "write_back"
                              ? L2WritePolicy::write_back
                              : L2WritePolicy::write_through;
  }
  const std::optional<ConfigNode> index = l2.optional("set_index");
  if (index) {
    params.set_index =
        index->choice({"xor", "modulo"}) == "xor" ? L2SetIndex::xor_folded : L2SetIndex::modulo;
  }
  stated.sets = l2.optional("stated_sets");
  l2.reject_unknown_keys();

  const std::uint64_t set_bytes = params.line_bytes * params.associativity;
  if (params.capacity_bytes % set_bytes != 0) {
    capacity.fail(fmt::format("must be a whole number of sets of line_size x associativity = {}",
                              format_bytes(set_bytes)),
                  fmt::format("use a multiple of {}, e.g. {}", format_bytes(set_bytes),
                              format_bytes((params.capacity_bytes / set_bytes + 1) * set_bytes)));
  }
  // Each partition holds an equal share of the sets (L2CacheParams::partition_of_set).
  if (partitions && params.sets() % params.partitions != 0) {
    partitions->fail(fmt::format("splits the L2's {} sets (capacity / (line_size x associativity)) "
                                 "in {} partitions, which must each hold as many",
                                 params.sets(), params.partitions),
                     "use a number of partitions that divides the sets, e.g. 2");
  }
  // The model keeps 20 to 80 bytes of state per line, by associativity: bound it, not the lines.
  constexpr std::uint64_t kMaxStateBytes = std::uint64_t{128} << 20;
  const std::uint64_t state = CacheSets::state_bytes(params.sets(), params.associativity);
  if (state > kMaxStateBytes) {
    capacity.fail(fmt::format("{} lines of {} in {} ways need {} of the simulator's memory, more "
                              "than the {} it allows a cache",
                              params.lines(), format_bytes(params.line_bytes), params.associativity,
                              format_bytes(state), format_bytes(kMaxStateBytes)),
                  "use longer lines, more ways or a smaller capacity");
  }
  if (index && params.sets() == 1) {
    index->ignored(fmt::format("the L2 has one set (capacity = line_size x associativity = {}), "
                               "which every line maps to",
                               format_bytes(params.capacity_bytes)),
                   "remove it, or give the L2 more sets");
  }
  return params;
}

}  // namespace

HardwareParams parse_hardware(const ConfigNode& hardware) {
  HardwareParams params;
  params.name = hardware.required("name").text();
  params.core_clock = Clock(hardware.required("clock").positive_quantity(Dimension::frequency));
  if (params.core_clock.frequency_hz > 1'000'000'000'000ULL) {
    hardware.required("clock").fail("must be at most 1THz (the time resolution is 1 ps)");
  }

  const ConfigNode cores = hardware.required("cores");
  // Each core is a SystemC module of about 5 KB elaborated before the run: 2^20 of them took 5 GB
  // and minutes; 65536 stay within a few hundred MB.
  params.cores = small_count(cores.required("count"), 1u << 16);
  params.core.max_resident_blocks = small_count(cores.required("max_resident_blocks"), 1u << 16);

  const ConfigNode sram = cores.required("sram");
  params.core.sram.capacity_bytes = sram.required("capacity").positive_quantity(Dimension::bytes);
  parse_sram_ports(sram, params.core.sram);
  sram.reject_unknown_keys();

  const ConfigNode registers = cores.required("registers");
  params.core.registers.capacity_bytes =
      registers.required("capacity").positive_quantity(Dimension::bytes);

  StatedFigures stated;
  params.core.compute = parse_compute(cores.required("compute"), stated);
  parse_thread_limits(cores, registers, params);
  cores.reject_unknown_keys();

  const ConfigNode hbm = hardware.required("hbm");
  params.hbm.peak_bandwidth.bytes_per_second =
      hbm.required("bandwidth").positive_quantity(Dimension::bandwidth);
  params.hbm.access_latency = Time::from_ps(hbm.required("latency").quantity(Dimension::time));
  params.hbm.channels = small_count(hbm.required("channels"), 1u << 16);
  const ConfigNode interleave = hbm.required("interleave");
  params.hbm.interleave_bytes = interleave.positive_quantity(Dimension::bytes);
  params.core.max_bytes_in_flight =
      hbm.required("max_bytes_in_flight_per_core").positive_quantity(Dimension::bytes);
  if (auto requests = hbm.optional("max_requests_in_flight_per_core")) {
    params.core.max_requests_in_flight =
        small_count(*requests, std::numeric_limits<std::uint32_t>::max());
  }
  parse_hbm_organisation(hbm, params.hbm);
  // The HBM model maps addresses by stripes of interleave x channels x pseudo-channels bytes.
  if (params.hbm.interleave_bytes >
      std::numeric_limits<std::uint64_t>::max() / params.hbm.units()) {
    interleave.fail(
        "interleave x channels x pseudo_channels (one stripe over all of them) must fit "
        "in 64 bits",
        "use an interleave of at most a few KiB, as memories do");
  }
  stated.interface = hbm.optional("stated_interface");
  hbm.reject_unknown_keys();
  if (auto l2 = hardware.optional("l2")) params.l2 = parse_l2(*l2, stated);
  parse_energy(hardware, params);
  hardware.reject_unknown_keys();
  check_stated_figures(hardware, stated, params);
  warn_dram_below_bandwidth(hbm, params.hbm);
  return params;
}

}  // namespace ridgeline
