// Trace files: the line format, streaming, and bad input reported as ConfigError with the trace
// file, line and column.
#include "workloads/memory_trace.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "sim/util/config_error.hpp"
#include "tests/test_support.hpp"
#include "tests/trace_support.hpp"

namespace ridgeline {
namespace {

MemoryAccess parse(const std::string& text) {
  MemoryAccess a;
  EXPECT_TRUE(parse_trace_line(text, 1, a)) << text;
  return a;
}

TEST(TraceLine, LoadsAndStoresWithHexAddresses) {
  EXPECT_EQ(parse("LD 0x40").address, 0x40u);
  EXPECT_FALSE(parse("LD 0x40").is_write);
  EXPECT_TRUE(parse("ST 0xDEADbeef").is_write);
  EXPECT_EQ(parse("ST 0xDEADbeef").address, 0xdeadbeefu);
  EXPECT_EQ(parse("  LD\t0XFFFFFFFFFFFFFFFF  \r").address, ~std::uint64_t{0});
  MemoryAccess a;
  EXPECT_FALSE(parse_trace_line("", 1, a));
  EXPECT_FALSE(parse_trace_line("   ", 1, a));
  EXPECT_FALSE(parse_trace_line("# comment", 1, a));
}

void expect_error(const std::string& text, std::uint64_t column, const std::string& rule) {
  MemoryAccess a;
  try {
    parse_trace_line(text, 7, a);
    ADD_FAILURE() << "no error for '" << text << "'";
  } catch (const TraceFormatError& error) {
    EXPECT_EQ(error.line(), 7u);
    EXPECT_EQ(error.column(), column) << text;
    EXPECT_NE(error.rule().find(rule), std::string::npos) << error.rule();
    EXPECT_EQ(error.text(), text);
  }
}

TEST(TraceLine, BadLinesNameTheColumnAndRule) {
  expect_error("LX 0x40", 1, "'LD' or 'ST'");
  expect_error("  READ 0x40", 3, "'LD' or 'ST'");
  expect_error("LD0x40", 3, "a space after");
  expect_error("LD 40", 4, "starting with 0x");
  expect_error("LD 0x", 6, "hexadecimal digits");
  expect_error("LD 0x12g4", 8, "unexpected text");
  expect_error("LD 0x40 64", 9, "unexpected text");
  expect_error("ST 0x10000000000000000", 6, "64 bits");
}

TEST(TraceReader, StreamsLineByLine) {
  const test::ScratchFile file(".trace");
  std::ofstream(file.path()) << "# two accesses\nLD 0x0\n\nST 0x40\n";
  TraceReader reader(file.path());
  MemoryAccess a;
  ASSERT_TRUE(reader.next(a));
  EXPECT_EQ(reader.line(), 2u);
  ASSERT_TRUE(reader.next(a));
  EXPECT_EQ(a.address, 0x40u);
  EXPECT_TRUE(a.is_write);
  EXPECT_EQ(reader.line(), 4u);
  EXPECT_FALSE(reader.next(a));
}

class TraceConfig : public ::testing::Test {
 protected:
  // A workload file replaying a trace with `lines`, on the HBM3 stack; the ConfigError's message.
  std::string error_of(const std::string& lines, const std::vector<std::string>& overrides = {}) {
    std::ofstream(trace_.path()) << lines;
    std::ofstream(workload_.path())
        << "workload:\n  kind: memory_trace\n  path: " << trace_.path() << "\n";
    try {
      load_config(test::config_path("hardware/hbm3-stack.yaml"), workload_.path(), overrides);
    } catch (const ConfigError& error) {
      EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << "one line";
      return error.what();
    }
    ADD_FAILURE() << "no error";
    return "";
  }
  test::ScratchFile trace_{".trace"};
  test::ScratchFile workload_{".yaml"};
};

TEST_F(TraceConfig, BadLineNamesTheTraceFileLineAndColumn) {
  const std::string message = error_of("LD 0x0\nLD 0x40\nLD 0x80 # third\n");
  EXPECT_NE(message.find(trace_.path() + ":3:9: workload.path: value \"LD 0x80 # third\": "
                                         "unexpected text after the address"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("each line is 'LD 0x<hex address>'"), std::string::npos) << message;
}

TEST_F(TraceConfig, AddressBeyondTheStackIsRefused) {
  const std::string message = error_of("LD 0x0\nLD 0x400000000\n");  // 16 GiB: the first byte out
  EXPECT_NE(message.find(trace_.path() + ":2:4: workload.path"), std::string::npos) << message;
  EXPECT_NE(message.find("beyond the memory's capacity of 16 GiB"), std::string::npos) << message;
  // 128 B from 64 B below the end run over it; 64 B (the default access) do not.
  EXPECT_NE(error_of("LD 0x3ffffffc0\n", {"workload.access_bytes=128B"}).find("capacity"),
            std::string::npos);
  const RunConfig config =
      load_config(test::config_path("hardware/hbm3-stack.yaml"), workload_.path(), {});
  const auto& spec = std::get<MemoryTraceSpec>(config.workload);
  EXPECT_EQ(spec.access_bytes, 64u);
  EXPECT_EQ(spec.loads, 1u);
  EXPECT_EQ(spec.highest_address, 0x3ffffffc0u);
}

TEST_F(TraceConfig, EmptyTraceAndMissingFileAreRefused) {
  EXPECT_NE(error_of("# nothing\n\n").find("holds no accesses"), std::string::npos);
  std::ofstream(workload_.path()) << "workload:\n  kind: memory_trace\n  path: no/such.trace\n";
  try {
    load_config(test::config_path("hardware/hbm3-stack.yaml"), workload_.path(), {});
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("cannot open the trace file"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find(":3:9: workload.path"), std::string::npos)
        << error.what();
  }
}

TEST(TraceConfigFile, CountsLoadsAndStoresOfTheBundledSample) {
  const RunConfig config = load_config(test::config_path("hardware/hbm3-stack.yaml"),
                                       test::config_path("workloads/memory/copy-trace.yaml"), {});
  const auto& spec = std::get<MemoryTraceSpec>(config.workload);
  EXPECT_EQ(spec.loads, 1024u);
  EXPECT_EQ(spec.stores, 1024u);
  EXPECT_EQ(config.analysis.flops, 0u);
  EXPECT_EQ(config.analysis.hbm_read_bytes, 1024u * 64);
  EXPECT_EQ(config.analysis.hbm_write_bytes, 1024u * 64);
  EXPECT_DOUBLE_EQ(config.analysis.roofline.t_memory_s, 2048.0 * 64 / 819.2e9);
}

}  // namespace
}  // namespace ridgeline
