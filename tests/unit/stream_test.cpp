// The streaming kernels (workloads/stream.hpp): their analytical figures by hand, and the block
// programs that carry them, to the byte.
#include "workloads/stream.hpp"

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

StreamSpec stream(StreamKernel kernel, std::uint64_t length, std::uint64_t threads) {
  StreamSpec spec;
  spec.kernel = kernel;
  spec.length = length;
  spec.dtype = DataType::fp64;
  spec.threads = threads;
  return spec;
}

TEST(Stream, EachKernelReadsWritesAndComputesWhatItsTableSays) {
  // 1000 doubles: triad reads b and c, writes a, a multiply and an add each.
  const Roof roof{1e12, 1e12};
  const Analysis triad = analyze(stream(StreamKernel::triad, 1000, 128), roof);
  EXPECT_EQ(triad.flops, 2000u);
  EXPECT_EQ(triad.hbm_read_bytes, 2u * 1000 * 8);
  EXPECT_EQ(triad.hbm_write_bytes, 1000u * 8);
  const Analysis read = analyze(stream(StreamKernel::read, 1000, 128), roof);
  EXPECT_EQ(read.flops, 0u);
  EXPECT_EQ(read.hbm_read_bytes, 8000u);
  EXPECT_EQ(read.hbm_write_bytes, 0u);
  const Analysis write = analyze(stream(StreamKernel::write, 1000, 128), roof);
  EXPECT_EQ(write.hbm_read_bytes, 0u);
  EXPECT_EQ(write.hbm_write_bytes, 8000u);
  const Analysis scale = analyze(stream(StreamKernel::scale, 1000, 128), roof);
  EXPECT_EQ(scale.flops, 1000u);
  EXPECT_EQ(scale.hbm_bytes(), 16000u);
  EXPECT_EQ(analyze(stream(StreamKernel::add, 1000, 128), roof).hbm_bytes(), 24000u);
  EXPECT_EQ(analyze(stream(StreamKernel::copy, 1000, 128), roof).flops, 0u);
}

TEST(Stream, BlocksCoverTheArraysAndTheLastTakesWhatIsLeft) {
  // 1000 elements in blocks of 128 threads x 2: 4 blocks, the last of 1000 - 768 = 232.
  StreamSpec spec = stream(StreamKernel::triad, 1000, 128);
  spec.elements_per_thread = 2;
  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.blocks(), 4u);
  EXPECT_EQ(kernel.threads_per_block, 128u);
  const Program& full = kernel.program_for(BlockCoord{0, 0});
  ASSERT_EQ(full.size(), 4u);  // load b, load c, compute, store a
  EXPECT_EQ(full.label(0), "load b_0");
  EXPECT_EQ(full.label(1), "load c_0");
  EXPECT_EQ(full.ops()[2].flops, 2u * 256);
  EXPECT_EQ(full.label(3), "store a_0");
  // Block 2 loads elements 512..767 of c (the third array: a, b, c one after the other, each
  // aligned to 1 MiB).
  const Region c = full.ops()[1].address.for_block(BlockCoord{2, 0});
  EXPECT_EQ(c.base, 2u * (1 << 20) + 512 * 8);
  EXPECT_EQ(c.bytes(), 256u * 8);
  const Program& last = kernel.program_for(BlockCoord{3, 0});
  EXPECT_EQ(last.ops()[0].address.for_block(BlockCoord{3, 0}).bytes(), 232u * 8);
  EXPECT_EQ(last.ops()[2].flops, 2u * 232);
  // Summed over the grid, the bytes moved are the analytical Q.
  std::uint64_t bytes = 0;
  for (std::uint64_t row = 0; row < 4; ++row) {
    for (const Op& op : kernel.program_for(BlockCoord{row, 0}).ops()) {
      if (op.is_memory()) bytes += op.hbm_bytes(BlockCoord{row, 0});
    }
  }
  EXPECT_EQ(bytes, analyze(spec, Roof{1e12, 1e12}).hbm_bytes());
}

TEST(Stream, ReadOnlyAndWriteOnlyBlocksAreOneOp) {
  const Program read = build_kernel(stream(StreamKernel::read, 256, 128)).program;
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read.ops()[0].kind, OpKind::load);
  const Program write = build_kernel(stream(StreamKernel::write, 256, 128)).program;
  ASSERT_EQ(write.size(), 1u);
  EXPECT_EQ(write.ops()[0].kind, OpKind::store);
}

}  // namespace
}  // namespace ridgeline
