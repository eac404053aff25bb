#include "workloads/memory_trace.hpp"

#include <fmt/format.h>

#include <array>
#include <cstring>

namespace ridgeline {

std::string describe(const MemoryTraceSpec& s) {
  return fmt::format("memory_trace {} ({} loads, {} stores of {} B)",
                     s.pattern ? describe(*s.pattern) : s.path, s.loads, s.stores, s.access_bytes);
}

Analysis analyze(const MemoryTraceSpec& s, const Roof& roof, const KernelTarget&) {
  Analysis a;
  a.flops = 0;
  a.hbm_read_bytes = s.loads * s.access_bytes;
  a.hbm_write_bytes = s.stores * s.access_bytes;
  a.roof = roof;
  a.roofline = roofline(a.flops, a.issued_flops, a.hbm_bytes(), roof);
  return a;
}

std::vector<TensorRef> WorkloadKind<MemoryTraceSpec>::tensors(const MemoryTraceSpec& spec) {
  if (spec.accesses() == 0) return {};
  // Bytes as int8 elements: a tensor's size is its elements times their width.
  return {TensorRef{"data", TensorRole::input,
                    TensorShape{{spec.highest_address + spec.access_bytes}}, DataType::int8, 0}};
}

std::string WorkloadKind<MemoryTraceSpec>::short_label(const MemoryTraceSpec& spec) {
  if (spec.pattern) return "stream " + ridgeline::describe(*spec.pattern);
  std::string name = spec.path.substr(spec.path.rfind('/') + 1);
  if (const auto dot = name.rfind('.'); dot != std::string::npos && dot > 0) name.resize(dot);
  return "trace " + name;
}

TraceFormatError::TraceFormatError(std::uint64_t line, std::uint64_t column, std::string text,
                                   std::string rule)
    : std::runtime_error(fmt::format("line {}, column {}: {}", line, column, rule)),
      line_(line),
      column_(column),
      text_(std::move(text)),
      rule_(std::move(rule)) {}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// A digit's value, or -1: one table lookup, as the digits of random addresses mix 0-9 and a-f
// and the comparisons' branches would mispredict on most of them.
constexpr std::array<std::int8_t, 256> kHexDigits = [] {
  std::array<std::int8_t, 256> digits{};
  for (int c = 0; c < 256; ++c) {
    digits[c] = c >= '0' && c <= '9'   ? static_cast<std::int8_t>(c - '0')
                : c >= 'a' && c <= 'f' ? static_cast<std::int8_t>(c - 'a' + 10)
                : c >= 'A' && c <= 'F' ? static_cast<std::int8_t>(c - 'A' + 10)
                                       : std::int8_t{-1};
  }
  return digits;
}();

int hex_digit(char c) { return kHexDigits[static_cast<unsigned char>(c)]; }

}  // namespace

bool parse_trace_line(std::string_view text, std::uint64_t line, MemoryAccess& access) {
  const std::size_t end = text.size();
  std::size_t at = 0;
  auto fail = [&](std::size_t column0, const std::string& rule) {
    throw TraceFormatError(line, column0 + 1, std::string(text), rule);
  };
  while (at < end && is_space(text[at])) ++at;
  if (at == end || text[at] == '#') return false;  // blank or comment
  const std::string_view verb = text.substr(at, 2);
  if (verb == "LD") {
    access.is_write = false;
  } else if (verb == "ST") {
    access.is_write = true;
  } else {
    fail(at, "expected 'LD' or 'ST' at the start of the line");
  }
  at += 2;
  if (at == end || !is_space(text[at])) fail(at, "expected a space after LD or ST");
  while (at < end && is_space(text[at])) ++at;
  if (at + 1 >= end || text[at] != '0' || (text[at + 1] != 'x' && text[at + 1] != 'X')) {
    fail(at, "expected a hexadecimal address starting with 0x");
  }
  at += 2;
  const std::size_t digits_start = at;
  std::uint64_t address = 0;
  for (int digit = 0; at < end && (digit = hex_digit(text[at])) >= 0; ++at) {
    if (address >> 60 != 0) fail(digits_start, "the address does not fit in 64 bits");
    address = address << 4 | static_cast<std::uint64_t>(digit);
  }
  if (at == digits_start) fail(at, "expected hexadecimal digits after 0x");
  while (at < end && is_space(text[at])) ++at;
  if (at != end) fail(at, "unexpected text after the address (one access a line)");
  access.address = address;
  return true;
}

TraceReader::TraceReader(const std::string& path)
    : file_(path, std::ios::binary), block_(kBlockBytes) {
  if (!file_) throw std::runtime_error("cannot open the trace file " + path);
}

bool TraceReader::next_line() {
  for (;;) {
    const char* const first = block_.data() + begin_;
    if (const void* newline = std::memchr(first, '\n', end_ - begin_)) {
      const std::size_t length = static_cast<const char*>(newline) - first;
      text_ = std::string_view(first, length);
      begin_ += length + 1;
      return true;
    }
    if (file_ended_) {
      if (begin_ == end_) return false;
      text_ = std::string_view(first, end_ - begin_);  // the last line has no '\n'
      begin_ = end_;
      return true;
    }
    // Keep the partial line at the front and fill the rest; a line longer than the block
    // doubles it.
    std::memmove(block_.data(), first, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    if (end_ == block_.size()) block_.resize(2 * block_.size());
    file_.read(block_.data() + end_, static_cast<std::streamsize>(block_.size() - end_));
    end_ += static_cast<std::size_t>(file_.gcount());
    file_ended_ = !file_;
  }
}

bool TraceReader::next(MemoryAccess& access) {
  while (next_line()) {
    ++line_;
    if (parse_trace_line(text_, line_, access)) return true;
  }
  return false;
}

std::unique_ptr<AccessSource> open_accesses(const MemoryTraceSpec& spec) {
  if (spec.pattern) return std::make_unique<PatternSource>(*spec.pattern, spec.access_bytes);
  return std::make_unique<TraceReader>(spec.path);
}

}  // namespace ridgeline
