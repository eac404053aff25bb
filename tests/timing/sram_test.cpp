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
  EXPECT_EQ(s.read_free().ps(), 15'000u);
  EXPECT_EQ(s.stats().read_bytes, 1280u);
}

TEST(SramTiming, WritesStreamAsDataArrives) {
  SramTiming s = sram();
  // 640 B at 64 B/cycle: 10 ns. Arriving until 100 ns, the write ends with the arrival...
  EXPECT_EQ(s.write_streaming(Time::from_ps(100'000), 640).ps(), 100'000u);
  // ...and a second burst arriving at the same time queues behind it.
  EXPECT_EQ(s.write_streaming(Time::from_ps(100'000), 640).ps(), 110'000u);
  EXPECT_EQ(s.stats().write_bytes, 1280u);
}

TEST(RegisterFileTiming, AccumulatorsMustFit) {
  RegisterFileTiming registers(RegisterFileParams{256 * 1024});
  EXPECT_TRUE(registers.allocate(192 * 1024));
  EXPECT_FALSE(registers.allocate(128 * 1024));
  EXPECT_EQ(registers.stats().peak_allocated_bytes, 192u * 1024);
}

}  // namespace
}  // namespace ridgeline
