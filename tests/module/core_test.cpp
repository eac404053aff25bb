// A core alone with an HBM: one block's timeline, computed by hand, to the picosecond.
#include <gtest/gtest.h>

#include <systemc>

#include "sim/run/accelerator.hpp"
#include "tests/tiny_machine.hpp"
#include "workloads/stream.hpp"

namespace ridgeline {
namespace {

using test::machine;
using test::two_step_gemm;

TEST(Core, SingleBufferingSerialisesLoadsAndCompute) {
  const HardwareParams hw = machine();
  const Kernel kernel = two_step_gemm(1);
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  const CoreStats& stats = top.cores[0]->stats();
  // A_0 4096 B: 0..4096 on the channel, data at 5096. B_0: 4096..8192, data at 9192.
  // compute_0 (65536 FLOP = 656 cycles): 9192..665192. A_1, B_1 wait for it: data at 674384.
  // compute_1: 674384..1330384. Store C 4096 B: done at 1330384 + 4096 + 1000 = 1335480. The
  // store is posted: the block retires when it leaves the queue, at 1330384, and the core, with
  // no block, waits for the HBM to take it (its finish).
  EXPECT_EQ(stats.finish.ps(), 1'335'480u);
  EXPECT_EQ(stats.compute_busy.ps(), 2u * 656'000);
  EXPECT_EQ(stats.waiting_data.ps(), 2u * 9192);
  EXPECT_EQ(stats.draining.ps(), 0u);
  EXPECT_EQ(stats.no_work.ps(), 5096u);
  EXPECT_EQ(stats.overlap.ps(), 0u);
  EXPECT_EQ(stats.buffer_wait.ps(), 665'192u);  // A_1 was next in line from t = 0
  EXPECT_EQ(stats.load_bytes, 4u * 4096);
  EXPECT_EQ(stats.store_bytes, 4096u);
  EXPECT_EQ(top.hbm.timing().stats().read_bytes, 4u * 4096);
  EXPECT_EQ(top.hbm.timing().stats().write_bytes, 4096u);
  EXPECT_EQ(top.cores[0]->compute.timing.stats().flops, 2u * 65536);
}

TEST(Core, DoubleBufferingOverlapsTheNextLoadsWithCompute) {
  const HardwareParams hw = machine();
  const Kernel kernel = two_step_gemm(2);
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  const CoreStats& stats = top.cores[0]->stats();
  // A_1 and B_1 go right after A_0 and B_0 (data at 13288 and 17384), under compute_0
  // (9192..665192); compute_1 follows at once: 665192..1321192; store done at 1326288.
  EXPECT_EQ(stats.finish.ps(), 1'326'288u);
  EXPECT_EQ(stats.waiting_data.ps(), 9192u);
  EXPECT_EQ(stats.overlap.ps(), 17384u - 9192u);
  EXPECT_EQ(stats.buffer_wait.ps(), 0u);
}

TEST(Core, ABlockRunsItsLaunchFirst) {
  HardwareParams hw = machine();
  hw.core.block_launch = Cycles{100};
  hw.core.warp_launch = Cycles{10};
  const Kernel kernel = two_step_gemm(2);  // 32 x 32 threads: 32 warps
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  const CoreStats& stats = top.cores[0]->stats();
  // The launch, 100 + 32 x 10 = 420 cycles at 1 GHz, comes before everything of the double-
  // buffered timeline above, which then runs as it did: finish 420000 + 1326288.
  EXPECT_EQ(stats.finish.ps(), 420'000u + 1'326'288u);
  EXPECT_EQ(stats.launching.ps(), 420'000u);
  EXPECT_EQ(stats.waiting_data.ps(), 9192u);
  EXPECT_EQ(stats.compute_busy.ps(), 2u * 656'000);
}

TEST(Core, APostedStoreFreesItsSlotForTheNextBlockAtOnce) {
  HardwareParams hw = machine();
  hw.core.block_launch = Cycles{10};
  StreamSpec spec;
  spec.kernel = StreamKernel::write;
  spec.length = 64;
  spec.dtype = DataType::fp64;
  spec.threads = 32;  // two blocks of 256 B stores, one warp each
  const Kernel kernel = build_kernel(spec);
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  const CoreStats& stats = top.cores[0]->stats();
  // Block 0: launched 0..10000 (10 + 0 cycles a warp), its store leaves at once and the block
  // retires; block 1 is admitted then: launched 10000..20000, its store leaves at 20000. The
  // stores take the channel 10000..10256 and 20000..20256, and land 1 ns later: 21256.
  EXPECT_EQ(stats.blocks, 2u);
  EXPECT_EQ(stats.finish.ps(), 21'256u);
  EXPECT_EQ(stats.launching.ps(), 20'000u);
  EXPECT_EQ(stats.store_bytes, 2u * 256);
  EXPECT_EQ(top.hbm.timing().stats().last_transfer.ps(), 20'256u);
}

TEST(Core, InFlightLimitHoldsRequestsBack) {
  HardwareParams hw = machine();
  hw.core.max_bytes_in_flight = 4096;  // one tile at a time
  const Kernel kernel = two_step_gemm(2);
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  const CoreStats& stats = top.cores[0]->stats();
  // Each tile now waits for the previous one's data: A_0 at 5096, B_0 at 10192, A_1 at 15288,
  // B_1 at 20384; compute_0 10192..666192, compute_1 666192..1322192, store at 1327288.
  EXPECT_EQ(stats.finish.ps(), 1'327'288u);
  EXPECT_EQ(stats.in_flight_limit.ps(), 15288u);  // B_0, A_1, B_1 each waited in turn
}

// What one core and the HBM counted when `kernel` ran alone on `hw`.
struct Alone {
  CoreStats core;
  HbmStats hbm;
};
Alone run_alone(const HardwareParams& hw, const Kernel& kernel) {
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  return Alone{top.cores[0]->stats(), top.hbm.timing().stats()};
}

KernelTarget barriers_of(std::uint64_t cycles) {
  KernelTarget target;
  target.barrier = Cycles{cycles};
  return target;
}

// Barriers of 10 cycles (10 ns) in the timelines above. One stage: load_k -> arrive_k ->
// compute_k -> release_k -> load_k+1, three barriers in all.
TEST(Core, BarriersHoldTheBlockForTheirCycles) {
  const CoreStats stats = run_alone(machine(), two_step_gemm(1, barriers_of(10))).core;
  // B_0 at 9192; arrive 9192..19192; compute_0 19192..675192; release ..685192; A_1 data at
  // 690288, B_1 at 694384; arrive ..704384; compute_1 ..1360384; store C done at 1365480: the
  // single-buffered timeline plus 3 x 10 ns.
  EXPECT_EQ(stats.finish.ps(), 1'365'480u);
  EXPECT_EQ(stats.barriers, 3u);
  EXPECT_EQ(stats.barrier_time.ps(), 30'000u);
  EXPECT_EQ(stats.barrier_wait.ps(), 30'000u);  // compute idle during each, one block resident
  EXPECT_EQ(stats.waiting_data.ps(), 2u * 9192);
}

TEST(Core, DoubleBufferingSynchronisesOncePerStep) {
  const CoreStats stats = run_alone(machine(), two_step_gemm(2, barriers_of(10))).core;
  // arrive_0 9192..19192, compute_0 ..675192, arrive_1 (loads long there) ..685192, compute_1
  // ..1341192, store done at 1346288: the double-buffered timeline plus 2 x 10 ns.
  EXPECT_EQ(stats.finish.ps(), 1'346'288u);
  EXPECT_EQ(stats.barriers, 2u);
}

// A thread may hold 2 registers but needs 3: one register per thread (1024 x 4 bytes per block)
// is written back after compute_0 and reloaded before compute_1.
TEST(Core, SpilledRegistersMakeARoundTripThroughMemory) {
  KernelTarget target;
  target.max_registers_per_thread = 2;
  const Kernel kernel = two_step_gemm(1, target);
  EXPECT_EQ(kernel.register_bytes_per_block, 1024u * 2 * 4);
  const Alone run = run_alone(machine(), kernel);
  const CoreStats& stats = run.core;
  // compute_0 ends at 665192; the write-back leaves first (channel 665192..669288), then A_1
  // (..673384), the reload (..677480, data at 678480), B_1 (..681576, data at 682576);
  // compute_1 682576..1338576; store C done at 1343672.
  EXPECT_EQ(stats.finish.ps(), 1'343'672u);
  EXPECT_EQ(stats.local_loads, 1u);
  EXPECT_EQ(stats.local_stores, 1u);
  EXPECT_EQ(stats.local_load_bytes, 4096u);
  EXPECT_EQ(stats.local_store_bytes, 4096u);
  EXPECT_EQ(stats.spill_wait.ps(), 678'480u - 665'192u);  // the reload queued, then in flight
  EXPECT_EQ(stats.waiting_data.ps(), 9192u + (682'576u - 678'480u));
  EXPECT_EQ(run.hbm.read_bytes, 4u * 4096 + 4096);
  EXPECT_EQ(run.hbm.write_bytes, 4096u + 4096);
}

// Four blocks of 32 warps on a core of 64 warps and room for four: two at a time.
TEST(Core, WarpsLimitResidentBlocks) {
  HardwareParams hw = machine();
  hw.core.max_resident_blocks = 4;
  hw.core.max_warps = 64;
  GemmSpec spec;
  spec.m = spec.n = 64;
  spec.k = 64;
  spec.tile = TileShape{32, 32, 32};
  spec.stages = 2;
  const Kernel kernel = build_kernel(spec);
  ASSERT_EQ(kernel.warps_per_block, 32u);
  const CoreStats stats = run_alone(hw, kernel).core;
  EXPECT_EQ(stats.blocks, 4u);
  EXPECT_EQ(stats.peak_resident_blocks, 2u);
  EXPECT_GT(stats.full_by_warps.ps(), 0u);
  EXPECT_EQ(stats.full_by_blocks.ps() + stats.full_by_sram.ps() + stats.full_by_registers.ps(), 0u);
  // Every resident block holds its 32 warps; at most two, at least one, are resident throughout.
  EXPECT_EQ(stats.resident_warp_time.ps(), 32 * stats.resident_block_time.ps());
  EXPECT_LE(stats.resident_block_time.ps(), 2 * stats.finish.ps());
  EXPECT_GE(stats.resident_block_time.ps(), stats.finish.ps());
}

// Two blocks: the first stores 1024 B and signals flag 0, the second waits for it, then loads
// those bytes back (a split-K reduction's hand-over, in miniature).
Kernel hand_over() {
  AddressPattern bytes;
  bytes.region_of_block0 = Region::contiguous(0, 1024);
  ProgramBuilder producer({"partial"});
  const std::uint32_t store = producer.add(Op::store(0, 0, bytes));
  const std::uint32_t signal = producer.add(Op::signal(0, FlagPattern{}));
  producer.depend(store, signal, EdgeKind::data);
  ProgramBuilder consumer({"partial"});
  const std::uint32_t wait = consumer.add(Op::wait(0, FlagPattern{}, 1));
  const std::uint32_t load = consumer.add(Op::load(0, 0, bytes, 0));
  consumer.depend(wait, load, EdgeKind::data);
  Kernel kernel;
  kernel.grid_rows = 2;
  kernel.program = producer.compile();
  kernel.bands.push_back(ProgramBand{1, consumer.compile()});
  kernel.flags = 1;
  kernel.threads_per_block = 32;
  kernel.warps_per_block = 1;
  return kernel;
}

TEST(Core, AWaitEndsWhenAnotherCoresBlockSignals) {
  HardwareParams hw = machine();
  hw.cores = 2;
  const Kernel kernel = hand_over();
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  // Core 0's store: the channel 0..1024, data in at 2024, the signal then. Core 1 waits from 0;
  // its load goes at 2024: the channel 2024..3048, data at 4048, when its block retires.
  const CoreStats& waiter = top.cores[1]->stats();
  EXPECT_EQ(waiter.flag_waits, 1u);
  EXPECT_EQ(waiter.waiting_blocks.ps(), 2024u);
  EXPECT_EQ(waiter.waiting_data.ps(), 2024u);
  EXPECT_EQ(waiter.finish.ps(), 4048u);
  EXPECT_EQ(top.cores[0]->stats().finish.ps(), 2024u);
  EXPECT_EQ(top.flags.waiting(), 0u);
}

TEST(Core, AWaitForAFlagAlreadySignalledEndsAtOnce) {
  const HardwareParams hw = machine();  // one core, one block at a time: the producer first
  const Kernel kernel = hand_over();
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  const CoreStats& stats = top.cores[0]->stats();
  // The producer retires at 2024 (its signal); the consumer's load then: 2024..3048, at 4048.
  EXPECT_EQ(stats.waiting_blocks.ps(), 0u);
  EXPECT_EQ(stats.finish.ps(), 4048u);
  EXPECT_EQ(stats.blocks, 2u);
}

}  // namespace
}  // namespace ridgeline
