// The operator kinds beside GEMM (workloads/elementwise.hpp, row_reduction.hpp, attention.hpp):
// their analytical figures by hand, and the block programs that carry them, to the byte.
#include <gtest/gtest.h>

#include "tests/kernel_traffic.hpp"
#include "workloads/attention.hpp"
#include "workloads/elementwise.hpp"
#include "workloads/gather.hpp"
#include "workloads/row_reduction.hpp"

namespace ridgeline {
namespace {

const Roof kRoof{1e12, 1e12, 1e11};

using test::traffic_of;

template <class Spec>
void expect_program_carries_analysis(const Spec& spec) {
  const Analysis a = analyze(spec, kRoof);
  const test::KernelTraffic m = traffic_of(build_kernel(spec));
  EXPECT_EQ(m.load_bytes, a.hbm_read_bytes);
  EXPECT_EQ(m.store_bytes, a.hbm_write_bytes);
  EXPECT_EQ(m.flops, a.issued_flops);
}

ElementwiseSpec binary(ElementwiseOp op, TensorShape a, TensorShape b, std::uint64_t threads,
                       std::uint64_t per_thread) {
  ElementwiseSpec spec;
  spec.operation = op;
  spec.inputs = {std::move(a), std::move(b)};
  spec.dtype = DataType::bf16;
  spec.threads = threads;
  spec.elements_per_thread = per_thread;
  return spec;
}

TEST(Elementwise, ARowThatRepeatsIsReadWholeByEveryBlock) {
  // [64, 128] + [128] in blocks of 32 x 4 = 128 outputs: 64 blocks, each reading its row of a
  // and all 128 elements of b.
  const ElementwiseSpec spec =
      binary(ElementwiseOp::add, TensorShape{{64, 128}}, TensorShape{{128}}, 32, 4);
  ASSERT_FALSE(check_rules(spec));
  EXPECT_EQ(spec.output(), (TensorShape{{64, 128}}));
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, 8192u);
  EXPECT_EQ(a.hbm_read_bytes, 8192u * 2 + 64 * 128 * 2);
  EXPECT_EQ(a.hbm_write_bytes, 8192u * 2);
  expect_program_carries_analysis(spec);
}

TEST(Elementwise, ARowLongerThanABlockIsReadInRuns) {
  // [8, 512] + [512] in blocks of 128: b's 512 elements in four runs, block r reading run r mod 4.
  const ElementwiseSpec spec =
      binary(ElementwiseOp::mul, TensorShape{{8, 512}}, TensorShape{{512}}, 32, 4);
  ASSERT_FALSE(check_rules(spec));
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.hbm_read_bytes, 4096u * 2 + 32 * 128 * 2);
  const Kernel kernel = build_kernel(spec);
  const Region b = kernel.program.ops()[1].address.for_block(BlockCoord{5, 0});
  EXPECT_EQ(b.base, (1u << 20) + 128 * 2);  // b after a's aligned MiB; run 5 mod 4 = 1
  EXPECT_EQ(b.bytes(), 128u * 2);
  expect_program_carries_analysis(spec);
}

TEST(Elementwise, AColumnThatSpreadsIsReadOneElementARun) {
  // [64, 128] * [64, 1]: each element of b serves a row of 128 outputs, a block's worth.
  const ElementwiseSpec rows =
      binary(ElementwiseOp::mul, TensorShape{{64, 128}}, TensorShape{{64, 1}}, 32, 4);
  EXPECT_EQ(analyze(rows, kRoof).hbm_read_bytes, 8192u * 2 + 64 * 2);
  expect_program_carries_analysis(rows);
  // [4, 1024] * [4, 1] in blocks of 128: eight blocks share an element of b.
  const ElementwiseSpec wide =
      binary(ElementwiseOp::mul, TensorShape{{4, 1024}}, TensorShape{{4, 1}}, 32, 4);
  EXPECT_EQ(analyze(wide, kRoof).hbm_read_bytes, 4096u * 2 + 32 * 2);
  const Kernel kernel = build_kernel(wide);
  EXPECT_EQ(kernel.program.ops()[1].address.for_block(BlockCoord{17, 0}).base,
            (1u << 20) + 2 * 2);  // block 17 is in row 17 / 8 = 2
  expect_program_carries_analysis(wide);
}

TEST(Elementwise, AnActivationCountsItsFormulasFlops) {
  ElementwiseSpec gelu;
  gelu.operation = ElementwiseOp::gelu;
  gelu.inputs = {TensorShape{{1000}}};
  gelu.dtype = DataType::fp32;
  gelu.threads = 128;
  const Analysis a = analyze(gelu, kRoof);
  EXPECT_EQ(a.flops, 9u * 1000);  // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  EXPECT_EQ(a.hbm_bytes(), 2u * 1000 * 4);
  EXPECT_EQ(build_kernel(gelu).blocks(), 1u);  // 1024 outputs a block: the whole tensor
  expect_program_carries_analysis(gelu);
}

TEST(Elementwise, TheRotaryEmbeddingCostsThreeFlopsAnElement) {
  ElementwiseSpec rope;
  rope.operation = ElementwiseOp::rope;
  rope.inputs = {TensorShape{{16, 4 * 128}}};  // 16 tokens of 4 heads of 128
  rope.dtype = DataType::bf16;
  const Analysis a = analyze(rope, kRoof);
  EXPECT_EQ(a.flops, 3u * 16 * 512);  // x1 cos - x2 sin (and x2 cos + x1 sin): 3 an output
  EXPECT_EQ(a.hbm_bytes(), 2u * 16 * 512 * 2);
  expect_program_carries_analysis(rope);
}

TEST(Elementwise, BroadcastsNotModelledAreRefused) {
  const ElementwiseSpec middle =
      binary(ElementwiseOp::add, TensorShape{{2, 4, 3}}, TensorShape{{2, 1, 3}}, 32, 4);
  ASSERT_TRUE(check_rules(middle));
  EXPECT_EQ(check_rules(middle)->key_path, "workload.inputs");
  const ElementwiseSpec uneven =
      binary(ElementwiseOp::add, TensorShape{{64, 100}}, TensorShape{{100}}, 32, 4);
  ASSERT_TRUE(check_rules(uneven));
  EXPECT_EQ(check_rules(uneven)->key_path, "workload.elements_per_thread");
  const ElementwiseSpec clash =
      binary(ElementwiseOp::add, TensorShape{{64, 100}}, TensorShape{{3, 100}}, 32, 4);
  ASSERT_TRUE(check_rules(clash));
  EXPECT_NE(check_rules(clash)->rule.find("do not broadcast"), std::string::npos);
}

RowReductionSpec reduction(RowReduction op, TensorShape shape, std::uint32_t passes) {
  RowReductionSpec spec;
  spec.operation = op;
  spec.shape = std::move(shape);
  spec.dtype = DataType::fp16;
  spec.passes = passes;
  return spec;
}

TEST(RowReduction, SoftmaxOnChipReadsARowOnceAndSweepsItThreeTimes) {
  RowReductionSpec spec = reduction(RowReduction::softmax, TensorShape{{64, 1024}}, 1);
  spec.rows_per_block = 2;
  ASSERT_FALSE(check_rules(spec));
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, 64u * (5 * 1024 + 1));
  EXPECT_EQ(a.hbm_read_bytes, 64u * 1024 * 2);
  EXPECT_EQ(a.hbm_write_bytes, 64u * 1024 * 2);
  EXPECT_EQ(a.sram_write_bytes, 64u * 1024 * 2);
  EXPECT_EQ(a.sram_read_bytes, 3u * 64 * 1024 * 2);  // max, sum of exponentials, normalise
  EXPECT_EQ(a.footprint.sram_bytes, 2u * 1024 * 2);
  expect_program_carries_analysis(spec);
}

TEST(RowReduction, LayerNormInTwoPassesReadsEachRowTwiceAndItsParametersEachBlock) {
  // [10, 256] in blocks of 4 rows (the last of 2), chunks of 64 columns: 2 passes x 4 chunks.
  RowReductionSpec spec = reduction(RowReduction::layer_norm, TensorShape{{10, 256}}, 2);
  spec.dtype = DataType::bf16;
  spec.rows_per_block = 4;
  spec.chunk_columns = 64;
  ASSERT_FALSE(check_rules(spec));
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, 10u * ((6 + 2) * 256 + 4));
  EXPECT_EQ(a.hbm_read_bytes, 2u * 10 * 256 * 2 + 3 * 2 * 256 * 2);  // weight, bias a block
  EXPECT_EQ(a.hbm_write_bytes, 10u * 256 * 2);
  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.blocks(), 3u);
  std::uint64_t computes = 0;
  for (const Op& op : kernel.program.ops()) computes += op.kind == OpKind::compute ? 1 : 0;
  EXPECT_EQ(computes, 8u);
  expect_program_carries_analysis(spec);
}

TEST(RowReduction, PassesOutsideTheReductionsRangeAreRefused) {
  const RowReductionSpec rms = reduction(RowReduction::rms_norm, TensorShape{{4, 64}}, 3);
  ASSERT_TRUE(check_rules(rms));
  EXPECT_EQ(check_rules(rms)->key_path, "workload.passes");
  RowReductionSpec rms_plain = reduction(RowReduction::rms_norm, TensorShape{{4, 64}}, 2);
  rms_plain.affine = false;
  EXPECT_EQ(analyze(rms_plain, kRoof).flops, 4u * (3 * 64 + 3));
}

AttentionSpec causal_gqa() {
  AttentionSpec spec;
  spec.heads = 4;
  spec.kv_heads = 2;
  spec.query_length = spec.key_length = 256;
  spec.head_dim = 64;
  spec.dtype = DataType::bf16;
  spec.causal = true;
  spec.tile = AttentionTile{128, 64};
  return spec;
}

TEST(Attention, FusedCausalComputesTheKeyTilesItsQueriesSee) {
  const AttentionSpec spec = causal_gqa();
  ASSERT_FALSE(check_rules(spec));
  EXPECT_EQ(spec.kv_steps(0), 2u);  // queries 0..127 see keys up to 127
  EXPECT_EQ(spec.kv_steps(1), 4u);
  const Analysis a = analyze(spec, kRoof);
  // 256 x 257 / 2 pairs seen, 4 d FLOPs each, 4 heads.
  EXPECT_EQ(a.flops, 4u * 64 * (256 * 257 / 2) * 4);
  // 6 key tiles a head, each 4 x 128 x 64 x 64 on the matrix units; the softmax 5 a score and
  // O's rescaling each step, the final division once a block.
  const std::uint64_t vector = 4 * (6 * (5 * 128 * 64 + 128 * 64) + 2 * (128 * 64 + 128));
  EXPECT_EQ(a.vector_flops, vector);
  EXPECT_EQ(a.issued_flops, 4u * 6 * 4 * 128 * 64 * 64 + vector);
  // Q and O once; K and V once a block a key tile.
  EXPECT_EQ(a.hbm_read_bytes, 4u * 256 * 64 * 2 + 4 * 6 * 2 * 64 * 64 * 2);
  EXPECT_EQ(a.hbm_write_bytes, 4u * 256 * 64 * 2);
  // Compute at P plus the vector FLOPs at the vector peak.
  EXPECT_DOUBLE_EQ(a.roofline.t_compute_s,
                   static_cast<double>(a.issued_flops - vector) / 1e12 + vector / 1e11);

  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.grid_rows, 8u);  // 2 query tiles x 4 heads
  ASSERT_EQ(kernel.bands.size(), 1u);
  EXPECT_EQ(kernel.bands[0].first_row, 4u);
  // Heads 2 and 3 read K/V head 1, one 256 x 64 BF16 head on.
  const Program& second = kernel.program_for(BlockCoord{6, 0});
  std::uint64_t k_base = 0;
  for (std::uint32_t op = 0; op < second.size(); ++op) {
    if (second.label(op) == "load K_0") k_base = second.ops()[op].address.for_block({6, 0}).base;
  }
  EXPECT_EQ(k_base, (1u << 20) + 256 * 64 * 2);
  expect_program_carries_analysis(spec);
}

TEST(Attention, ADecodeStepStreamsTheWholeCache) {
  // One query against 1000 cached keys, 32 heads sharing 8 K/V heads: 16 key tiles of 64, the
  // last of 40.
  AttentionSpec spec;
  spec.heads = 32;
  spec.kv_heads = 8;
  spec.query_length = 1;
  spec.key_length = 1000;
  spec.head_dim = 128;
  spec.tile = AttentionTile{1, 64};
  spec.warps = 1;
  ASSERT_FALSE(check_rules(spec));
  EXPECT_EQ(spec.kv_steps(0), 16u);
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, 4u * 128 * 1000 * 32);
  EXPECT_EQ(a.hbm_read_bytes, 32u * 128 * 2 + 32 * 2 * 1000 * 128 * 2);
  expect_program_carries_analysis(spec);
}

TEST(Attention, RulesTieHeadsAndTiles) {
  AttentionSpec spec = causal_gqa();
  spec.kv_heads = 3;
  ASSERT_TRUE(check_rules(spec));
  EXPECT_EQ(check_rules(spec)->key_path, "workload.kv_heads");
  spec = causal_gqa();
  spec.key_length = 100;
  ASSERT_TRUE(check_rules(spec));
  EXPECT_EQ(check_rules(spec)->key_path, "workload.key_length");
  spec = causal_gqa();
  spec.stages = 3;  // the first query tile has 2 key tiles
  ASSERT_TRUE(check_rules(spec));
  EXPECT_EQ(check_rules(spec)->key_path, "workload.stages");
}

GatherSpec gather(std::uint64_t table_rows, std::uint64_t columns, std::uint64_t indices) {
  GatherSpec spec;
  spec.table_rows = table_rows;
  spec.columns = columns;
  spec.indices = indices;
  spec.dtype = DataType::bf16;
  return spec;
}

// The table row a block's row load reads, from its address.
std::uint64_t row_loaded(const Kernel& kernel, std::uint64_t block, std::uint64_t row_bytes) {
  for (const Op& op : kernel.program_for(BlockCoord{block, 0}).ops()) {
    if (op.kind == OpKind::load && op.tensor == 0)
      return op.address.for_block(BlockCoord{block, 0}).base / row_bytes;
  }
  return ~std::uint64_t{0};
}

TEST(Gather, AnEmbeddingLookupReadsItsIdsAndItsRowsOnly) {
  // 8 token ids into a [1000, 64] BF16 table: 8 x 4 B of ids and 8 rows of 128 B read, 8 rows
  // written; one block a row; no FLOPs.
  const GatherSpec spec = gather(1000, 64, 8);
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, 0u);
  EXPECT_EQ(a.hbm_read_bytes, 8u * (4 + 128));
  EXPECT_EQ(a.hbm_write_bytes, 8u * 128);
  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.blocks(), 8u);
  expect_program_carries_analysis(spec);
  // Evenly spread: every 125th row, the last of each share (the table starts at address 0).
  EXPECT_EQ(spec.row_of(0), 124u);
  EXPECT_EQ(row_loaded(kernel, 0, 128), 124u);
  EXPECT_EQ(row_loaded(kernel, 7, 128), 999u);
}

TEST(Gather, MoreIndicesThanRowsWrapAroundTheTable) {
  const GatherSpec spec = gather(5, 64, 12);
  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(spec.row_of(7), 2u);
  EXPECT_EQ(row_loaded(kernel, 7, 128), 2u);
  EXPECT_EQ(row_loaded(kernel, 11, 128), 1u);
  expect_program_carries_analysis(spec);
}

TEST(Gather, TheLastPositionOfEachSequence) {
  // 4 sequences of 16 tokens in a [64, 256] table: rows 15, 31, 47 and 63.
  const GatherSpec spec = gather(64, 256, 4);
  const Kernel kernel = build_kernel(spec);
  for (std::uint64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(spec.row_of(i), 16 * i + 15);
    EXPECT_EQ(row_loaded(kernel, i, 512), 16 * i + 15);
  }
}

TEST(Tensors, EachOperatorNamesWhatItReadsAndWritesWhereItLies) {
  // Tensors lie one after the other from address 0, each aligned to 1 MiB.
  const ElementwiseSpec bias =
      binary(ElementwiseOp::add, TensorShape{{256, 4096}}, TensorShape{{4096}}, 256, 8);
  const std::vector<TensorRef> e = tensors(bias);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].name, "a");
  EXPECT_EQ(e[0].bytes(), 256u * 4096 * 2);  // 2 MiB
  EXPECT_EQ(e[1].name, "b");
  EXPECT_EQ(e[1].address, 2u << 20);
  EXPECT_EQ(e[2].name, "y");
  EXPECT_EQ(e[2].role, TensorRole::output);
  EXPECT_EQ(e[2].shape, (TensorShape{{256, 4096}}));
  EXPECT_EQ(e[2].address, 3u << 20);  // the bias's 8 KiB take a MiB

  const RowReductionSpec norm = reduction(RowReduction::layer_norm, TensorShape{{10, 256}}, 1);
  const std::vector<TensorRef> r = tensors(norm);
  ASSERT_EQ(r.size(), 4u);  // x, weight, bias, y
  EXPECT_EQ(r[1].name, "weight");
  EXPECT_EQ(r[1].shape, (TensorShape{{256}}));
  EXPECT_EQ(r[2].name, "bias");
  EXPECT_EQ(r[3].address, 3u << 20);

  const std::vector<TensorRef> t = tensors(causal_gqa());
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[1].name, "K");
  EXPECT_EQ(t[1].shape, (TensorShape{{1, 2, 256, 64}}));  // the K/V heads, not the query heads
  EXPECT_EQ(t[3].shape.text(), "[1, 4, 256, 64]");

  // The whole table is an input; the indices are int32.
  const std::vector<TensorRef> g = tensors(gather(32000, 4096, 2048));
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].name, "table");
  EXPECT_EQ(g[0].bytes(), 32000u * 4096 * 2);
  EXPECT_EQ(g[1].name, "indices");
  EXPECT_EQ(g[1].bytes(), 2048u * 4);
  EXPECT_EQ(g[2].shape, (TensorShape{{2048, 4096}}));
}

}  // namespace
}  // namespace ridgeline
