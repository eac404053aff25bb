// The property test's configurations, drawn within the rules of docs/CONFIG.md.
//
// What is drawn, and why each range (every draw is meant to be accepted unless a rule between
// values refuses it; the test holds at least 80 % accepted, so a generator that strays outside
// the rules is noticed):
//
// Hardware
// - clock: half the draws from the presets' clocks (1, 1.25, 1.5, 1.6, 1.83, 2 GHz), half any
//   whole MHz from 100 MHz to 3 GHz. Most of those make a cycle a fraction of a picosecond
//   longer or shorter than a whole number (1.83 GHz: 546.448 ps), which is where the rounding of
//   durations to picoseconds could let a machine run above its peak.
// - cores.count 1 to 16: one core is the sequential case, 16 share the memory enough to queue,
//   and a run stays tens of milliseconds (each core is a module elaborated before the run).
// - max_resident_blocks 1 to 8; warp_size absent (32) or 4 to 32; max_warps absent or 8 to 64
//   (the GPUs' 64 and below); max_threads_per_block absent or 128 to 1024; barrier_latency absent
//   or 0 to 40 cycles (0 leaves barriers out, above it they cost time); block_launch_latency
//   and warp_launch_latency absent or 0 to 500 and 0 to 8 cycles (a block's start delayed).
// - sram.capacity 16 to 512 KiB in whole KiB (not only powers of two), ports 8 to 1024 B/cycle
//   each: the slow ports make SRAM the binding level, the fast ones leave it idle.
// - registers.capacity 64 to 512 KiB in whole KiB; max_per_thread absent or 32 to 255 and never
//   more than one warp at the limit can hold (the rule of docs/CONFIG.md).
// - compute.throughput: fp32 always (so every kind has a type to run), each other type with
//   probability 0.4; 1 to 8192 FLOP/cycle, log-uniform (the GPUs' 64 to 8192 and slower);
//   pipeline_latency 0 to 8 cycles.
// - hbm: bandwidth 10 GB/s to 5 TB/s, log-uniform in whole MB/s (odd rates make transfer times
//   round); latency 0 to 1 us, in whole ns or now and then in ps; channels 1 to 32 (any count,
//   powers of two with a DRAM), pseudo_channels absent or 1 to 4; interleave 32 B to 4 KiB,
//   with a few odd sizes (96 B, 200 B) when no DRAM maps addresses; max_bytes_in_flight_per_core
//   256 B to 1 MiB, log-uniform (below a tile's size, a request goes alone: the rule's corner);
//   max_requests_in_flight_per_core absent or 1 to 64.
// - hbm.mode detailed with probability 0.3 (then `dram` is required), and `dram` given in simple
//   mode with probability 0.2 (then only its address map is used). The DRAM: 1 to 8 bank groups of
//   1 to 4 banks, 4096 to 65536 rows (a power of two, or any count when the mapping puts the row
//   on top), rows of 512 B to 2 KiB, bursts of 32 or 64 B, refresh on or off; timings are HBM3's
//   (configs/hardware/hbm3-stack.yaml) times one factor of 0.5 to 2 for the draw and a jitter of
//   0.8 to 1.25 each, with tRFC below tREFI; the address mapping absent, one of the three named
//   ones, or a random order of the six fields. The smallest capacity (1 x 1 x 1 x 1 x 4096 rows x
//   512 B = 2 MiB) holds every trace address drawn below (1 MiB).
// - l2 with probability 0.5: lines of 32 to 256 B, 1 to 32 ways (not only powers of two: H100 has
//   20), 1 to 4096 sets, log-uniform (so the L2 ranges from a few lines, which evict all the time,
//   to a few MiB, which hold a draw's whole working set); bandwidth 10 GB/s to 40 TB/s,
//   log-uniform and independent of HBM's (so the L2 port is sometimes slower than HBM and binds);
//   hit latency 0 to 300 ns; write policy and set index each absent, or either value.
//
// Workloads (gemm 45 %, vector_add 15 %, stream 8 %, elementwise 7 %, row_reduction 7 %,
// attention 6 %, memory_trace 12 %)
// - gemm: dtype one the hardware lists; accumulator absent or any type; strategy tiled 55 %,
//   register_tiled 25 %, no_reuse 20 %. Tiles of 1 to 64 (B_M, B_N) and 1 to 32 (B_K), mostly
//   powers of two, some 3, 6, 12, 24, 48; the matrix is 1 to 6 tiles along M and N and 1 to 8
//   K-steps, so a run is at most 36 blocks of 8 steps: small enough for tens of milliseconds,
//   with more blocks than some machines have slots (waves, tails). Tiled draws have edge tiles
//   35 % of the time: each size of two or more tiles falls short of whole tiles by 0 to B - 1.
//   Stages 1 to min(4, K-steps of the shortest split). Tiled draws: a batch of 2 or 3 GEMMs 20 %
//   of the time (sharing B half of those), split-K over 2 to 4 splits 15 %, stream-K over the
//   machine's resident blocks 10 % (one stage: a worker's range may be one K-step; no block
//   order), `tile: auto` 8 % (the machine's choice, no register count given).
//   register_tile (not no_reuse) divisors of the tile up to 8; tile and register tile redrawn
//   (a few times) until a block has at most 512 threads, and no more than the machine's
//   max_threads_per_block and max_warps allow (the rest of the draws would be refused for it);
//   warp_tile (tiled, 30 %) when a pair of divisors makes exactly a warp; register_overhead (0 to
//   48) or registers_per_thread (8 to 300) now and then; spill local or refuse; block_order absent,
//   row_major, column_major or grouped by 1 to the grid's block rows.
// - vector_add: dtype one the hardware lists; chunk_elements absent (4096) or 1 to 4096,
//   log-uniform; 1 to 512 chunks in all (so a run is at most a few thousand ops); block_elements
//   absent (16 chunks) or 1 to 16 chunks; stages absent (2) or 1 to 4; threads absent or (and
//   always when the default of 256 would break the machine's thread limits) at most the chunk,
//   512 and those limits, and enough that a thread holds about 200 registers or fewer.
// - stream: any kernel; dtype one the hardware lists; threads 1 to the machine's thread limit
//   (at most 512), elements_per_thread absent (1) or 1 to 8; 1 to 300 blocks, the last one short.
// - elementwise: any of ten operations, a shape of 1 to 3 powers of two up to 64 each (the block,
//   a power of two too, always divides or holds the broadcast period); the second input of a
//   binary one full, repeating (the last dimensions) or spreading (the first, then 1s);
//   threads a power of two times up to 8.
// - row_reduction: softmax, layer_norm or rms_norm over 1 to 48 rows of 8 to 1024 columns (or any
//   count to 700), in one pass (rows in SRAM) or two or three (streamed, sometimes in chunks);
//   1 to 4 rows a block; affine off now and then.
// - attention: 1 or 2 K/V heads, 1 to 3 query heads each, 1 (a decode step) to 160 queries,
//   as many or up to 160 more keys, head_dim 8 to 64, causal 60 %; 1 to 4 warps of 1 to 4 query
//   rows each, 8 to 32 keys a tile, one stage.
// - memory_trace: 1 to 200 accesses (printed in full with a failing draw), all loads, all stores
//   or mixed; sequential, strided (64 B to 8 KiB) or random within 1 MiB; access_bytes absent
//   (64 B) or 1 B to 4 KiB, odd sizes included.
#include "tests/invariants/config_generator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <utility>

namespace ridgeline::test {

namespace {

// Draws from one std::mt19937_64 by arithmetic of its own: std::uniform_int_distribution's
// results differ between standard libraries, so a seed would not name the same draw everywhere.
class Random {
 public:
  Random(std::uint64_t seed, std::size_t index) {
    const std::uint64_t i = index;
    std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                           static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i >> 32)};
    engine_.seed(sequence);
  }

  /// lo to hi, both included (modulo bias of at most 2^-50 for the ranges drawn here).
  std::uint64_t uniform(std::uint64_t lo, std::uint64_t hi) {
    return lo + engine_() % (hi - lo + 1);
  }
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return unit() < p; }
  /// lo to hi, both included, evenly spread in the logarithm.
  std::uint64_t log_uniform(std::uint64_t lo, std::uint64_t hi) {
    const double value = std::exp(
        std::log(static_cast<double>(lo)) +
        unit() * (std::log(static_cast<double>(hi) + 1) - std::log(static_cast<double>(lo))));
    return std::clamp(static_cast<std::uint64_t>(value), lo, hi);
  }
  std::uint64_t power_of_two(unsigned lo_exponent, unsigned hi_exponent) {
    return std::uint64_t{1} << uniform(lo_exponent, hi_exponent);
  }
  template <class T>
  const T& pick(const std::vector<T>& values) {
    return values[uniform(0, values.size() - 1)];
  }
  double factor(double lo, double hi) { return lo + unit() * (hi - lo); }

 private:
  std::mt19937_64 engine_;
};

std::string bytes(std::uint64_t count) {
  if (count % (1024 * 1024) == 0) return std::to_string(count / (1024 * 1024)) + "MiB";
  if (count % 1024 == 0) return std::to_string(count / 1024) + "KiB";
  return std::to_string(count) + "B";
}
std::string ps_time(std::uint64_t ps) {
  if (ps % 1000 == 0) return std::to_string(ps / 1000) + "ns";
  return std::to_string(ps) + "ps";
}

struct DataType {
  const char* name;
  std::uint64_t bytes;
};
constexpr std::array<DataType, 7> kTypes{
    {{"fp32", 4}, {"tf32", 4}, {"bf16", 2}, {"fp16", 2}, {"fp8", 1}, {"int8", 1}, {"int32", 4}}};

// What the workload draw needs to know of the hardware drawn.
struct Machine {
  std::uint64_t warp_size = 32;
  std::vector<DataType> types;
  bool has_max_per_thread = false;
  bool has_l2 = false;
  bool dram = false;
  bool detailed = false;
  std::uint64_t cores = 0;
  std::uint64_t max_threads_per_block = 0;  // 0: no limit
  std::uint64_t max_warps = 0;              // 0: no limit

  /// Threads a block is drawn with at most: 512, or fewer where the machine's limits say so.
  std::uint64_t thread_limit() const {
    std::uint64_t limit = 512;
    if (max_threads_per_block) limit = std::min(limit, max_threads_per_block);
    if (max_warps) limit = std::min(limit, max_warps * warp_size);
    return limit;
  }
};

// HBM3's timings (configs/hardware/hbm3-stack.yaml), in picoseconds.
constexpr std::array<std::pair<const char*, std::uint64_t>, 18> kHbm3Timings{{{"tRCD_RD", 16250},
                                                                              {"tRCD_WR", 8750},
                                                                              {"tRP", 16250},
                                                                              {"tRAS", 30000},
                                                                              {"tCL", 16250},
                                                                              {"tCWL", 5000},
                                                                              {"tCCD_S", 1250},
                                                                              {"tCCD_L", 2500},
                                                                              {"tRRD_S", 5000},
                                                                              {"tRRD_L", 5000},
                                                                              {"tFAW", 15000},
                                                                              {"tWR", 15000},
                                                                              {"tRTP", 3750},
                                                                              {"tWTR_S", 5000},
                                                                              {"tWTR_L", 7500},
                                                                              {"tRTW", 13750},
                                                                              {"tREFI", 3900000},
                                                                              {"tRFC", 350000}}};

const std::vector<std::string> kFields{"ch", "pc", "bg", "ba", "ro", "co"};

std::string draw_hardware(Random& r, std::size_t index, Machine& m, std::string& summary) {
  YamlWriter y;
  y.begin("hardware");
  y.key("name", "draw-" + std::to_string(index));
  const std::uint64_t mhz =
      r.chance(0.5) ? r.pick(std::vector<std::uint64_t>{1000, 1250, 1500, 1600, 1830, 2000})
                    : r.uniform(100, 3000);
  y.key("clock", std::to_string(mhz) + "MHz");

  y.begin("cores");
  m.cores = r.uniform(1, 16);
  y.key("count", m.cores);
  y.key("max_resident_blocks", r.uniform(1, 8));
  if (r.chance(0.4)) {
    m.warp_size = r.pick(std::vector<std::uint64_t>{4, 8, 16, 32});
    y.key("warp_size", m.warp_size);
  }
  if (r.chance(0.5)) {
    m.max_warps = r.uniform(8, 64);
    y.key("max_warps", m.max_warps);
  }
  if (r.chance(0.5)) {
    m.max_threads_per_block = r.pick(std::vector<std::uint64_t>{128, 256, 512, 1024});
    y.key("max_threads_per_block", m.max_threads_per_block);
  }
  if (r.chance(0.5)) y.key("barrier_latency", std::to_string(r.uniform(0, 40)) + "cycles");
  if (r.chance(0.3)) {
    y.key("block_launch_latency", std::to_string(r.uniform(0, 500)) + "cycles");
    y.key("warp_launch_latency", std::to_string(r.uniform(0, 8)) + "cycles");
  }
  y.begin("sram");
  y.key("capacity", std::to_string(r.uniform(16, 512)) + "KiB");
  y.key("read_bandwidth", std::to_string(r.power_of_two(3, 10)) + "B/cycle");
  y.key("write_bandwidth", std::to_string(r.power_of_two(3, 10)) + "B/cycle");
  y.end();
  y.begin("registers");
  const std::uint64_t register_kib = r.uniform(64, 512);
  y.key("capacity", std::to_string(register_kib) + "KiB");
  if (r.chance(0.5)) {
    const std::uint64_t most =
        std::min<std::uint64_t>(255, register_kib * 1024 / (m.warp_size * 4));
    y.key("max_per_thread", r.uniform(std::min<std::uint64_t>(32, most), most));
    m.has_max_per_thread = true;
  }
  y.end();
  y.begin("compute");
  y.begin("throughput");
  for (const DataType& type : kTypes) {
    if (std::string(type.name) != "fp32" && !r.chance(0.4)) continue;
    y.key(type.name, std::to_string(r.log_uniform(1, 8192)) + "FLOP/cycle");
    m.types.push_back(type);
  }
  y.end();
  y.key("pipeline_latency", std::to_string(r.uniform(0, 8)) + "cycles");
  y.end();
  y.end();  // cores

  y.begin("hbm");
  m.detailed = r.chance(0.3);
  m.dram = m.detailed || r.chance(0.2);
  if (m.detailed) {
    y.key("mode", "detailed");
  } else if (r.chance(0.3)) {
    y.key("mode", "simple");
  }
  y.key("bandwidth", std::to_string(r.log_uniform(10'000, 5'000'000)) + "MB/s");
  y.key("latency", r.chance(0.2) ? std::to_string(r.uniform(0, 1'000'000)) + "ps"
                                 : std::to_string(r.uniform(0, 1000)) + "ns");
  const std::uint64_t channels = m.dram ? r.power_of_two(0, 5) : r.uniform(1, 32);
  y.key("channels", channels);
  if (r.chance(0.5)) y.key("pseudo_channels", m.dram ? r.power_of_two(0, 2) : r.uniform(1, 4));
  const std::uint64_t row_bytes = r.power_of_two(9, 11);
  const std::uint64_t burst_bytes = r.power_of_two(5, 6);
  std::uint64_t interleave = 0;
  if (m.dram) {
    interleave = r.power_of_two(5, 11);
    interleave = std::clamp(interleave, burst_bytes, row_bytes);
  } else {
    interleave = r.chance(0.2) ? r.pick(std::vector<std::uint64_t>{96, 200, 384, 1000})
                               : r.power_of_two(5, 12);
  }
  y.key("interleave", bytes(interleave));
  bool row_on_top = true;
  if (m.dram) {
    const double choice = r.unit();
    if (choice < 0.6) {
      const std::string named = r.pick(std::vector<std::string>{
          "channel_interleave", "bank_group_interleave", "channel_contiguous"});
      y.key("address_mapping", named);
      row_on_top = named != "channel_contiguous";
    } else if (choice < 0.8) {
      std::vector<std::string> order = kFields;
      for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[r.uniform(0, i - 1)]);
      std::string text;
      for (const std::string& field : order) text += (text.empty() ? "" : "-") + field;
      y.key("address_mapping", text);
      row_on_top = order.front() == "ro";
    }  // else the default, channel_interleave: ro-ba-bg-co-pc-ch
  }
  y.key("max_bytes_in_flight_per_core", bytes(r.log_uniform(256, 1024 * 1024)));
  if (r.chance(0.5)) y.key("max_requests_in_flight_per_core", r.uniform(1, 64));
  if (m.dram) {
    y.begin("dram");
    y.key("bank_groups", r.power_of_two(0, 3));
    y.key("banks_per_group", r.power_of_two(0, 2));
    std::uint64_t rows = r.power_of_two(12, 16);
    if (row_on_top && r.chance(0.3)) rows = r.uniform(4096, 65536);  // any count with 'ro' on top
    y.key("rows", rows);
    y.key("row_bytes", bytes(row_bytes));
    y.key("burst_bytes", bytes(burst_bytes));
    if (r.chance(0.4)) y.key("refresh", r.chance(0.5) ? "true" : "false");
    y.begin("timing");
    const double scale = r.factor(0.5, 2.0);
    const double refresh_scale = r.factor(0.25, 4.0);
    std::uint64_t refresh_interval = 0;
    for (const auto& [name, ps] : kHbm3Timings) {
      const std::string key = name;
      double value =
          static_cast<double>(ps) * (key == "tREFI" ? refresh_scale : scale) * r.factor(0.8, 1.25);
      std::uint64_t whole = static_cast<std::uint64_t>(value);
      if (key == "tREFI") refresh_interval = whole;
      if (key == "tRFC") whole = std::min(whole, refresh_interval / 2);
      y.key(key, ps_time(whole));
    }
    y.end();
    y.end();
  }
  y.end();  // hbm

  if (r.chance(0.5)) {
    m.has_l2 = true;
    y.begin("l2");
    const std::uint64_t line = r.power_of_two(5, 8);
    const std::uint64_t ways = r.uniform(1, 32);
    const std::uint64_t sets = r.log_uniform(1, 4096);
    y.key("capacity", bytes(line * ways * sets));
    y.key("line_size", bytes(line));
    y.key("associativity", ways);
    y.key("bandwidth", std::to_string(r.log_uniform(10'000, 40'000'000)) + "MB/s");
    const std::uint64_t hit_ns = r.uniform(0, 300);
    y.key("hit_latency", std::to_string(hit_ns) + "ns");
    // Each partition holds an equal share of the sets: a count that divides them.
    std::uint64_t partitions =
        m.cores > 1 && r.chance(0.3) ? r.uniform(2, std::min<std::uint64_t>(m.cores, 4)) : 1;
    while (sets % partitions != 0) --partitions;
    if (partitions > 1) {
      y.key("partitions", partitions);
      y.key("far_hit_latency", std::to_string(hit_ns + r.uniform(0, 300)) + "ns");
    }
    if (r.chance(0.7)) y.key("write_policy", r.chance(0.5) ? "write_back" : "write_through");
    if (r.chance(0.7)) y.key("set_index", r.chance(0.5) ? "xor" : "modulo");
    y.end();
  }
  y.end();  // hardware

  summary = std::to_string(m.cores) + (m.cores == 1 ? " core, " : " cores, ") +
            (m.detailed ? "detailed" : "simple") + " HBM" + (m.has_l2 ? ", L2" : "");
  return y.text();
}

std::vector<std::uint64_t> divisors_up_to(std::uint64_t value, std::uint64_t most) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t d = 1; d <= std::min(value, most); ++d) {
    if (value % d == 0) out.push_back(d);
  }
  return out;
}

std::uint64_t tile_side(Random& r, unsigned max_exponent) {
  return r.chance(0.8) ? r.power_of_two(0, max_exponent)
                       : r.pick(std::vector<std::uint64_t>{3, 6, 12, 24, 48});
}

std::string draw_gemm(Random& r, const Machine& m, std::string& summary) {
  const double kind = r.unit();
  const std::string strategy = kind < 0.55 ? "tiled" : kind < 0.8 ? "register_tiled" : "no_reuse";
  const DataType type = r.pick(m.types);
  // A tile and register tile whose block has no more threads than the machine allows: a few
  // tries, then the last one, which the reader may refuse.
  const bool register_tile = strategy != "no_reuse" && r.chance(0.6);
  std::uint64_t tile_m = 1;
  std::uint64_t tile_n = 1;
  std::uint64_t reg_m = 1;
  std::uint64_t reg_n = 1;
  for (int attempt = 0; attempt < 8; ++attempt) {
    tile_m = tile_side(r, 6);
    tile_n = tile_side(r, 6);
    reg_m = 1;
    reg_n = 1;
    if (register_tile) {
      const std::vector<std::uint64_t> ms = divisors_up_to(tile_m, 8);
      const std::vector<std::uint64_t> ns = divisors_up_to(tile_n, 8);
      for (int pick = 0; pick < 4; ++pick) {
        reg_m = r.pick(ms);
        reg_n = r.pick(ns);
        if ((tile_m / reg_m) * (tile_n / reg_n) <= m.thread_limit()) break;
      }
    }
    if ((tile_m / reg_m) * (tile_n / reg_n) <= m.thread_limit()) break;
  }
  const std::uint64_t tile_k = std::min<std::uint64_t>(tile_side(r, 5), 32);
  const std::uint64_t steps = r.uniform(1, 8);
  const std::uint64_t grid_m = r.uniform(1, 6);
  const std::uint64_t grid_n = r.uniform(1, 6);
  // Edge tiles: the last block row, column or K-step partial (never the only one, so that the
  // tile stays no larger than the matrix).
  const bool edges = strategy == "tiled" && r.chance(0.35);
  const auto size = [&](std::uint64_t tile, std::uint64_t count) {
    const std::uint64_t whole = tile * count;
    return edges && count > 1 && tile > 1 ? whole - r.uniform(0, tile - 1) : whole;
  };
  const std::uint64_t size_m = size(tile_m, grid_m);
  const std::uint64_t size_n = size(tile_n, grid_n);
  const std::uint64_t size_k = size(tile_k, steps);

  YamlWriter y;
  y.begin("workload");
  y.key("kind", "gemm");
  y.key("m", size_m);
  y.key("n", size_n);
  y.key("k", size_k);
  y.key("dtype", type.name);
  if (r.chance(0.2))
    y.key("accumulator",
          r.pick(std::vector<std::string>{"fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int32"}));
  y.key("strategy", strategy);
  std::string extras;
  if (strategy == "tiled" && r.chance(0.2)) {
    y.key("batch", r.uniform(2, 3));
    if (r.chance(0.5)) y.inline_map("batch_stride", {{"b", 0}});
    extras += ", batch";
  }
  if (strategy == "tiled" && r.chance(0.08)) {
    // The machine chooses the rest.
    y.key("tile", "auto");
    if (r.chance(0.3)) y.key("register_overhead", r.uniform(0, 16));
    y.end();
    summary = "gemm tile: auto " + std::string(type.name) + " " + std::to_string(size_m) + "x" +
              std::to_string(size_n) + "x" + std::to_string(size_k) + extras;
    return y.text();
  }
  y.inline_map("tile", {{"m", tile_m}, {"n", tile_n}, {"k", tile_k}});
  // Split-K over 2 to 4 splits, or stream-K over the machine's resident blocks (one stage: a
  // worker's range may be a single K-step).
  const double decomposition = strategy == "tiled" ? r.unit() : 1.0;
  const std::uint64_t splits =
      decomposition < 0.15 && steps >= 2 ? r.uniform(2, std::min<std::uint64_t>(4, steps)) : 1;
  const bool stream_k = decomposition >= 0.15 && decomposition < 0.25;
  y.key("stages", stream_k ? 1 : r.uniform(1, std::min<std::uint64_t>(4, steps / splits)));
  if (splits > 1) {
    y.begin("decomposition");
    y.key("kind", "split_k");
    y.key("splits", splits);
    y.end();
    extras += ", split-K " + std::to_string(splits);
  } else if (stream_k) {
    y.key("decomposition", "{kind: stream_k}");
    extras += ", stream-K";
  }

  if (register_tile) y.inline_map("register_tile", {{"m", reg_m}, {"n", reg_n}});
  if (strategy == "tiled" && r.chance(0.3)) {
    // (W_M / R_M)(W_N / R_N) = warp size, W_M | B_M, W_N | B_N.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes;
    for (std::uint64_t a = 1; a <= m.warp_size; a *= 2) {
      const std::uint64_t w_m = a * reg_m;
      const std::uint64_t w_n = (m.warp_size / a) * reg_n;
      if (tile_m % w_m == 0 && tile_n % w_n == 0) shapes.emplace_back(w_m, w_n);
    }
    if (!shapes.empty()) {
      const auto [w_m, w_n] = r.pick(shapes);
      y.inline_map("warp_tile", {{"m", w_m}, {"n", w_n}});
      extras += ", warp tile";
    }
  }
  const double registers = r.unit();
  if (registers < 0.3) {
    y.key("register_overhead", r.uniform(0, 48));
  } else if (registers < 0.4) {
    y.key("registers_per_thread", r.uniform(8, 300));
  }
  if (m.has_max_per_thread && r.chance(0.4)) {
    y.key("spill", r.chance(0.75) ? "local" : "refuse");
  }
  const double order = r.unit();
  if (order < 0.7 && !stream_k) {
    y.begin("block_order");
    const std::string order_kind = order < 0.25   ? "row_major"
                                   : order < 0.45 ? "column_major"
                                                  : "grouped";
    y.key("kind", order_kind);
    if (order_kind == "grouped") y.key("group", r.uniform(1, grid_m));
    y.end();
  }
  y.end();
  if (size_m % tile_m != 0 || size_n % tile_n != 0 || size_k % tile_k != 0) extras += ", edges";
  summary = "gemm " + strategy + " " + type.name + " " + std::to_string(size_m) + "x" +
            std::to_string(size_n) + "x" + std::to_string(size_k) + " (tile " +
            std::to_string(tile_m) + "x" + std::to_string(tile_n) + "x" + std::to_string(tile_k) +
            extras + ")";
  return y.text();
}

std::string draw_vector_add(Random& r, const Machine& m, std::string& summary) {
  const DataType type = r.pick(m.types);
  const bool chunk_given = r.chance(0.6);
  const std::uint64_t chunk = chunk_given ? r.log_uniform(1, 4096) : 4096;
  const std::uint64_t chunks = r.log_uniform(1, 512);
  const std::uint64_t length = (chunks - 1) * chunk + r.uniform(1, chunk);
  YamlWriter y;
  y.begin("workload");
  y.key("kind", "vector_add");
  y.key("length", length);
  y.key("dtype", type.name);
  if (chunk_given) y.key("chunk_elements", chunk);
  if (r.chance(0.6)) y.key("block_elements", chunk * r.uniform(1, 16));
  std::uint64_t stages = 2;
  if (r.chance(0.5)) {
    stages = r.uniform(1, 4);
    y.key("stages", stages);
  }
  // The default, 256 threads or the chunk if smaller, may be more than the machine allows.
  const std::uint64_t chunk_in_block = std::min(chunk, length);
  if (r.chance(0.4) || std::min<std::uint64_t>(256, chunk_in_block) > m.thread_limit()) {
    // Each thread holds (2 stages + 1) chunks' share: keep it about 200 registers or fewer.
    const std::uint64_t most = std::min(chunk_in_block, m.thread_limit());
    const std::uint64_t data = (2 * stages + 1) * chunk_in_block * type.bytes;
    const std::uint64_t least = std::min(most, std::max<std::uint64_t>(1, data / 800 + 1));
    y.key("threads", r.uniform(least, most));
  }
  y.end();
  summary = "vector_add " + std::string(type.name) + " " + std::to_string(length) + " elements";
  return y.text();
}

std::string draw_stream(Random& r, const Machine& m, std::string& summary) {
  const DataType type = r.pick(m.types);
  const std::string kernel =
      r.pick(std::vector<std::string>{"read", "write", "copy", "scale", "add", "triad"});
  const std::uint64_t threads = r.uniform(1, std::min<std::uint64_t>(512, m.thread_limit()));
  const std::uint64_t per_thread = r.chance(0.3) ? r.uniform(1, 8) : 1;
  const std::uint64_t block = threads * per_thread;
  const std::uint64_t length = (r.uniform(1, 300) - 1) * block + r.uniform(1, block);
  YamlWriter y;
  y.begin("workload");
  y.key("kind", "stream");
  y.key("kernel", kernel);
  y.key("length", length);
  y.key("dtype", type.name);
  y.key("threads", threads);
  if (per_thread > 1) y.key("elements_per_thread", per_thread);
  y.end();
  summary = "stream " + kernel + " " + std::string(type.name) + " " + std::to_string(length) +
            " elements";
  return y.text();
}

// "[4, 8]".
std::string shape_text(const std::vector<std::uint64_t>& dims) {
  std::string text;
  for (std::uint64_t d : dims) text += (text.empty() ? "" : ", ") + std::to_string(d);
  return "[" + text + "]";
}

std::string draw_elementwise(Random& r, const Machine& m, std::string& summary) {
  const DataType type = r.pick(m.types);
  const std::string operation = r.pick(std::vector<std::string>{
      "add", "mul", "sub", "max", "silu_mul", "relu", "gelu", "silu", "sigmoid", "exp"});
  const bool binary = operation == "add" || operation == "mul" || operation == "sub" ||
                      operation == "max" || operation == "silu_mul";
  // Powers of two throughout, so that a block's outputs divide or hold each broadcast period.
  std::vector<std::uint64_t> dims;
  const std::uint64_t rank = r.uniform(1, 3);
  for (std::uint64_t i = 0; i < rank; ++i) dims.push_back(r.power_of_two(0, 6));
  std::string inputs = "[" + shape_text(dims);
  if (binary) {
    std::vector<std::uint64_t> other = dims;
    const double kind = r.unit();
    const std::size_t cut = r.uniform(0, rank);
    if (kind < 0.3) {  // repeats: the last dimensions
      other.erase(other.begin(), other.begin() + static_cast<long>(cut));
      if (other.empty()) other = {1};
    } else if (kind < 0.6) {  // spreads: the first dimensions, then 1s
      for (std::size_t i = cut; i < other.size(); ++i) other[i] = 1;
    }
    inputs += ", " + shape_text(other);
  }
  inputs += "]";
  YamlWriter y;
  y.begin("workload");
  y.key("kind", "elementwise");
  y.key("operation", operation);
  y.key("inputs", inputs);
  y.key("dtype", type.name);
  y.key("threads", r.power_of_two(0, 5) * std::min<std::uint64_t>(m.warp_size, 8));
  if (r.chance(0.6)) y.key("elements_per_thread", r.power_of_two(0, 3));
  y.end();
  summary = "elementwise " + operation + " " + std::string(type.name) + " " + inputs;
  return y.text();
}

std::string draw_row_reduction(Random& r, const Machine& m, std::string& summary) {
  const DataType type = r.pick(m.types);
  const std::string operation =
      r.pick(std::vector<std::string>{"softmax", "layer_norm", "rms_norm"});
  const std::uint64_t rows = r.uniform(1, 48);
  const std::uint64_t columns = r.chance(0.7) ? r.power_of_two(3, 10) : r.uniform(1, 700);
  const std::uint64_t passes = r.chance(0.4) ? 1 : operation == "rms_norm" ? 2 : r.uniform(2, 3);
  YamlWriter y;
  y.begin("workload");
  y.key("kind", "row_reduction");
  y.key("operation", operation);
  y.key("shape", shape_text({rows, columns}));
  y.key("dtype", type.name);
  y.key("passes", passes);
  if (r.chance(0.5)) y.key("rows_per_block", r.uniform(1, std::min<std::uint64_t>(4, rows)));
  y.key("threads", std::min<std::uint64_t>(m.thread_limit(), r.power_of_two(5, 8)));
  if (passes > 1 && r.chance(0.6)) y.key("chunk_columns", r.uniform(1, columns));
  if (operation != "softmax" && r.chance(0.3)) y.key("affine", "false");
  y.end();
  summary = "row_reduction " + operation + " " + std::string(type.name) + " " +
            std::to_string(rows) + "x" + std::to_string(columns) + ", " + std::to_string(passes) +
            " pass(es)";
  return y.text();
}

std::string draw_attention(Random& r, const Machine& m, std::string& summary) {
  const DataType type = r.pick(m.types);
  const std::uint64_t kv_heads = r.uniform(1, 2);
  const std::uint64_t heads = kv_heads * r.uniform(1, 3);
  const bool causal = r.chance(0.6);
  const std::uint64_t queries = r.chance(0.3) ? 1 : r.uniform(1, 160);
  const std::uint64_t keys = queries + (r.chance(0.5) ? 0 : r.uniform(0, 160));
  const std::uint64_t head_dim = r.pick(std::vector<std::uint64_t>{8, 16, 32, 64});
  // A warp takes 1 to 4 query rows, so that its scores and outputs fit its threads' registers
  // whatever the warp size.
  const std::uint64_t warps_cap =
      std::min<std::uint64_t>(4, std::max<std::uint64_t>(1, m.thread_limit() / m.warp_size));
  const std::uint64_t tile_q = std::min(queries, r.uniform(1, warps_cap) * r.power_of_two(0, 2));
  const std::uint64_t warps = std::min(tile_q, r.uniform(1, warps_cap));
  const std::uint64_t tile_kv = std::min(keys, r.power_of_two(3, 5));
  YamlWriter y;
  y.begin("workload");
  y.key("kind", "attention");
  y.key("heads", heads);
  if (kv_heads != heads || r.chance(0.3)) y.key("kv_heads", kv_heads);
  if (r.chance(0.3)) y.key("batch", r.uniform(1, 2));
  y.key("query_length", queries);
  y.key("key_length", keys);
  y.key("head_dim", head_dim);
  y.key("dtype", type.name);
  y.key("causal", causal ? "true" : "false");
  y.inline_map("tile", {{"q", tile_q}, {"kv", tile_kv}});
  y.key("warps", warps);
  y.key("stages", 1);
  y.end();
  summary = "attention " + std::string(causal ? "causal " : "") + type.name + " " +
            std::to_string(heads) + "/" + std::to_string(kv_heads) + " heads, " +
            std::to_string(queries) + "x" + std::to_string(keys) + "x" + std::to_string(head_dim);
  return y.text();
}

std::string draw_trace(Random& r, std::size_t index, GeneratedCase& c, std::string& summary) {
  const std::uint64_t accesses = r.log_uniform(1, 200);
  const std::uint64_t access_bytes =
      r.chance(0.4) ? 64
                    : r.pick(std::vector<std::uint64_t>{1, 8, 32, 64, 100, 128, 256, 1000, 4096});
  constexpr std::uint64_t kSpan = 1024 * 1024;  // within the smallest DRAM drawn (2 MiB)
  const double mix = r.unit();
  const double pattern = r.unit();
  const std::uint64_t stride = pattern < 0.4 ? access_bytes : r.log_uniform(64, 8192);
  std::uint64_t address = r.uniform(0, kSpan - access_bytes);
  std::string text = "# draw " + std::to_string(index) + "\n";
  for (std::uint64_t i = 0; i < accesses; ++i) {
    const bool store = mix < 0.3 ? false : mix < 0.5 ? true : r.chance(0.4);
    char line[64];
    std::snprintf(line, sizeof line, "%s 0x%llx\n", store ? "ST" : "LD",
                  static_cast<unsigned long long>(address));
    text += line;
    address = pattern < 0.8 ? (address + stride) % (kSpan - access_bytes)
                            : r.uniform(0, kSpan - access_bytes);
  }
  c.trace_name = "draw-" + std::to_string(index) + ".trace";
  c.trace_text = text;
  YamlWriter y;
  y.begin("workload");
  y.key("kind", "memory_trace");
  y.key("path", c.trace_name);
  if (access_bytes != 64 || r.chance(0.3)) y.key("access_bytes", bytes(access_bytes));
  y.end();
  summary = "memory_trace of " + std::to_string(accesses) + " x " + bytes(access_bytes) + " (" +
            (pattern < 0.4   ? "sequential"
             : pattern < 0.8 ? "strided"
                             : "random") +
            ")";
  return y.text();
}

std::uint64_t parse_number(const char* name, const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 0);
  if (end == text || *end != '\0') {
    throw std::invalid_argument(std::string(name) + "='" + text + "' is not a whole number");
  }
  return value;
}

}  // namespace

PropertySettings property_settings() {
  PropertySettings settings;
  if (const char* seed = std::getenv("RIDGELINE_PROPERTY_SEED"); seed && *seed) {
    settings.seed = parse_number("RIDGELINE_PROPERTY_SEED", seed);
  }
  if (const char* count = std::getenv("RIDGELINE_PROPERTY_COUNT"); count && *count) {
    settings.count = parse_number("RIDGELINE_PROPERTY_COUNT", count);
  }
  return settings;
}

GeneratedCase generate_case(std::uint64_t seed, std::size_t index) {
  Random r(seed, index);
  GeneratedCase c;
  c.seed = seed;
  c.index = index;
  Machine machine;
  std::string machine_summary;
  c.hardware_yaml = draw_hardware(r, index, machine, machine_summary);
  std::string workload_summary;
  const double kind = r.unit();
  if (kind < 0.45) {
    c.workload_yaml = draw_gemm(r, machine, workload_summary);
  } else if (kind < 0.6) {
    c.workload_yaml = draw_vector_add(r, machine, workload_summary);
  } else if (kind < 0.68) {
    c.workload_yaml = draw_stream(r, machine, workload_summary);
  } else if (kind < 0.75) {
    c.workload_yaml = draw_elementwise(r, machine, workload_summary);
  } else if (kind < 0.82) {
    c.workload_yaml = draw_row_reduction(r, machine, workload_summary);
  } else if (kind < 0.88) {
    c.workload_yaml = draw_attention(r, machine, workload_summary);
  } else {
    c.workload_yaml = draw_trace(r, index, c, workload_summary);
  }
  c.label = "draw " + std::to_string(index) + ": " + workload_summary + " on " + machine_summary;
  return c;
}

void YamlWriter::key(const std::string& name, const std::string& value) {
  text_ += indent() + name + ": " + value + "\n";
}
void YamlWriter::key(const std::string& name, std::uint64_t value) {
  key(name, std::to_string(value));
}
void YamlWriter::begin(const std::string& name) {
  text_ += indent() + name + ":\n";
  ++depth_;
}
void YamlWriter::end() { --depth_; }
void YamlWriter::inline_map(const std::string& name,
                            const std::vector<std::pair<std::string, std::uint64_t>>& entries) {
  std::string map;
  for (const auto& [k, v] : entries)
    map += (map.empty() ? "" : ", ") + k + ": " + std::to_string(v);
  key(name, "{" + map + "}");
}

}  // namespace ridgeline::test
