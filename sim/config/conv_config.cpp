#include "sim/config/conv_config.hpp"

#include "workloads/conv_auto_tile.hpp"

namespace ridgeline {

namespace {

constexpr std::uint64_t kMaxSize = std::uint64_t{1} << 24;  // a dimension, as a GEMM's

}  // namespace

ConvSpec WorkloadParser<ConvSpec>::parse(const ConfigNode& w) {
  ConvSpec spec;
  if (auto batch = w.optional("batch")) spec.batch = batch->positive_count_at_most(kMaxSize);
  spec.channels = w.required("channels").positive_count_at_most(kMaxSize);
  spec.height = w.required("height").positive_count_at_most(kMaxSize);
  spec.width = w.required("width").positive_count_at_most(kMaxSize);
  spec.filters = w.required("filters").positive_count_at_most(kMaxSize);
  // kernel: 3 (3 x 3), or {r: 1, s: 7}.
  const ConfigNode kernel = w.required("kernel");
  if (kernel.yaml().IsScalar()) {
    spec.kernel_r = spec.kernel_s = kernel.positive_count_at_most(kMaxSize);
  } else {
    spec.kernel_r = kernel.required("r").positive_count_at_most(kMaxSize);
    spec.kernel_s = kernel.required("s").positive_count_at_most(kMaxSize);
    kernel.reject_unknown_keys();
  }
  if (auto stride = w.optional("stride")) spec.stride = stride->positive_count_at_most(kMaxSize);
  if (auto padding = w.optional("padding")) {
    spec.padding = padding->count();
    if (spec.padding > kMaxSize) padding->fail("must be at most 16777216 (2^24)");
  }
  spec.dtype = parse_data_type(w.required("dtype"));
  spec.accumulator = default_accumulator(spec.dtype);
  if (auto accumulator = w.optional("accumulator"))
    spec.accumulator = parse_data_type(*accumulator);

  // The blocks: given as a tiled GEMM's, chosen for the machine (`tile: auto`, check_inputs), or
  // the default tiling (apply_default_tiling), which needs the output's size: a filter larger
  // than the padded input is left to check_rules.
  const std::optional<ConfigNode> tile = w.optional("tile");
  if (tile && tile->yaml().IsScalar()) {
    tile->choice({"auto"});
    refuse_beside_tile_auto(w, {"stages", "register_tile", "warp_tile"});
    spec.tile_auto = true;
    spec.stages = 0;
    spec.register_tile = RegisterTile{0, 0};
  } else if (tile) {
    spec.tile = parse_tile_shape(*tile);
    if (auto registers = w.optional("register_tile"))
      spec.register_tile = parse_register_tile(*registers);
    if (auto warp = w.optional("warp_tile")) spec.warp_tile = parse_warp_tile(*warp);
  } else {
    for (const char* key : {"register_tile", "warp_tile"}) {
      if (auto node = w.optional(key)) {
        node->fail("nests in the tile, which is left to the default here",
                   "give the tile as {m, n, k} with it, or leave it out");
      }
    }
    apply_default_tiling(spec);
  }
  if (auto stages = w.optional("stages")) {
    spec.stages = static_cast<std::uint32_t>(stages->positive_count_at_most(kMaxStepsPerBlock));
  } else if (tile && !spec.tile_auto) {
    spec.stages = spec.steps() > 1 ? 2 : 1;
  }
  const ThreadRegisterKeys registers = parse_thread_register_keys(w);
  spec.register_overhead = registers.overhead;
  spec.registers_per_thread = registers.given;
  spec.spill = registers.spill;
  // The rules between these values are check_rules(ConvSpec).
  return spec;
}

void WorkloadParser<ConvSpec>::check_inputs(const std::function<ConfigNode()>& document,
                                            ConvSpec& spec, const HardwareParams& hardware) {
  // A machine without the data type is refused for that (check_data_type), not here.
  if (!spec.awaits_choice() || hardware.core.compute.flops_per_cycle[index_of(spec.dtype)] == 0)
    return;
  std::optional<ConvSpec> chosen = choose_conv_tile(spec, hardware);
  if (!chosen) fail_no_tile_fits(document, hardware);
  spec = std::move(*chosen);
}

}  // namespace ridgeline
