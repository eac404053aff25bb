#include "workloads/gemm_stream_k.hpp"

#include <algorithm>

#include "workloads/element_grid.hpp"
#include "workloads/gemm_tiles.hpp"
#include "workloads/staged_loop.hpp"

namespace ridgeline {

StreamKPlan stream_k_plan(const GemmSpec& s) {
  const GemmGrid g = grid_of(s);
  const std::uint64_t tiles = s.batch.count * g.rows * g.cols;
  const std::uint64_t workers = s.decomposition.workers;
  const unsigned __int128 iterations = static_cast<unsigned __int128>(tiles) * g.steps;
  StreamKPlan plan;
  plan.workers.resize(workers);
  plan.helpers.resize(tiles);
  for (std::uint64_t w = 0; w < workers; ++w) {
    auto begin = static_cast<std::uint64_t>(iterations * w / workers);
    const auto end = static_cast<std::uint64_t>(iterations * (w + 1) / workers);
    while (begin < end) {
      const std::uint64_t tile = begin / g.steps, step = begin % g.steps;
      const std::uint64_t steps = std::min(g.steps - step, end - begin);
      plan.workers[w].push_back(StreamKSegment{tile, step, steps});
      if (step != 0) plan.helpers[tile].push_back(w);
      begin += steps;
    }
  }
  return plan;
}

namespace {

// The output tile `tile` as a block of the data-parallel grid: its block row and column.
BlockCoord tile_block(const GemmGrid& g, std::uint64_t tile) {
  return BlockCoord{tile / g.cols, tile % g.cols};
}

// A pattern for one block at an absolute place: `pattern` as block `block` sees it.
AddressPattern fixed(const AddressPattern& pattern, BlockCoord block) {
  AddressPattern p;
  p.region_of_block0 = pattern.for_block(block);
  return p;
}

// Bytes of a tile's outputs that lie in the matrix (edge tiles hold fewer), in `element` bytes.
std::uint64_t tile_bytes(const GemmSpec& s, BlockCoord block, std::uint64_t element) {
  const std::uint64_t row = block.row % grid_of(s).rows;
  return std::min(s.tile.m, s.m - row * s.tile.m) * std::min(s.tile.n, s.n - block.col * s.tile.n) *
         element;
}

// Helper w's slot in the workspace: a tile of partial sums, packed.
AddressPattern partial_slot(const GemmSpec& s, const GemmTiles& tiles, BlockCoord block,
                            std::uint64_t worker) {
  const std::uint64_t a = element_bytes(s.accumulator);
  const std::uint64_t row = block.row % tiles.grid().rows;
  const std::uint64_t rows = std::min(s.tile.m, s.m - row * s.tile.m);
  const std::uint64_t row_bytes = std::min(s.tile.n, s.n - block.col * s.tile.n) * a;
  AddressPattern p;
  p.region_of_block0 = Region{tiles.layout().workspace + worker * s.tile.m * s.tile.n * a, rows,
                              row_bytes, s.tile.n * a, 1};
  return p;
}

Program worker_program(const GemmSpec& s, const GemmTiles& tiles, const StreamKPlan& plan,
                       std::uint64_t worker, const Footprint& f, const KernelTarget& target) {
  const GemmGrid& g = tiles.grid();
  const TileShape& t = s.tile;
  ProgramBuilder builder({"A", "B", "C", "local", "partial"});
  constexpr std::uint8_t kA = 0, kB = 1, kC = 2, kLocal = 3, kPartial = 4;
  StagedLoopShape shape;
  shape.stages = s.stages;
  shape.barrier = target.barrier;
  if (f.spilled_registers_per_thread > 0) {
    const std::uint64_t bytes = f.threads * f.spilled_registers_per_thread * kRegisterBytes;
    LocalSpill spill{kLocal, {}};
    spill.region.region_of_block0 =
        Region::contiguous(tiles.layout().local + worker * bytes, bytes);
    shape.spill = spill;
  }
  // One pipelined loop over the whole range: the next tile's loads go on under this one's
  // computes, as a persistent kernel's mainloop runs across tiles.
  StagedLoop loop(builder, shape);
  // Every K-step's compute reads the same operands and issues the same instructions.
  const std::uint64_t step_reads = tiles.sram_reads_per_step(target.warp_size);
  const std::uint64_t step_instructions = warp_instructions_per_step_of(s, target.warp_size);
  for (const StreamKSegment& segment : plan.workers[worker]) {
    const BlockCoord block = tile_block(g, segment.tile);
    for (std::uint64_t k = segment.first_step; k < segment.first_step + segment.steps; ++k) {
      const auto label = static_cast<std::uint32_t>(k);
      loop.add_step({Op::load(kA, label, fixed(tiles.a_tile(k, 0, k), block), tiles.a_lands()),
                     Op::load(kB, label, fixed(tiles.b_tile(k, 0, k), block), tiles.b_lands())},
                    Op::compute(label, 2 * t.m * t.n * t.k, step_reads).issuing(step_instructions));
    }
    const std::uint32_t result = loop.last_compute();
    FlagPattern flag;
    flag.base = segment.tile;
    const auto last = static_cast<std::uint32_t>(segment.first_step + segment.steps - 1);
    if (!segment.owner()) {
      // A helper: its partial sums to its own slot, then the tile's flag.
      const std::uint32_t store =
          builder.add(Op::store(kPartial, last, partial_slot(s, tiles, block, worker)));
      builder.depend(result, store, EdgeKind::data);
      const std::uint32_t signal = builder.add(Op::signal(last, flag));
      builder.depend(store, signal, EdgeKind::data);
      continue;
    }
    std::uint32_t before_store = result;
    const std::vector<std::uint64_t>& helpers = plan.helpers[segment.tile];
    if (!helpers.empty()) {
      // The owner: every helper's partial sums, once all have signalled, added to its own.
      const std::uint32_t wait =
          builder.add(Op::wait(last, flag, static_cast<std::uint32_t>(helpers.size())));
      builder.depend(result, wait, EdgeKind::data);
      const std::uint32_t add =
          builder.add(Op::compute(last, helpers.size() * t.m * t.n, 0).in_type(DataType::fp32));
      builder.depend(result, add, EdgeKind::data);
      for (std::uint64_t helper : helpers) {
        const std::uint32_t load =
            builder.add(Op::load(kPartial, static_cast<std::uint32_t>(helper),
                                 partial_slot(s, tiles, block, helper), 0));
        builder.depend(wait, load, EdgeKind::data);
        builder.depend(load, add, EdgeKind::data);
      }
      before_store = add;
    }
    const std::uint32_t store = builder.add(
        Op::store(kC, static_cast<std::uint32_t>(segment.tile), fixed(tiles.c_tile(), block)));
    builder.depend(before_store, store, EdgeKind::data);
  }
  return builder.compile();
}

}  // namespace

Analysis analyze_stream_k(const GemmSpec& s, const Roof& roof, const KernelTarget& target) {
  // The operands and C as the data-parallel grid moves them, then the helpers' hand-over.
  GemmSpec whole = s;
  whole.decomposition = DecompositionParams{};
  Analysis a = analyze(whole, roof, target);
  const GemmGrid g = grid_of(s);
  const StreamKPlan plan = stream_k_plan(s);
  const std::uint64_t acc = element_bytes(s.accumulator);
  std::uint64_t partials = 0;
  for (std::uint64_t tile = 0; tile < plan.helpers.size(); ++tile) {
    const std::uint64_t helpers = plan.helpers[tile].size();
    partials += helpers * tile_bytes(s, tile_block(g, tile), acc);
    a.vector_flops += helpers * s.tile.m * s.tile.n;
  }
  a.hbm_read_bytes += partials;
  a.hbm_register_read_bytes += partials;  // the owners add them in registers
  a.hbm_write_bytes += partials;
  a.issued_flops += a.vector_flops;
  a.roofline =
      roofline(a.flops, a.issued_flops, a.hbm_bytes(), roof, a.vector_flops, a.warp_instructions);
  // One loop a worker: spilled registers travel once per K-step after each worker's first.
  const std::uint64_t spill_bytes =
      a.footprint.threads * a.footprint.spilled_registers_per_thread * kRegisterBytes;
  const std::uint64_t iterations = s.batch.count * g.rows * g.cols * g.steps;
  a.local_read_bytes = a.local_write_bytes = (iterations - s.decomposition.workers) * spill_bytes;
  return a;
}

Kernel build_stream_k_kernel(const GemmSpec& s, const KernelTarget& target) {
  const GemmTiles tiles(s);
  const StreamKPlan plan = stream_k_plan(s);
  const Footprint f = footprint(s, target);
  Kernel kernel;
  kernel.name = describe(s);
  kernel.compute_type = s.dtype;
  kernel.grid_rows = plan.workers.size();
  kernel.grid_cols = 1;
  kernel.program = worker_program(s, tiles, plan, 0, f, target);
  for (std::uint64_t w = 1; w < plan.workers.size(); ++w) {
    kernel.bands.push_back(ProgramBand{w, worker_program(s, tiles, plan, w, f, target)});
  }
  kernel.flags = plan.helpers.size();
  take_block_resources(kernel, f);
  return kernel;
}

}  // namespace ridgeline
