// Trace files: the line format, streaming, and bad input reported as ConfigError with the trace
// file, line and column.
#include "workloads/memory_trace.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include "sim/config/memory_trace_config.hpp"
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
  // Leading zeros past sixteen digits: the value, not the digits, must fit.
  EXPECT_EQ(parse("LD 0x00000000000000000000fedcba9876543210").address, 0xfedcba9876543210u);
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
  expect_error("ST 0x0000ffffffffffffffff0", 6, "64 bits");
  expect_error("L", 1, "'LD' or 'ST'");
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

// The reader takes the file a block at a time: lines that straddle two blocks, a line longer than
// a block, and a last line without its newline read as the lines they are.
TEST(TraceReader, LinesAcrossBlocksAndWithoutAFinalNewline) {
  const test::ScratchFile file(".trace");
  const std::uint64_t accesses = 2 * TraceReader::kBlockBytes / 16 + 7;  // 2 blocks and more
  {
    std::ofstream out(file.path());
    out << "# " << std::string(TraceReader::kBlockBytes + 5, 'x') << "\n";  // longer than a block
    for (std::uint64_t i = 0; i < accesses; ++i) {
      out << (i % 3 == 0 ? "ST" : "LD") << " 0x" << std::hex << i * 64 << std::dec
          << (i % 5 == 0 ? "\r\n" : "\n");
    }
    out << "LD 0xabc";  // no newline after the last line
  }
  TraceReader reader(file.path());
  MemoryAccess a;
  for (std::uint64_t i = 0; i < accesses; ++i) {
    ASSERT_TRUE(reader.next(a)) << i;
    ASSERT_EQ(a.address, i * 64) << i;
    ASSERT_EQ(a.is_write, i % 3 == 0) << i;
    ASSERT_EQ(reader.line(), i + 2);
  }
  ASSERT_TRUE(reader.next(a));
  EXPECT_EQ(a.address, 0xabcu);
  EXPECT_EQ(reader.text(), "LD 0xabc");
  EXPECT_EQ(reader.line(), accesses + 2);
  EXPECT_FALSE(reader.next(a));
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

// --- generated streams (workload.pattern) ---

TEST(PatternSource, SequentialAddressesStepByTheAccessAndWrapAtTheSpan) {
  AccessPattern p;
  p.accesses = 6;
  p.span_bytes = 256;
  PatternSource source(p, 64);
  std::vector<std::uint64_t> addresses;
  MemoryAccess a;
  while (source.next(a)) {
    EXPECT_FALSE(a.is_write);
    addresses.push_back(a.address);
  }
  EXPECT_EQ(addresses, (std::vector<std::uint64_t>{0, 64, 128, 192, 0, 64}));
}

TEST(PatternSource, RandomAddressesAreAlignedCoverTheSpanEvenlyAndRepeatWithTheSeed) {
  AccessPattern p;
  p.order = AccessPattern::Order::random;
  p.accesses = 64000;
  p.span_bytes = 64 * 64;  // 64 slots
  p.stores = true;
  std::vector<std::uint64_t> counts(64, 0);
  std::vector<std::uint64_t> first;
  PatternSource source(p, 64);
  MemoryAccess a;
  while (source.next(a)) {
    ASSERT_TRUE(a.is_write);
    ASSERT_EQ(a.address % 64, 0u);
    ASSERT_LT(a.address, p.span_bytes);
    ++counts[a.address / 64];
    if (first.size() < 16) first.push_back(a.address);
  }
  // 1000 expected a slot; a uniform draw keeps every slot within 15 % (about 5 sigma).
  for (std::uint64_t c : counts) {
    EXPECT_GT(c, 850u);
    EXPECT_LT(c, 1150u);
  }
  PatternSource again(p, 64);
  for (std::uint64_t address : first) {
    ASSERT_TRUE(again.next(a));
    EXPECT_EQ(a.address, address);
  }
  p.seed = 2;
  PatternSource other(p, 64);
  std::size_t same = 0;
  for (std::uint64_t address : first) {
    ASSERT_TRUE(other.next(a));
    same += a.address == address;
  }
  EXPECT_LT(same, 8u) << "another seed, another stream";
}

class PatternConfig : public ::testing::Test {
 protected:
  RunConfig load(const std::string& workload, const std::vector<std::string>& overrides = {}) {
    std::ofstream(workload_.path()) << "workload:\n  kind: memory_trace\n" << workload;
    return load_config(test::config_path("hardware/hbm3-stack.yaml"), workload_.path(), overrides);
  }
  std::string error_of(const std::string& workload) {
    try {
      load(workload);
    } catch (const ConfigError& error) {
      return error.what();
    }
    ADD_FAILURE() << "no error";
    return "";
  }
  test::ScratchFile workload_{".yaml"};
};

TEST_F(PatternConfig, CountsAndReachFollowFromThePattern) {
  const RunConfig config = load(
      "  pattern: {order: sequential, accesses: 1000, operation: store}\n  access_bytes: 128B\n");
  const auto& spec = std::get<MemoryTraceSpec>(config.workload);
  ASSERT_TRUE(spec.pattern);
  EXPECT_EQ(spec.stores, 1000u);
  EXPECT_EQ(spec.loads, 0u);
  EXPECT_EQ(spec.pattern->span_bytes, 128000u);  // no span: the stream's own length
  EXPECT_EQ(spec.highest_address, 999u * 128);
  EXPECT_EQ(config.analysis.hbm_write_bytes, 128000u);
  EXPECT_TRUE(WorkloadParser<MemoryTraceSpec>::input_files(spec).empty());
  EXPECT_EQ(WorkloadKind<MemoryTraceSpec>::short_label(spec),
            "stream sequential stores over 125 KiB");
  const RunConfig random_config =
      load("  pattern: {order: random, accesses: 10, span: 8GiB, operation: load, seed: 7}\n");
  const auto& random = std::get<MemoryTraceSpec>(random_config.workload);
  EXPECT_EQ(random.loads, 10u);
  EXPECT_EQ(random.pattern->seed, 7u);
  EXPECT_EQ(random.highest_address, (8ull << 30) - 64);
}

TEST_F(PatternConfig, BadPatternsAreLocatedErrors) {
  struct Case {
    const char* workload;  // lines of the workload section
    const char* message;   // a part of the error it must give
  };
  const Case cases[] = {
      {"  path: x.trace\n  pattern: {order: random, accesses: 1, span: 1GiB, operation: load}\n",
       "either a file ('path') or a generated stream ('pattern'), not both"},
      {"  access_bytes: 64B\n", "needs 'path' (a trace file) or 'pattern'"},
      {"  pattern: {order: random, accesses: 1, operation: load}\n",
       "workload.pattern.span: missing required key 'span'"},
      {"  pattern: {order: random, accesses: 1, span: 100B, operation: load}\n",
       "workload.pattern.span: value \"100B\": must be a whole number of accesses"},
      {"  pattern: {order: random, accesses: 1, span: 32GiB, operation: load}\n",
       "the stream reaches 32 GiB but the memory's capacity is 16 GiB"},
      {"  pattern: {order: strided, accesses: 1, operation: load}\n",
       "workload.pattern.order: value \"strided\""},
      {"  pattern: {order: sequential, accesses: 0, operation: load}\n",
       "workload.pattern.accesses"},
      {"  pattern: {order: sequential, accesses: 1, operation: load, sead: 3}\n",
       "unknown key 'sead' (did you mean 'seed'?)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.workload);
    EXPECT_NE(error_of(c.workload).find(c.message), std::string::npos);
  }
}

}  // namespace
}  // namespace ridgeline
