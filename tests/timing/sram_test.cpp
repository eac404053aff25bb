#include "models/sram.hpp"

#include <gtest/gtest.h>

#include "models/register_file.hpp"

namespace ridgeline {
namespace {

SramTiming sram() {
  return SramTiming(SramParams{192 * 1024, 128, 64}, Clock(1'000'000'000));  // 1 ns cycles
}

TEST(SramTiming, AllocationsAreCheckedAgainstCapacity) {
  SramTiming s = sram();
  EXPECT_TRUE(s.allocate(128 * 1024));
  EXPECT_FALSE(s.allocate(128 * 1024));  // 256 KiB > 192 KiB: refused, nothing taken
  EXPECT_EQ(s.allocated_bytes(), 128u * 1024);
  EXPECT_TRUE(s.allocate(64 * 1024));
  s.release(128 * 1024);
  EXPECT_EQ(s.allocated_bytes(), 64u * 1024);
  EXPECT_EQ(s.stats().peak_allocated_bytes, 192u * 1024);
}

TEST(SramTiming, ReadPortReservesBytesPerCycle) {
  SramTiming s = sram();
  EXPECT_EQ(s.read_time(1280).ps(), 10'000u);  // 10 cycles of 128 B
  EXPECT_EQ(s.read_time(1281).ps(), 11'000u);  // a partial cycle is a cycle
  s.occupy_read(Time::from_ps(5000), 1280);
  EXPECT_EQ(s.read_start(Time{}, 1).ps(), 15'000u);
  EXPECT_EQ(s.stats().read_bytes, 1280u);
}

TEST(SramTiming, WritesStreamAsDataArrives) {
  SramTiming s = sram();
  // 640 B at 64 B/cycle: 10 ns. Arriving until 100 ns, the write ends with the arrival...
  EXPECT_EQ(s.write_streaming(Time{}, Time::from_ps(100'000), 640).ps(), 100'000u);
  // ...and a second burst arriving at the same time queues behind it.
  EXPECT_EQ(s.write_streaming(Time{}, Time::from_ps(100'000), 640).ps(), 110'000u);
  EXPECT_EQ(s.stats().write_bytes, 1280u);
}

// One port for both (NVIDIA's banks): a write booked ahead, where its data will arrive, leaves
// the time before it to reads that fit there; a read too long for the gap goes after it, and a
// write whose data arrives while a read holds the port waits for it.
TEST(SramTiming, ASharedPortFitsEachTransferInTheFirstGapLongEnough) {
  SramTiming s(SramParams{192 * 1024, 128, 128, true}, Clock(1'000'000'000));  // 1 ns cycles
  // 1280 B arriving until 100 ns: booked over [90, 100) ns.
  EXPECT_EQ(s.write_streaming(Time{}, Time::from_ps(100'000), 1280).ps(), 100'000u);
  EXPECT_EQ(s.read_start(Time::from_ps(20'000), 1280).ps(), 20'000u);  // [20, 30) is free
  s.occupy_read(Time::from_ps(20'000), 1280);
  // 80 ns of reads from 30 ns do not fit before 90: they start when the write is done.
  EXPECT_EQ(s.read_start(Time::from_ps(30'000), 80 * 128).ps(), 100'000u);
  // 60 ns of reads from 30 ns do.
  EXPECT_EQ(s.read_start(Time::from_ps(30'000), 60 * 128).ps(), 30'000u);
  s.occupy_read(Time::from_ps(30'000), 60 * 128);  // [30, 90): the port is full to 100 ns
  // A write whose data ends arriving at 95 ns finds the port taken until 100 ns.
  EXPECT_EQ(s.write_streaming(Time::from_ps(40'000), Time::from_ps(95'000), 640).ps(), 105'000u);
  // A write never starts before its load was issued, even when its data is quick.
  EXPECT_EQ(s.write_streaming(Time::from_ps(200'000), Time::from_ps(201'000), 1280).ps(), 210'000u);
  EXPECT_EQ(s.stats().read_busy.ps(), 70'000u);
  EXPECT_EQ(s.stats().write_busy.ps(), 25'000u);
}

TEST(RegisterFileTiming, AccumulatorsMustFit) {
  RegisterFileTiming registers(RegisterFileParams{256 * 1024});
  EXPECT_TRUE(registers.allocate(192 * 1024));
  EXPECT_FALSE(registers.allocate(128 * 1024));
  EXPECT_EQ(registers.stats().peak_allocated_bytes, 192u * 1024);
}

}  // namespace
}  // namespace ridgeline
