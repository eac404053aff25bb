#include "workloads/gemm_auto_tile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

// Sizes from `sizes` no larger than `whole`, or `whole` alone when it is below them all.
std::vector<std::uint64_t> tile_sizes(std::initializer_list<std::uint64_t> sizes,
                                      std::uint64_t whole) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t size : sizes) {
    if (size <= whole) out.push_back(size);
  }
  if (out.empty()) out.push_back(whole);
  return out;
}

// "16x128x64, 4 stages, warp tile 16x32 (1x4 a thread), split-K 8".
std::string candidate_label(const GemmSpec& s) {
  std::string text =
      fmt::format("{}x{}x{}, {}", s.tile.m, s.tile.n, s.tile.k, counted(s.stages, "stage"));
  if (s.warp_tile) {
    text += fmt::format(", {} tile {}x{} ({}x{} a thread)",
                        s.warp_tile->warps == 1 ? "warp" : "warpgroup", s.warp_tile->m,
                        s.warp_tile->n, s.register_tile.m, s.register_tile.n);
  }
  if (s.cluster.blocks() > 1) text += fmt::format(", cluster {}x{}", s.cluster.m, s.cluster.n);
  if (s.block_order.kind == BlockOrderKind::grouped)
    text += fmt::format(", blocks grouped by {}", s.block_order.group);
  if (s.decomposition.splits > 1) text += fmt::format(", split-K {}", s.decomposition.splits);
  return text;
}

std::string estimate_text(const TileEstimate& e) {
  return fmt::format("estimated {:.4g} us, bound by {}", e.time_s * 1e6, e.limited_by);
}

// A candidate the machine can run: the spec's rules hold, its threads and registers are within
// the cores' limits without a spill, and one block fits a core.
bool runs_on(const GemmSpec& s, const HardwareParams& hw, const Footprint& f) {
  if (check_rules(s) || WorkloadKind<GemmSpec>::check_threads(s, hw.threads)) return false;
  if (hw.threads.max_threads_per_block != 0 && f.threads > hw.threads.max_threads_per_block)
    return false;
  if (f.spilled_registers_per_thread > 0) return false;
  const Occupancy o =
      occupancy(f, CoreCapacity{hw.core.sram.capacity_bytes, hw.core.registers.capacity_bytes,
                                hw.core.max_resident_blocks, hw.core.max_warps});
  return o.blocks_per_core > 0;
}

// The register tile of a warp tile: the warp's threads as a TM x TN grid over it, the squarest
// one (fewest operand fragments a thread) that divides it; 0 x 0 when none does.
RegisterTile register_tile_of(std::uint64_t w_m, std::uint64_t w_n, std::uint64_t threads) {
  RegisterTile best{0, 0};
  for (std::uint64_t tm = 1; tm <= threads; tm *= 2) {
    if (threads % tm != 0) continue;
    const std::uint64_t tn = threads / tm;
    if (w_m % tm != 0 || w_n % tn != 0) continue;
    const RegisterTile r{w_m / tm, w_n / tn};
    if (best.m == 0 || r.m + r.n < best.m + best.n) best = r;
  }
  return best;
}

// A candidate's place in the enumeration: tile m, n, k, warps, rows of warps, warpgroup sharing.
using CandidateKey = std::array<std::uint64_t, 6>;

struct Scored {
  GemmSpec spec;
  TileEstimate estimate;
  std::uint64_t blocks = 0;
  CandidateKey key{};
};

// Faster first; ties to the most room on the other terms, then to fewer splits, fewer blocks,
// fewer stages, fewer threads, then to the smaller key (the smaller tile first), so that the
// choice does not depend on the order the candidates are estimated in.
bool better(const Scored& a, const Scored& b) {
  if (a.estimate.time_s != b.estimate.time_s) return a.estimate.time_s < b.estimate.time_s;
  // Equal times have the same binding term: then the one with more room on the others, which
  // a run's queues take when two of them are near their limits.
  if (const auto ranked_a = ranked_terms(a.estimate), ranked_b = ranked_terms(b.estimate);
      ranked_a != ranked_b)
    return ranked_a < ranked_b;
  if (a.spec.decomposition.splits != b.spec.decomposition.splits)
    return a.spec.decomposition.splits < b.spec.decomposition.splits;
  if (a.blocks != b.blocks) return a.blocks < b.blocks;
  if (a.spec.stages != b.spec.stages) return a.spec.stages < b.spec.stages;
  const std::uint64_t threads_a = threads_per_block(a.spec), threads_b = threads_per_block(b.spec);
  if (threads_a != threads_b) return threads_a < threads_b;
  return a.key < b.key;
}

// A K-step's compute on one core, in seconds, from the analysis of a kernel of `block_steps`
// block-steps (a block's K-steps, all blocks): its FLOPs at the unit's rate, its SRAM operand
// reads and tile landings at the ports, its warp instructions at the issue rate (where those are
// counted and modelled), and an FP8 kernel's promotions on the vector units.
struct StepCompute {
  double flops_s = 0;
  double sram_s = 0;
  double issue_s = 0;
  double promotion_s = 0;
  /// The step's compute: the longest of the first three, then the promotions, the next MMA after
  /// them.
  double total_s() const { return std::max({flops_s, sram_s, issue_s}) + promotion_s; }
};
StepCompute step_compute(const GemmSpec& s, const HardwareParams& hw, const Analysis& a,
                         double block_steps) {
  const double clock_hz = static_cast<double>(hw.core_clock.frequency_hz);
  const auto rate = [&](DataType type) {
    return static_cast<double>(hw.core.compute.flops_per_cycle[index_of(type)]) * clock_hz;
  };
  StepCompute c;
  c.flops_s = static_cast<double>(a.issued_flops - a.vector_flops) / block_steps / rate(s.dtype);
  const double read_s = static_cast<double>(a.sram_read_bytes) / block_steps /
                        (static_cast<double>(hw.core.sram.read_bytes_per_cycle) * clock_hz);
  const double write_s = static_cast<double>(a.sram_write_bytes) / block_steps /
                         (static_cast<double>(hw.core.sram.write_bytes_per_cycle) * clock_hz);
  c.sram_s = hw.core.sram.shared_port ? read_s + write_s : std::max(read_s, write_s);
  // Or held by the issue of its warp instructions, where those are counted and modelled.
  const auto issue_rate = static_cast<double>(hw.core.compute.warp_instructions_per_cycle);
  c.issue_s = issue_rate > 0
                  ? static_cast<double>(a.warp_instructions) / block_steps / (issue_rate * clock_hz)
                  : 0;
  // An FP8 kernel's promotions follow its MMAs on the vector units, the next MMA after them.
  c.promotion_s = static_cast<double>(promotion_flops(s)) / block_steps / rate(DataType::fp32);
  return c;
}

// A split-K's partial sums (`partial_bytes`, partial_sum_bytes) are read back moments after they
// are written: where they all fit the L2, it holds them (written back, if ever, after the kernel)
// and they never reach HBM.
bool partials_fit_l2(std::uint64_t partial_bytes, const HardwareParams& hw) {
  return partial_bytes > 0 && hw.l2 && partial_bytes <= hw.l2->capacity_bytes;
}

// The last split reads the others' partial sums after its own K loop: one latency (`latency`,
// the HBM's path), then the bytes at the core's share of the bandwidth of the level that holds
// them (the L2's, from the partition they were written to, when `in_l2`, or the HBM's).
double split_reduction_s(const GemmSpec& s, const HardwareParams& hw, std::uint64_t active_cores,
                         double latency, bool in_l2) {
  const double partials = static_cast<double>((s.decomposition.splits - 1) * s.tile.m * s.tile.n *
                                              element_bytes(s.accumulator));
  return in_l2 ? hw.l2->far_hit_latency.seconds() +
                     partials * static_cast<double>(active_cores) /
                         static_cast<double>(hw.l2->bandwidth.bytes_per_second)
               : latency + partials * static_cast<double>(active_cores) / hw.hbm_bytes_per_s();
}

// The latency a stage must cover is a miss's. A tile's lines span the L2's partitions, so its
// first read of them reaches the far one, and its data is there when the later of two paths
// answers, the HBM's or the far partition's: they run at once, as in the L2's model. (Its
// re-reads hit copies in the near partition, sooner.)
double miss_latency_s(const HardwareParams& hw) {
  double latency = hw.hbm.access_latency.seconds();
  if (hw.l2) latency = std::max(latency, hw.l2->far_hit_latency.seconds());
  return latency;
}

// No estimate of a candidate with a tile and warps, whatever its stages and split, is below
// this (estimate_tile's terms, each at its least):
// - the pipeline: the busiest core runs ceil(blocks / cores) of the blocks, each its K-steps'
//   compute at the least, whatever the stages hide. Splitting changes the blocks, not the
//   kernel's FLOPs, SRAM bytes or warp instructions, so one analysis of the candidate unsplit
//   serves every split;
// - the L2's port: every tile's reads, and a split's partial sums written and read back;
// - a split's HBM bytes: the note's Q (a split reads every tile's panels: the L2's reuse of them
//   is not estimated for split-K), with the partial sums where the L2 cannot hold them;
// - one round of launches, and a split's reduction after its loop.
// The chooser estimates only candidates whose bound is not above the best of their kind so far,
// which cannot change what it chooses.
class CandidateBound {
 public:
  CandidateBound(const GemmSpec& spec, const HardwareParams& hw) : hw_(hw) {
    GemmSpec unsplit = spec;
    unsplit.decomposition = DecompositionParams{};
    unsplit.stages = 1;
    const Analysis a = analyze(unsplit, roof_of(hw, spec.dtype), hw.threads);
    kernel_compute_s_ = step_compute(unsplit, hw, a, 1).total_s();
    note_bytes_ = static_cast<double>(a.hbm_bytes());
    launch_s_ = static_cast<double>(hw.core.block_launch.count +
                                    a.footprint.warps * hw.core.warp_launch.count) /
                static_cast<double>(hw.core_clock.frequency_hz);
  }
  /// The bound of `candidate` (the tile's, at some stages and split) of `blocks` blocks, a
  /// little under the terms, so that rounding never puts it above an estimate equal to them.
  double seconds(const GemmSpec& candidate, std::uint64_t blocks) const {
    const double busiest =
        static_cast<double>(ceil_div(blocks, hw_.cores)) / static_cast<double>(blocks);
    const std::uint64_t partial_bytes = partial_sum_bytes(candidate);  // 0 unsplit
    const double partials = 2 * static_cast<double>(partial_bytes);    // written, read back
    double longest = kernel_compute_s_ * busiest;
    if (hw_.l2) {
      longest = std::max(longest, (note_bytes_ + partials) /
                                      static_cast<double>(hw_.l2->bandwidth.bytes_per_second));
    }
    double tail = launch_s_;
    if (partial_bytes > 0) {
      const bool in_l2 = partials_fit_l2(partial_bytes, hw_);
      longest = std::max(longest, (note_bytes_ + (in_l2 ? 0 : partials)) / hw_.hbm_bytes_per_s());
      tail += split_reduction_s(candidate, hw_, std::min<std::uint64_t>(hw_.cores, blocks),
                                latency_s_, in_l2);
    }
    return (longest + tail) * (1 - 1e-9);
  }

 private:
  const HardwareParams& hw_;
  double latency_s_ = miss_latency_s(hw_);
  double kernel_compute_s_ = 0;  // every block-step's compute on one core
  double note_bytes_ = 0;        // the note's Q of the candidate unsplit
  double launch_s_ = 0;          // one block's launch
};

// The HBM bytes of one matrix's A and B panels with an L2. The blocks running at once (a wave of
// `wave`, in `order`) read r rows of A panels and c columns of B panels; while those fit the L2
// together, each A panel comes from HBM once, and B once in all when it stays in the L2 beside
// the wave's A panels, else once a wave. None where nothing is known to fit, and for split-K (its
// slices' order over the grid is not modelled): every tile's panels then cross HBM, the note's Q.
std::optional<double> l2_panel_bytes(const GemmSpec& s, const BlockOrderParams& order,
                                     const HardwareParams& hw, std::uint64_t wave) {
  if (!hw.l2 || s.decomposition.kind != GemmDecomposition::data_parallel) return std::nullopt;
  const GemmGrid g = grid_of(s);
  const auto capacity = static_cast<double>(hw.l2->capacity_bytes);
  const auto e = static_cast<double>(element_bytes(s.dtype));
  const auto k = static_cast<double>(s.k);
  const double panel_a = static_cast<double>(s.tile.m) * k * e;
  const double panel_b = static_cast<double>(s.tile.n) * k * e;
  wave = std::max<std::uint64_t>(1, std::min(wave, g.rows * g.cols));
  std::uint64_t r = 0, c = 0;
  switch (order.kind) {
    case BlockOrderKind::row_major:
      c = std::min(wave, g.cols);
      r = ceil_div(wave, g.cols);
      break;
    case BlockOrderKind::column_major:
      r = std::min(wave, g.rows);
      c = ceil_div(wave, g.rows);
      break;
    case BlockOrderKind::grouped:
      r = std::min({wave, g.rows, order.group});
      c = ceil_div(wave, r);
      break;
  }
  r = std::min(r, g.rows);
  c = std::min(c, g.cols);
  const double wave_a = static_cast<double>(r) * panel_a;
  const double wave_b = static_cast<double>(c) * panel_b;
  if (wave_a + wave_b > capacity) return std::nullopt;
  const double a_all = static_cast<double>(s.m) * k * e;
  const double b_all = k * static_cast<double>(s.n) * e;
  const double waves = static_cast<double>(ceil_div(g.rows * g.cols, wave));
  const double b_reads = b_all + wave_a <= capacity
                             ? b_all
                             : std::min(waves * wave_b, b_all * static_cast<double>(g.rows));
  return a_all + b_reads;
}

// The orders the chooser tries where block_order is left to it: row-major, and groups of 4, 8 and
// 16 block rows that the grid has and the cluster divides. (A fixed array: the chooser asks for
// them tens of thousands of times.)
struct CandidateOrders {
  std::array<BlockOrderParams, 4> orders{};
  std::size_t count = 0;
  const BlockOrderParams* begin() const { return orders.data(); }
  const BlockOrderParams* end() const { return orders.data() + count; }
};
CandidateOrders candidate_orders(const GemmSpec& s) {
  CandidateOrders out;
  if (!s.block_order_auto) {
    out.orders[out.count++] = s.block_order;
    return out;
  }
  out.orders[out.count++] = BlockOrderParams{};
  const std::uint64_t rows = grid_of(s).rows;
  for (std::uint64_t group : {4, 8, 16}) {
    if (group <= rows && group % s.cluster.m == 0)
      out.orders[out.count++] = BlockOrderParams{BlockOrderKind::grouped, group};
  }
  return out;
}

}  // namespace

std::array<double, 5> ranked_terms(const TileEstimate& e) {
  std::array<double, 5> terms{e.compute_s, e.sram_s, e.latency_s, e.hbm_s, e.l2_s};
  std::sort(terms.rbegin(), terms.rend());
  return terms;
}

TileEstimate estimate_tile(const GemmSpec& s, const HardwareParams& hw) {
  const Analysis a = analyze(s, roof_of(hw, s.dtype), hw.threads);
  const Occupancy o = occupancy(
      a.footprint, CoreCapacity{hw.core.sram.capacity_bytes, hw.core.registers.capacity_bytes,
                                hw.core.max_resident_blocks, hw.core.max_warps});
  const GemmGrid g = grid_of(s);
  const std::uint64_t splits =
      s.decomposition.kind == GemmDecomposition::split_k ? s.decomposition.splits : 1;
  const std::uint64_t blocks = s.batch.count * g.rows * g.cols * splits;
  const std::uint64_t per_core = ceil_div(blocks, hw.cores);
  const std::uint64_t resident = std::max<std::uint64_t>(1, std::min(o.blocks_per_core, per_core));
  const std::uint64_t active_cores = std::min<std::uint64_t>(hw.cores, blocks);
  const std::uint64_t steps = ceil_div(g.steps, splits);  // a block's K-steps (the longest)
  const auto block_steps = static_cast<double>(blocks * steps);
  const double clock_hz = static_cast<double>(hw.core_clock.frequency_hz);
  const auto rate = [&](DataType type) {
    return static_cast<double>(hw.core.compute.flops_per_cycle[index_of(type)]) * clock_hz;
  };

  TileEstimate e;
  // One K-step of one block: its compute, its tiles' bytes and their way through the memory.
  const StepCompute step_terms = step_compute(s, hw, a, block_steps);
  const double flops_step = step_terms.flops_s;
  const double sram_step = step_terms.sram_s;
  const double issue_step = step_terms.issue_s;
  const double compute_step = step_terms.total_s();
  const auto promotion = static_cast<double>(promotion_flops(s));
  const double bytes_step = static_cast<double>(a.footprint.input_bytes_per_stage);
  const double latency = miss_latency_s(hw);
  // A step's tiles at the core's share of the HBM's bandwidth, every active core streaming. (At
  // the L2's port, for the share the L2 serves, the estimate ranks shallower pipelines first,
  // which the runs do not bear out: the loaded latency grows with the load.)
  const double transfer_step =
      bytes_step * static_cast<double>(active_cores) / hw.hbm_bytes_per_s();
  // The r resident blocks share the compute unit; each block keeps `stages` K-steps of loads in
  // flight (with one stage its load waits for its compute, and neither hides the other); the
  // core keeps at most its in-flight limit outstanding (Little's law).
  const auto r = static_cast<double>(resident);
  const double shared_compute = r * compute_step;
  const double fetch = (latency + transfer_step + (s.stages == 1 ? compute_step : 0)) / s.stages;
  const double in_flight =
      r * bytes_step * latency / static_cast<double>(hw.core.max_bytes_in_flight);
  const double step = std::max({shared_compute, fetch, in_flight});
  const double rounds = static_cast<double>(ceil_div(per_core, resident));
  e.compute_s = rounds * static_cast<double>(steps) * shared_compute;
  e.latency_s = rounds * static_cast<double>(steps) * std::max(fetch, in_flight);
  e.sram_s = rounds * static_cast<double>(steps) * r * sram_step;
  // The split's adds and the epilogue, on the vector units, after the loop.
  if (static_cast<double>(a.vector_flops) > promotion) {
    e.compute_s += (static_cast<double>(a.vector_flops) - promotion) / static_cast<double>(blocks) *
                   static_cast<double>(per_core) / rate(DataType::fp32);
  }
  // HBM carries what the L2 does not serve of the tiles' panels (the note's reads, less those
  // straight into registers), the L2's port every tile's read. Where the order is the chooser's,
  // the one whose wave's panels the L2 holds best.
  const auto note_panels = static_cast<double>(a.hbm_read_bytes - a.hbm_register_read_bytes);
  double panels = note_panels;
  const CandidateOrders orders = candidate_orders(s);
  e.block_order = *orders.begin();
  for (const BlockOrderParams& order : orders) {
    const std::optional<double> cached = l2_panel_bytes(s, order, hw, active_cores * resident);
    if (!cached) continue;
    const double bytes = std::min(note_panels, static_cast<double>(s.batch.count) * *cached);
    if (bytes < panels) {
      panels = bytes;
      e.block_order = order;
    }
  }
  const std::uint64_t partial_sums = partial_sum_bytes(s);
  const auto partial_bytes = static_cast<double>(partial_sums);
  const bool partials_in_l2 = partials_fit_l2(partial_sums, hw);
  double hbm_q = panels + static_cast<double>(a.hbm_register_read_bytes) +
                 static_cast<double>(a.hbm_write_bytes);
  if (partials_in_l2) hbm_q -= 2 * partial_bytes;
  e.hbm_s = hbm_q / hw.hbm_bytes_per_s();
  const auto q = static_cast<double>(a.hbm_bytes());
  if (hw.l2) e.l2_s = q / static_cast<double>(hw.l2->bandwidth.bytes_per_second);
  const std::uint64_t launch_cycles =
      hw.core.block_launch.count + a.footprint.warps * hw.core.warp_launch.count;
  e.launch_s = rounds * static_cast<double>(launch_cycles) / clock_hz;
  if (splits > 1) e.reduction_s = split_reduction_s(s, hw, active_cores, latency, partials_in_l2);
  const double pipeline = rounds * static_cast<double>(steps) * step;
  e.limited_by = step == shared_compute ? (flops_step >= std::max(sram_step, issue_step) ? "compute"
                                           : sram_step >= issue_step                     ? "sram"
                                                                                         : "issue")
                 : step == fetch        ? "latency"
                                        : "in_flight";
  double longest = pipeline;
  for (const auto& [name, seconds] :
       {std::pair<const char*, double>{"hbm", e.hbm_s}, {"l2", e.l2_s}}) {
    if (seconds > longest) {
      longest = seconds;
      e.limited_by = name;
    }
  }
  e.time_s = longest + e.launch_s + e.reduction_s;
  return e;
}

TileCandidates gemm_tile_candidates(const GemmSpec& spec) {
  return TileCandidates{tile_sizes({16, 32, 64, 128, 256}, spec.m),
                        tile_sizes({32, 64, 128, 256}, spec.n), tile_sizes({32, 64, 128}, spec.k)};
}

std::optional<GemmSpec> choose_tile(const GemmSpec& spec, const HardwareParams& hw) {
  return choose_tile(spec, hw, gemm_tile_candidates(spec));
}

std::optional<GemmSpec> choose_tile(const GemmSpec& spec, const HardwareParams& hw,
                                    const TileCandidates& sizes) {
  const std::uint32_t warp_size = hw.threads.warp_size;
  std::optional<Scored> best;
  std::optional<Scored> best_unsplit;
  std::optional<Scored> best_split;
  std::uint64_t candidates = 0;
  std::uint64_t equal_estimates = 0;  // candidates whose estimate equals the best so far
  // Counts `scored` among those equal to the best, before it may become the best.
  const auto count_equal = [&](const Scored& scored) {
    if (!best || scored.estimate.time_s < best->estimate.time_s) {
      equal_estimates = 1;
    } else if (scored.estimate.time_s == best->estimate.time_s) {
      ++equal_estimates;
    }
  };
  // The largest tiles first: their estimates are the bounds that spare the smaller ones theirs.
  std::vector<std::uint64_t> tms = sizes.m;
  std::vector<std::uint64_t> tns = sizes.n;
  std::sort(tms.rbegin(), tms.rend());
  std::sort(tns.rbegin(), tns.rend());
  for (std::uint64_t tm : tms) {
    for (std::uint64_t tn : tns) {
      for (std::uint64_t tk : sizes.k) {
        for (std::uint64_t warps : {1, 2, 4, 8}) {
          for (std::uint64_t rows_of_warps = 1; rows_of_warps <= warps; rows_of_warps *= 2) {
            const std::uint64_t cols_of_warps = warps / rows_of_warps;
            if (tm % rows_of_warps != 0 || tn % cols_of_warps != 0) continue;
            const std::uint64_t w_m = tm / rows_of_warps, w_n = tn / cols_of_warps;
            const RegisterTile r = register_tile_of(w_m, w_n, warp_size);
            if (r.m == 0) continue;
            // A warp's fragments shared by the warp; on Hopper-style cores also by a warpgroup
            // of four warps of the grid, down the block first, where the type is the tensor
            // cores'.
            std::vector<WarpTile> sharing{WarpTile{w_m, w_n, 1}};
            if (hw.threads.warpgroup_mma && !multiplies_on_lanes(spec.dtype) && warps % 4 == 0) {
              const std::uint64_t down = rows_of_warps % 4 == 0   ? 4
                                         : rows_of_warps % 2 == 0 ? 2
                                                                  : 1;
              if (cols_of_warps % (4 / down) == 0)
                sharing.push_back(WarpTile{w_m * down, w_n * (4 / down), 4});
            }
            for (std::uint64_t shared = 0; shared < sharing.size(); ++shared) {
              const WarpTile& w = sharing[shared];
              const CandidateKey key{tm, tn, tk, warps, rows_of_warps, shared};
              GemmSpec c = spec;
              c.tile_auto = false;  // a candidate as if written out
              c.tile = TileShape{tm, tn, tk};
              c.register_tile = r;
              c.warp_tile = w;
              c.stages = 1;
              const Footprint one_stage = footprint(c, hw.threads);
              if (!runs_on(c, hw, one_stage)) continue;
              const GemmGrid g = grid_of(c);  // the same at every stages and split
              const std::uint64_t steps = g.steps;
              // Split-K adds its partial sums in FP32: only on machines that have it.
              const std::uint64_t most_splits = std::min<std::uint64_t>(
                  sizes.split_k && hw.core.compute.flops_per_cycle[index_of(DataType::fp32)] ? 64
                                                                                             : 1,
                  steps);
              // Each split's rules and bound, the same at every stages: the loop below keeps a
              // split's stages within its K-steps, the one rule of a split stages take part in.
              // runs_on checked c unsplit; a split can break only the split's rules.
              const CandidateBound bound(c, hw);
              struct SplitCase {
                DecompositionParams decomposition;
                bool keeps_rules = true;
                std::uint64_t blocks = 0;
                double bound_s = 0;
              };
              std::array<SplitCase, 7> split_cases{};
              for (std::uint64_t splits = 1, i = 0; splits <= most_splits; splits *= 2, ++i) {
                SplitCase& split = split_cases[i];
                if (splits > 1) {
                  split.decomposition = DecompositionParams{GemmDecomposition::split_k, splits};
                }
                c.decomposition = split.decomposition;
                split.keeps_rules = splits == 1 || !check_split_rules(c, g);
                split.blocks = spec.batch.count * g.rows * g.cols * splits;
                if (split.keeps_rules) split.bound_s = bound.seconds(c, split.blocks);
              }
              for (std::uint32_t stages = 1; stages <= std::min<std::uint64_t>(4, steps);
                   ++stages) {
                c.stages = stages;
                c.decomposition = DecompositionParams{};
                if (stages > 1 && !runs_on(c, hw, footprint(c, hw.threads))) break;
                for (std::uint64_t splits = 1, i = 0; splits <= most_splits; splits *= 2, ++i) {
                  if (stages > 1 && stages > steps / splits) break;
                  const SplitCase& split = split_cases[i];
                  if (!split.keeps_rules) continue;
                  ++candidates;
                  std::optional<Scored>& kind = splits == 1 ? best_unsplit : best_split;
                  if (sizes.bounded && kind && split.bound_s > kind->estimate.time_s) continue;
                  c.decomposition = split.decomposition;
                  Scored scored{c, estimate_tile(c, hw), split.blocks, key};
                  scored.spec.block_order = scored.estimate.block_order;
                  if (!kind || better(scored, *kind)) kind = scored;
                  count_equal(scored);
                  if (!best || better(scored, *best)) best = std::move(scored);
                }
              }
            }
          }
        }
      }
    }
  }
  if (!best) return std::nullopt;
  // On cores with thread-block clusters, the winner's tiles multicast to a pair of blocks (2 x 1
  // or 1 x 2: one operand's reads halved at the L2 and HBM), kept where the estimate says that is
  // faster.
  if (sizes.clusters && hw.threads.max_cluster_size >= 2 && best->spec.decomposition.splits == 1) {
    const GemmSpec winner = best->spec;
    for (const ClusterShape cluster : {ClusterShape{2, 1}, ClusterShape{1, 2}}) {
      GemmSpec c = winner;
      c.cluster = cluster;
      c.block_order = spec.block_order;
      if (check_rules(c) || WorkloadKind<GemmSpec>::check_threads(c, hw.threads)) continue;
      const GemmGrid g = grid_of(c);
      Scored scored{c, estimate_tile(c, hw), spec.batch.count * g.rows * g.cols, best->key};
      scored.spec.block_order = scored.estimate.block_order;
      ++candidates;
      count_equal(scored);
      if (better(scored, *best)) {
        best_unsplit = scored;
        best = std::move(scored);
      }
    }
  }
  GemmSpec chosen = best->spec;
  chosen.tile_auto = true;
  TileChoice choice;
  choice.candidates = candidates;
  choice.estimated_time_s = best->estimate.time_s;
  choice.limited_by = std::string(best->estimate.limited_by);
  choice.reason = fmt::format("{}: {} (of {} candidates that fit a core{})",
                              candidate_label(chosen), estimate_text(best->estimate), candidates,
                              equal_estimates > 1
                                  ? fmt::format("; {} estimated the same, and it leaves the most "
                                                "room on its other terms",
                                                equal_estimates)
                                  : "");
  const bool split = chosen.decomposition.splits > 1;
  const std::optional<Scored>& other = split ? best_unsplit : best_split;
  if (other) {
    choice.reason +=
        fmt::format("; the best {}: {}, {}", split ? "without split-K" : "with split-K",
                    candidate_label(other->spec), estimate_text(other->estimate));
  }
  chosen.choice = choice;
  return chosen;
}

}  // namespace ridgeline
