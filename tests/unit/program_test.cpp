#include "models/program.hpp"

#include <gtest/gtest.h>

#include "workloads/gemm.hpp"

namespace ridgeline {
namespace {

AddressPattern bytes(std::uint64_t count) {
  AddressPattern p;
  p.region_of_block0 = Region{0, 1, count, count, 1};
  return p;
}

TEST(Program, CompilesCountersAndSuccessors) {
  ProgramBuilder builder({"A", "C"});
  const auto load = builder.add(Op::load(0, 0, bytes(64), 64));
  const auto compute = builder.add(Op::compute(0, 100, 0));
  const auto store = builder.add(Op::store(1, 0, bytes(16)));
  const auto next_load = builder.add(Op::load(0, 1, bytes(64), 64));
  builder.depend(load, compute, EdgeKind::data);
  builder.depend(compute, store, EdgeKind::data);
  builder.depend(compute, next_load, EdgeKind::buffer_reuse);
  builder.depend(load, next_load, EdgeKind::issue_order);
  const Program program = builder.compile();

  EXPECT_EQ(program.size(), 4u);
  EXPECT_EQ(program.initial_pending_completions(), (std::vector<std::uint16_t>{0, 1, 1, 1}));
  EXPECT_EQ(program.initial_pending_buffers(), (std::vector<std::uint16_t>{0, 0, 0, 1}));
  EXPECT_EQ(program.initial_pending_issues(), (std::vector<std::uint16_t>{0, 0, 0, 1}));
  EXPECT_EQ(program.successors_end(compute) - program.successors_begin(compute), 2);
  EXPECT_EQ(program.label(next_load), "load A_1");
  EXPECT_EQ(program.label(compute), "compute 0");
}

TEST(Program, ACycleIsRefusedNamingAnOpOnIt) {
  ProgramBuilder builder({"A"});
  const auto a = builder.add(Op::compute(0, 1, 0));
  const auto b = builder.add(Op::compute(1, 1, 0));
  builder.depend(a, b, EdgeKind::data);
  builder.depend(b, a, EdgeKind::data);
  try {
    builder.compile();
    FAIL() << "a cycle compiled";
  } catch (const ProgramError& error) {
    EXPECT_NE(std::string(error.what()).find("dependency cycle through 'compute"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(builder.depend(a, 7, EdgeKind::data), ProgramError);
}

TEST(Program, CriticalPathSerialisesOneUnitAndWaitsForData) {
  // load (10 busy, 50 to complete) -> compute (20 busy, 25 to complete), twice, computes in order.
  ProgramBuilder builder({"A"});
  const auto l0 = builder.add(Op::load(0, 0, bytes(1), 0));
  const auto l1 = builder.add(Op::load(0, 1, bytes(1), 0));
  const auto c0 = builder.add(Op::compute(0, 1, 0));
  const auto c1 = builder.add(Op::compute(1, 1, 0));
  builder.depend(l0, l1, EdgeKind::issue_order);
  builder.depend(l0, c0, EdgeKind::data);
  builder.depend(l1, c1, EdgeKind::data);
  builder.depend(c0, c1, EdgeKind::issue_order);
  const Program program = builder.compile();
  const Time path = program.critical_path([](const Op& op) -> Program::OpTiming {
    if (op.kind == OpKind::load) return {Time::from_ps(10), Time::from_ps(50)};
    return {Time::from_ps(20), Time::from_ps(25)};
  });
  // l1 starts at 10, completes at 60; c0 runs 50..70, so c1 starts at 70 and completes at 95.
  EXPECT_EQ(path.ps(), 95u);
}

TEST(GemmKernel, TiledProgramHasTheSeedsShape) {
  GemmSpec spec;
  spec.m = spec.n = spec.k = 256;
  spec.tile = TileShape{64, 64, 64};
  spec.stages = 2;
  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.grid_rows, 4u);
  EXPECT_EQ(kernel.grid_cols, 4u);
  EXPECT_EQ(kernel.program.size(), 4u * 3 + 1);  // A_k, B_k, compute_k per K-step, store C
  std::uint64_t loaded = 0, flops = 0, stored = 0;
  for (const Op& op : kernel.program.ops()) {
    if (op.kind == OpKind::load) loaded += op.hbm_bytes();
    if (op.kind == OpKind::store) stored += op.hbm_bytes();
    flops += op.flops;
  }
  EXPECT_EQ(loaded, 4u * 2 * 64 * 64 * 4);  // K/B_K steps of A and B tiles
  EXPECT_EQ(stored, 64u * 64 * 4);
  EXPECT_EQ(flops, 2u * 64 * 64 * 256);
  EXPECT_EQ(kernel.sram_bytes_per_block, 2u * 2 * 64 * 64 * 4);
  // Buffer reuse: load A_2 waits for compute_0 (two stages).
  const auto& buffers = kernel.program.initial_pending_buffers();
  EXPECT_EQ(buffers[0], 0);  // A_0
  EXPECT_EQ(buffers[6], 1);  // A_2
}

GemmSpec tiled_gemm(std::uint64_t m, std::uint64_t n, std::uint64_t k, TileShape tile) {
  GemmSpec spec;
  spec.m = m;
  spec.n = n;
  spec.k = k;
  spec.tile = tile;
  return spec;
}

TEST(GemmKernel, TilesLandAtTheirAddresses) {
  const Kernel kernel = build_kernel(tiled_gemm(128, 256, 64, TileShape{32, 64, 16}));
  const Op& a1 = kernel.program.ops()[3];  // A_1
  const Op& b1 = kernel.program.ops()[4];  // B_1
  ASSERT_EQ(kernel.program.label(3), "load A_1");
  const Region a = a1.address.for_block(BlockCoord{2, 3});
  EXPECT_EQ(a.base, (2 * 32 * 64 + 16) * 4u);  // row 64, column 16 of A (K = 64)
  EXPECT_EQ(a.rows, 32u);
  EXPECT_EQ(a.row_bytes, 16u * 4);
  EXPECT_EQ(a.pitch_bytes, 64u * 4);
  const Region b = b1.address.for_block(BlockCoord{2, 3});
  const std::uint64_t b_base = 1 << 20;  // A takes 32 KiB, aligned up to 1 MiB
  EXPECT_EQ(b.base, b_base + (16 * 256 + 3 * 64) * 4u);
  EXPECT_EQ(b.rows, 16u);
  EXPECT_EQ(b.row_bytes, 64u * 4);
}

// 100 x 90 x 40 in 32 x 64 x 16 tiles: a grid of 4 x 2 blocks of 3 K-steps, each last one an
// edge tile that loads and stores only what lies in the matrix.
TEST(GemmKernel, EdgeTilesLoadAndStoreOnlyWhatLiesInTheMatrix) {
  const GemmSpec spec = tiled_gemm(100, 90, 40, TileShape{32, 64, 16});
  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.grid_rows, 4u);
  EXPECT_EQ(kernel.blocks(), 8u);
  const auto& ops = kernel.program.ops();
  ASSERT_EQ(kernel.program.label(6), "load A_2");
  ASSERT_EQ(kernel.program.label(7), "load B_2");
  ASSERT_EQ(kernel.program.label(9), "store C_0");
  const Op& a2 = ops[6];
  const Op& b2 = ops[7];
  const Op& c = ops[9];
  // A: the last K-step has 40 - 32 = 8 columns; the last block row 100 - 96 = 4 rows.
  const Region a_inner = a2.address.for_block(BlockCoord{0, 1});
  EXPECT_EQ(a_inner.rows, 32u);
  EXPECT_EQ(a_inner.row_bytes, 8u * 4);
  EXPECT_EQ(a_inner.pitch_bytes, 40u * 4);
  const Region a_edge = a2.address.for_block(BlockCoord{3, 1});
  EXPECT_EQ(a_edge.base, (96 * 40 + 32) * 4u);  // row 96, column 32 of A
  EXPECT_EQ(a_edge.rows, 4u);
  EXPECT_EQ(a2.hbm_bytes(BlockCoord{3, 0}), 4u * 8 * 4);
  // B: 8 rows in the last K-step; the last block column keeps 90 - 64 = 26 of its 64 columns.
  EXPECT_EQ(b2.address.for_block(BlockCoord{0, 0}).row_bytes, 64u * 4);
  const Region b_edge = b2.address.for_block(BlockCoord{0, 1});
  EXPECT_EQ(b_edge.rows, 8u);
  EXPECT_EQ(b_edge.row_bytes, 26u * 4);
  EXPECT_EQ(b_edge.pitch_bytes, 90u * 4);
  // C: the corner block keeps 4 x 26 of its 32 x 64 outputs.
  EXPECT_EQ(c.hbm_bytes(BlockCoord{0, 0}), 32u * 64 * 4);
  EXPECT_EQ(c.hbm_bytes(BlockCoord{3, 1}), 4u * 26 * 4);
  // Every block computes its whole tile (predicated lanes included) and lands whole tiles.
  EXPECT_EQ(ops[8].flops, 2u * 32 * 64 * 16);
  EXPECT_EQ(a2.sram_write_bytes, 32u * 16 * 4);

  // Summed over the grid, the bytes loaded and stored are the analytical Q to the byte.
  std::uint64_t bytes = 0;
  for (std::uint64_t row = 0; row < 4; ++row) {
    for (std::uint64_t col = 0; col < 2; ++col) {
      for (const Op& op : ops) {
        if (op.is_memory()) bytes += op.hbm_bytes(BlockCoord{row, col});
      }
    }
  }
  EXPECT_EQ(bytes, analyze(spec, Roof{1e12, 1e12}).hbm_bytes());
  // ceil(N/B_N) M K e + ceil(M/B_M) K N e + M N e
  EXPECT_EQ(bytes, 2u * 100 * 40 * 4 + 4u * 40 * 90 * 4 + 100u * 90 * 4);
}

}  // namespace
}  // namespace ridgeline
