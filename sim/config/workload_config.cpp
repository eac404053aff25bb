#include "sim/config/workload_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string_view>

#include "sim/config/attention_config.hpp"
#include "sim/config/conv_config.hpp"
#include "sim/config/elementwise_config.hpp"
#include "sim/config/gather_config.hpp"
#include "sim/config/memory_trace_config.hpp"
#include "sim/config/quantity.hpp"
#include "sim/config/row_reduction_config.hpp"
#include "sim/config/run_config.hpp"
#include "workloads/gemm_auto_tile.hpp"

namespace ridgeline {

template <>
struct WorkloadParser<GemmSpec> {
  static GemmSpec parse(const ConfigNode& workload);
  /// Resolves what the spec leaves to the machine: `tile: auto`'s choice, stream-K's workers
  /// (as many as the machine holds at once), which must all be resident together.
  static void check_inputs(const std::function<ConfigNode()>& document, GemmSpec& spec,
                           const HardwareParams& hardware);
  static std::vector<WorkloadInputFile> input_files(const GemmSpec&) { return {}; }
};
template <>
struct WorkloadParser<VectorAddSpec> : ReadsNoFiles {
  static VectorAddSpec parse(const ConfigNode& workload);
};
template <>
struct WorkloadParser<StreamSpec> : ReadsNoFiles {
  static StreamSpec parse(const ConfigNode& workload);
};

DataType parse_data_type(const ConfigNode& node) {
  std::vector<std::string_view> names;
  for (DataType type : kAllDataTypes) names.push_back(name_of(type));
  return *data_type_named(node.choice(names));
}

TensorShape parse_shape(const ConfigNode& node) {
  const std::vector<ConfigNode> items = node.items("dimensions");
  if (items.empty() || items.size() > 4) {
    node.fail(fmt::format("a shape has 1 to 4 dimensions, not {}", items.size()),
              "e.g. [4096, 1024]");
  }
  TensorShape shape;
  for (const ConfigNode& item : items) {
    shape.dims.push_back(item.positive_count_at_most(std::uint64_t{1} << 32));
  }
  return shape;
}

namespace {

constexpr std::uint64_t kMaxElements = std::uint64_t{1} << 40;  // keeps every byte count in 64 bits

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

// batch: N, batch_stride: {a, b, c} in elements (each optional: packed).
void parse_batch(const ConfigNode& w, GemmSpec& spec) {
  if (auto batch = w.optional("batch")) spec.batch.count = batch->positive_count_at_most(1u << 24);
  if (auto strides = w.optional("batch_stride")) {
    if (spec.batch.count == 1) {
      strides->fail("applies to a batch of GEMMs (batch > 1)", "remove it, or give batch");
    }
    auto stride = [&](const char* key) -> std::optional<std::uint64_t> {
      auto node = strides->optional(key);
      if (!node) return std::nullopt;
      const std::uint64_t value = node->count();
      if (value > (std::uint64_t{1} << 48)) node->fail("must be at most 2^48 elements");
      return value;
    };
    spec.batch.stride_a = stride("a");
    spec.batch.stride_b = stride("b");
    spec.batch.stride_c = stride("c");
    strides->reject_unknown_keys();
  }
}

// epilogue: [{operation: add, operand: bias}, {operation: gelu}], at most 4 steps: an
// elementwise operation each; a binary one names its second operand, a unary one none.
std::vector<EpilogueStep> parse_epilogue(const ConfigNode& node) {
  const std::vector<ConfigNode> items = node.items("epilogue steps");
  if (items.empty() || items.size() > 4) {
    node.fail(fmt::format("an epilogue has 1 to 4 steps, not {}", items.size()),
              "e.g. [{operation: add, operand: bias}, {operation: gelu}]");
  }
  std::vector<EpilogueStep> steps;
  for (const ConfigNode& item : items) {
    EpilogueStep step;
    step.op = *elementwise_op_named(item.required("operation").choice(elementwise_op_names()));
    const bool binary = info_of(step.op).inputs == 2;
    if (auto operand = item.optional("operand")) {
      if (!binary) {
        operand->fail(fmt::format("{} takes one input, C", info_of(step.op).name), "remove it");
      }
      step.operand = operand->choice({"bias", "residual"}) == "bias"
                         ? EpilogueStep::Operand::bias
                         : EpilogueStep::Operand::residual;
    } else if (binary) {
      item.fail(fmt::format("missing key 'operand': {} takes a second input beside C",
                            info_of(step.op).name),
                "add operand: bias (a vector of N) or operand: residual (a matrix like C)");
    }
    item.reject_unknown_keys();
    steps.push_back(step);
  }
  return steps;
}

// decomposition: {kind: data_parallel | split_k | stream_k, splits: S, workers: W}.
DecompositionParams parse_decomposition(const ConfigNode& node) {
  DecompositionParams d;
  const std::string kind = node.required("kind").choice({"data_parallel", "split_k", "stream_k"});
  d.kind = kind == "split_k"    ? GemmDecomposition::split_k
           : kind == "stream_k" ? GemmDecomposition::stream_k
                                : GemmDecomposition::data_parallel;
  if (d.kind == GemmDecomposition::split_k) {
    d.splits = node.required("splits").positive_count_at_most(kMaxStepsPerBlock);
  } else if (auto splits = node.optional("splits")) {
    splits->fail("applies only to kind: split_k", "remove it, or use kind: split_k");
  }
  if (auto workers = node.optional("workers")) {
    if (d.kind != GemmDecomposition::stream_k)
      workers->fail("applies only to kind: stream_k", "remove it, or use kind: stream_k");
    d.workers = workers->positive_count_at_most(1u << 20);
  }
  node.reject_unknown_keys();
  return d;
}

}  // namespace

ThreadRegisterKeys parse_thread_register_keys(const ConfigNode& w) {
  ThreadRegisterKeys keys;
  if (auto overhead = w.optional("register_overhead")) {
    const std::uint64_t value = overhead->count();
    if (value > (1u << 16)) overhead->fail("must be at most 65536");
    keys.overhead = static_cast<std::uint32_t>(value);
  }
  if (auto given = w.optional("registers_per_thread")) {
    const std::uint64_t value = given->positive_count();
    if (value > (1u << 16)) given->fail("must be at most 65536");
    if (w.optional("register_overhead")) {
      given->fail("gives the count outright, so register_overhead would be ignored",
                  "keep one of the two");
    }
    keys.given = value;
  }
  if (auto spill = w.optional("spill")) {
    keys.spill =
        spill->choice({"refuse", "local"}) == "local" ? SpillPolicy::local : SpillPolicy::refuse;
  }
  return keys;
}

TileShape parse_tile_shape(const ConfigNode& tile) {
  const ConfigNode tile_m = tile.required("m");
  const ConfigNode tile_n = tile.required("n");
  const ConfigNode tile_k = tile.required("k");
  const TileShape shape{tile_m.positive_count(), tile_n.positive_count(), tile_k.positive_count()};
  tile.reject_unknown_keys();
  return shape;
}

RegisterTile parse_register_tile(const ConfigNode& registers) {
  const ConfigNode r_m = registers.required("m");
  const ConfigNode r_n = registers.required("n");
  const RegisterTile tile{r_m.positive_count(), r_n.positive_count()};
  registers.reject_unknown_keys();
  return tile;
}

WarpTile parse_warp_tile(const ConfigNode& warp) {
  const ConfigNode w_m = warp.required("m");
  const ConfigNode w_n = warp.required("n");
  WarpTile tile{w_m.positive_count(), w_n.positive_count()};
  // 1: a warp's matrix instruction; 4: a Hopper warpgroup's (wgmma).
  if (auto warps = warp.optional("warps")) tile.warps = warps->choice({"1", "4"}) == "4" ? 4 : 1;
  warp.reject_unknown_keys();
  return tile;
}

namespace {

// Registers per thread (docs/CONFIG.md): overhead, an outright count, what happens above the limit.
void parse_thread_registers(const ConfigNode& w, GemmSpec& spec) {
  const ThreadRegisterKeys keys = parse_thread_register_keys(w);
  spec.register_overhead = keys.overhead;
  spec.registers_per_thread = keys.given;
  spec.spill = keys.spill;
}

}  // namespace

void fail_no_tile_fits(const std::function<ConfigNode()>& document,
                       const HardwareParams& hardware) {
  document()
      .find("workload.tile")
      .fail(fmt::format("no candidate tile fits a core of '{}' (SRAM, registers, threads)",
                        hardware.name),
            "give the tile, or use a machine with more SRAM or registers per core");
}

// Keys `tile: auto` chooses itself: giving one beside it is an error at that key.
void refuse_beside_tile_auto(const ConfigNode& w, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    if (auto node = w.optional(key)) {
      node->fail("is chosen by tile: auto", "remove it, or give the tile instead of auto");
    }
  }
}

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

  parse_batch(w, spec);
  if (auto epilogue = w.optional("epilogue")) spec.epilogue = parse_epilogue(*epilogue);
  // promotion_interval: K elements, or none; an FP8 tiled GEMM promotes every 128 by default
  // (kFp8PromotionInterval), but for stream-K, which does not model it (below).
  const std::optional<ConfigNode> promotion = w.optional("promotion_interval");
  if (promotion) {
    const std::string text = promotion->text();
    if (text != "none") {
      try {
        parse_count(text);
      } catch (const QuantityError&) {
        promotion->fail("is neither a count of K elements nor none",
                        "give the K elements between promotions (128 on Hopper), or none");
      }
      spec.promotion_interval = promotion->positive_count_at_most(kMaxPromotionInterval);
    }
  } else if (spec.dtype == DataType::fp8 && spec.strategy == GemmStrategy::tiled) {
    spec.promotion_interval = kFp8PromotionInterval;
  }
  const ConfigNode tile = w.required("tile");
  if (tile.yaml().IsScalar()) {
    tile.choice({"auto"});
    if (spec.strategy != GemmStrategy::tiled) {
      tile.fail(
          fmt::format("auto chooses tiles for strategy: tiled, not {}", name_of(spec.strategy)),
          "use strategy: tiled, or give the tile as {m, n, k}");
    }
    refuse_beside_tile_auto(w,
                            {"stages", "register_tile", "warp_tile", "cluster", "decomposition"});
    spec.tile_auto = true;
    spec.tile = TileShape{0, 0, 0};
    spec.register_tile = RegisterTile{0, 0};
    spec.stages = 0;
    parse_thread_registers(w, spec);
    if (auto order = w.optional("block_order")) {
      spec.block_order = parse_block_order(*order);
    } else {
      spec.block_order_auto = true;
    }
    return spec;
  }
  spec.tile = parse_tile_shape(tile);

  const ConfigNode stages = w.required("stages");
  spec.stages = static_cast<std::uint32_t>(stages.positive_count_at_most(kMaxStepsPerBlock));
  if (auto decomposition = w.optional("decomposition"))
    spec.decomposition = parse_decomposition(*decomposition);
  if (!promotion && spec.decomposition.kind == GemmDecomposition::stream_k)
    spec.promotion_interval = 0;

  if (auto registers = w.optional("register_tile")) {
    if (spec.strategy == GemmStrategy::no_reuse) {
      registers->fail("no_reuse reads every operand from memory for each multiply",
                      "use strategy: register_tiled for local blocking without shared memory");
    }
    spec.register_tile = parse_register_tile(*registers);
  }
  if (auto warp = w.optional("warp_tile")) {
    if (spec.strategy != GemmStrategy::tiled) {
      warp->fail(
          fmt::format("{} reads no operand from SRAM for a warp to share", name_of(spec.strategy)),
          "use strategy: tiled, or leave warp_tile out");
    }
    spec.warp_tile = parse_warp_tile(*warp);
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

void WorkloadParser<GemmSpec>::check_inputs(const std::function<ConfigNode()>& document,
                                            GemmSpec& spec, const HardwareParams& hardware) {
  // A machine without the data type is refused for that (check_data_type), not here.
  if (hardware.core.compute.flops_per_cycle[index_of(spec.dtype)] == 0) return;
  if (spec.awaits_choice()) {
    std::optional<GemmSpec> chosen = choose_tile(spec, hardware);
    if (!chosen) fail_no_tile_fits(document, hardware);
    spec = std::move(*chosen);
  }
  if (spec.decomposition.kind != GemmDecomposition::stream_k) return;
  // The owners of split tiles wait for workers after them: all must be resident at once.
  GemmSpec one = spec;
  one.decomposition = DecompositionParams{};
  const Occupancy resident =
      occupancy_on(hardware, analyze_on(hardware, WorkloadSpec{one}).footprint);
  const std::uint64_t holds = resident.blocks_per_core * hardware.cores;
  if (resident.blocks_per_core == 0) return;  // one block does not fit: check_fits says so
  if (spec.decomposition.workers == 0) {
    // As many as the machine holds, but no more than leaves each worker `stages` K-steps.
    const GemmGrid g = grid_of(spec);
    spec.decomposition.workers = std::max<std::uint64_t>(
        1, std::min(holds, spec.batch.count * g.rows * g.cols * g.steps / spec.stages));
  } else if (spec.decomposition.workers > holds) {
    document()
        .find("workload.decomposition.workers")
        .fail(
            fmt::format("stream-K's workers wait for each other, so all must be resident at once; "
                        "'{}' holds {} blocks of this kernel ({} cores x {} limited by {})",
                        hardware.name, holds, hardware.cores, resident.blocks_per_core,
                        resident.limited_by),
            fmt::format("use at most {} workers, or leave workers out", holds));
  }
  if (auto violation = check_rules(spec)) {
    document().find(violation->key_path).fail(violation->rule, violation->fix);
  }
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
  const ConfigNode kind_node = w.required("kind");
  // A graph of kernels (sim/graph/) is read by `analyze` and `run` themselves, never here.
  if (const std::string given = kind_node.text();
      given == "graph" || given == "transformer" || given == "onnx") {
    kind_node.fail(
        "is a graph of kernels, which `ridgeline analyze` and `ridgeline run` take; "
        "this command takes single kernels",
        "run the graph with analyze or run, or one of its kernels here");
  }
  const std::string name = kind_node.choice(names);
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
