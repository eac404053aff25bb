#include "sim/config/workload_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string_view>

#include "sim/config/memory_trace_config.hpp"

namespace ridgeline {

template <>
struct WorkloadParser<GemmSpec> : ReadsNoFiles {
  static GemmSpec parse(const ConfigNode& workload);
};
template <>
struct WorkloadParser<VectorAddSpec> : ReadsNoFiles {
  static VectorAddSpec parse(const ConfigNode& workload);
};
template <>
struct WorkloadParser<StreamSpec> : ReadsNoFiles {
  static StreamSpec parse(const ConfigNode& workload);
};

namespace {

constexpr std::uint64_t kMaxElements = std::uint64_t{1} << 40;  // keeps every byte count in 64 bits

DataType parse_data_type(const ConfigNode& node) {
  std::vector<std::string_view> names;
  for (DataType type : kAllDataTypes) names.push_back(name_of(type));
  return *data_type_named(node.choice(names));
}

std::uint64_t dimension(const ConfigNode& node) {
  const std::uint64_t value = node.positive_count();
  if (value > (std::uint64_t{1} << 24)) {
    node.fail("must be at most 16777216 (2^24)", "larger matrices overflow 64-bit byte counts");
  }
  return value;
}

// block_order: {kind: row_major | column_major | grouped, group: G}. That a group spans at most
// the grid's block rows is check_rules(GemmSpec).
BlockOrderParams parse_block_order(const ConfigNode& order) {
  BlockOrderParams params;
  const std::string kind = order.required("kind").choice({"row_major", "column_major", "grouped"});
  params.kind = kind == "grouped"        ? BlockOrderKind::grouped
                : kind == "column_major" ? BlockOrderKind::column_major
                                         : BlockOrderKind::row_major;
  if (params.kind == BlockOrderKind::grouped) {
    const ConfigNode group = order.required("group");
    params.group = group.positive_count();
  } else if (auto group = order.optional("group")) {
    group->fail("applies only to kind: grouped", "remove it, or use kind: grouped");
  }
  order.reject_unknown_keys();
  return params;
}

// Registers per thread (docs/CONFIG.md): overhead, an outright count, what happens above the limit.
void parse_thread_registers(const ConfigNode& w, GemmSpec& spec) {
  if (auto overhead = w.optional("register_overhead")) {
    const std::uint64_t value = overhead->count();
    if (value > (1u << 16)) overhead->fail("must be at most 65536");
    spec.register_overhead = static_cast<std::uint32_t>(value);
  }
  if (auto given = w.optional("registers_per_thread")) {
    const std::uint64_t value = given->positive_count();
    if (value > (1u << 16)) given->fail("must be at most 65536");
    if (w.optional("register_overhead")) {
      given->fail("gives the count outright, so register_overhead would be ignored",
                  "keep one of the two");
    }
    spec.registers_per_thread = value;
  }
  if (auto spill = w.optional("spill")) {
    spec.spill =
        spill->choice({"refuse", "local"}) == "local" ? SpillPolicy::local : SpillPolicy::refuse;
  }
}

}  // namespace

GemmSpec WorkloadParser<GemmSpec>::parse(const ConfigNode& w) {
  GemmSpec spec;
  spec.m = dimension(w.required("m"));
  spec.n = dimension(w.required("n"));
  spec.k = dimension(w.required("k"));
  spec.dtype = parse_data_type(w.required("dtype"));
  spec.accumulator = default_accumulator(spec.dtype);
  if (auto accumulator = w.optional("accumulator"))
    spec.accumulator = parse_data_type(*accumulator);
  const std::string strategy =
      w.required("strategy").choice({"no_reuse", "tiled", "register_tiled"});
  spec.strategy = strategy == "tiled"            ? GemmStrategy::tiled
                  : strategy == "register_tiled" ? GemmStrategy::register_tiled
                                                 : GemmStrategy::no_reuse;

  const ConfigNode tile = w.required("tile");
  const ConfigNode tile_m = tile.required("m");
  const ConfigNode tile_n = tile.required("n");
  const ConfigNode tile_k = tile.required("k");
  spec.tile = TileShape{tile_m.positive_count(), tile_n.positive_count(), tile_k.positive_count()};
  tile.reject_unknown_keys();

  const ConfigNode stages = w.required("stages");
  spec.stages = static_cast<std::uint32_t>(stages.positive_count_at_most(kMaxStepsPerBlock));

  if (auto registers = w.optional("register_tile")) {
    if (spec.strategy == GemmStrategy::no_reuse) {
      registers->fail("no_reuse reads every operand from memory for each multiply",
                      "use strategy: register_tiled for local blocking without shared memory");
    }
    const ConfigNode r_m = registers->required("m");
    const ConfigNode r_n = registers->required("n");
    spec.register_tile = RegisterTile{r_m.positive_count(), r_n.positive_count()};
    registers->reject_unknown_keys();
  }
  if (auto warp = w.optional("warp_tile")) {
    if (spec.strategy != GemmStrategy::tiled) {
      warp->fail(
          fmt::format("{} reads no operand from SRAM for a warp to share", name_of(spec.strategy)),
          "use strategy: tiled, or leave warp_tile out");
    }
    const ConfigNode w_m = warp->required("m");
    const ConfigNode w_n = warp->required("n");
    spec.warp_tile = WarpTile{w_m.positive_count(), w_n.positive_count()};
    // 1: a warp's matrix instruction; 4: a Hopper warpgroup's (wgmma).
    if (auto warps = warp->optional("warps")) {
      spec.warp_tile->warps = warps->choice({"1", "4"}) == "4" ? 4 : 1;
    }
    warp->reject_unknown_keys();
  }
  if (auto cluster = w.optional("cluster")) {
    if (spec.strategy != GemmStrategy::tiled) {
      cluster->fail(fmt::format("{} keeps no tile in SRAM for a cluster to multicast",
                                name_of(spec.strategy)),
                    "use strategy: tiled, or leave cluster out");
    }
    // The limit of the machine (hardware.cores.max_cluster_size) is check_threads'; 16 is the
    // most any GPU allows.
    spec.cluster.m = cluster->required("m").positive_count_at_most(16);
    spec.cluster.n = cluster->required("n").positive_count_at_most(16);
    cluster->reject_unknown_keys();
  }
  parse_thread_registers(w, spec);
  if (auto order = w.optional("block_order")) spec.block_order = parse_block_order(*order);
  // The rules between these values are check_rules(GemmSpec), applied by parse_workload.
  return spec;
}

VectorAddSpec WorkloadParser<VectorAddSpec>::parse(const ConfigNode& w) {
  VectorAddSpec spec;
  const ConfigNode length = w.required("length");
  spec.length = length.positive_count();
  if (spec.length > kMaxElements) length.fail("must be at most 2^40 elements");
  spec.dtype = parse_data_type(w.required("dtype"));
  // Defaults: 4096-element chunks, 16 per block, two in flight (documented in docs/CONFIG.md).
  spec.chunk_elements = 4096;
  const auto chunk = w.optional("chunk_elements");
  if (chunk) spec.chunk_elements = chunk->positive_count_at_most(kMaxElements);
  spec.block_elements = 16 * spec.chunk_elements;
  const auto block = w.optional("block_elements");
  if (block) {
    spec.block_elements = block->positive_count_at_most(kMaxElements);
    if (spec.block_elements % spec.chunk_elements != 0) {
      block->fail(fmt::format("must be a multiple of chunk_elements = {}", spec.chunk_elements));
    }
  }
  spec.stages = 2;
  if (auto stages = w.optional("stages"))
    spec.stages = static_cast<std::uint32_t>(stages->positive_count_at_most(kMaxStepsPerBlock));
  spec.block_elements = std::min(spec.block_elements, spec.length);
  spec.chunk_elements = std::min(spec.chunk_elements, spec.block_elements);
  const std::uint64_t chunks =
      (spec.block_elements + spec.chunk_elements - 1) / spec.chunk_elements;
  if (chunks > kMaxStepsPerBlock) {
    (block   ? *block
     : chunk ? *chunk
             : w)
        .fail(fmt::format("a block would load {} chunks of {} elements; at most {} fit a block's "
                          "program",
                          chunks, spec.chunk_elements, kMaxStepsPerBlock),
              "use a larger chunk_elements or a smaller block_elements");
  }
  spec.threads = std::min<std::uint64_t>(256, spec.chunk_elements);
  if (auto threads = w.optional("threads")) {
    spec.threads = threads->positive_count();
    if (spec.threads > (1u << 24)) threads->fail("must be at most 16777216");
  }
  return spec;
}

StreamSpec WorkloadParser<StreamSpec>::parse(const ConfigNode& w) {
  StreamSpec spec;
  std::vector<std::string_view> kernels;
  for (StreamKernel k : {StreamKernel::read, StreamKernel::write, StreamKernel::copy,
                         StreamKernel::scale, StreamKernel::add, StreamKernel::triad}) {
    kernels.push_back(name_of(k));
  }
  spec.kernel = *stream_kernel_named(w.required("kernel").choice(kernels));
  const ConfigNode length = w.required("length");
  spec.length = length.positive_count();
  if (spec.length > kMaxElements) length.fail("must be at most 2^40 elements");
  spec.dtype = parse_data_type(w.required("dtype"));
  const ConfigNode threads = w.required("threads");
  spec.threads = threads.positive_count();
  if (spec.threads > (1u << 24)) threads.fail("must be at most 16777216");
  if (auto per_thread = w.optional("elements_per_thread")) {
    spec.elements_per_thread = per_thread->positive_count_at_most(1u << 16);
  }
  if (spec.block_elements() > kMaxElements) {
    threads.fail(fmt::format("a block would hold {} x {} elements, more than 2^40", spec.threads,
                             spec.elements_per_thread),
                 "use fewer threads or elements a thread");
  }
  return spec;
}

WorkloadSpec parse_workload_fields(const ConfigNode& w) {
  std::vector<std::string_view> names;
  for_each_workload_kind(
      [&](auto kind) { names.push_back(KindOf<typename decltype(kind)::type>::name); });
  const std::string name = w.required("kind").choice(names);
  std::optional<WorkloadSpec> spec;
  for_each_workload_kind([&](auto kind) {
    using Spec = typename decltype(kind)::type;
    if (name == KindOf<Spec>::name) spec = WorkloadParser<Spec>::parse(w);
  });
  w.reject_unknown_keys();
  return *spec;  // set: `kind` is one of the kinds' names
}

WorkloadSpec parse_workload(const ConfigNode& w) {
  WorkloadSpec spec = parse_workload_fields(w);
  if (auto violation = check_rules(spec))
    w.find(violation->key_path).fail(violation->rule, violation->fix);
  return spec;
}

void check_workload_inputs(const std::function<ConfigNode()>& document, WorkloadSpec& spec,
                           const HardwareParams& hardware) {
  std::visit(
      [&](auto& s) {
        WorkloadParser<std::decay_t<decltype(s)>>::check_inputs(document, s, hardware);
      },
      spec);
}

std::vector<WorkloadInputFile> workload_input_files(const WorkloadSpec& spec) {
  return std::visit(
      [](const auto& s) { return WorkloadParser<std::decay_t<decltype(s)>>::input_files(s); },
      spec);
}

}  // namespace ridgeline
