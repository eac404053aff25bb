// Expressions over a result row's columns, for a sweep's constraints and objectives:
//
//   analytical.footprint.sram_bytes_per_block <= 256KiB and axis.workload.stages >= 2
//   analytical.roof_flop_per_s / analytical.footprint.sram_bytes_per_block
//
// Names are column names. Numbers may carry a unit and are then in the columns' units (256KiB is
// 262144 bytes, 2TB/s is 2e12 bytes/s, 10ms is 0.01 s). Texts are quoted ('memory') and compare
// with == and !=. By precedence: or; and; not; < <= > >= == !=; + -; * /; unary -. Functions:
// min(a, b, ...), max(a, b, ...). A column without a value in a row, or a division by zero,
// makes the result "none", never a number picked silently.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/sweep/sweep_row.hpp"

namespace ridgeline {

class ExpressionError : public std::runtime_error {
 public:
  ExpressionError(std::size_t offset, const std::string& message)
      : std::runtime_error(message), offset_(offset) {}
  std::size_t offset() const { return offset_; }  ///< 0-based, into the expression's text

 private:
  std::size_t offset_;
};

class Expression {
 public:
  enum class Kind : std::uint8_t { number, text, boolean, none };

  struct Result {
    Kind kind = Kind::none;
    double number = 0;                ///< number; boolean: 1 or 0
    std::string text;                 ///< kind text: the value; kind none: why there is none
    std::optional<ColumnId> missing;  ///< kind none: the first column without a value
  };

  Expression() = default;
  /// Compiles `text`, interning the names it uses in `columns`. Throws ExpressionError.
  Expression(std::string text, ColumnTable& columns);

  const std::string& text() const { return text_; }
  /// The columns it reads, in order of first use.
  const std::vector<ColumnId>& columns() const { return names_; }

  Result evaluate(const Row& row) const;

 private:
  enum class Op : std::uint8_t {
    number,
    text,
    column,
    negate,
    logical_not,
    add,
    subtract,
    multiply,
    divide,
    less,
    less_equal,
    greater,
    greater_equal,
    equal,
    not_equal,
    logical_and,
    logical_or,
    minimum,
    maximum
  };
  struct Instruction {
    Op op;
    std::uint32_t index = 0;  ///< column id, text index or argument count
    double number = 0;
  };
  friend class ExpressionParser;

  std::string text_;
  std::vector<Instruction> program_;  // postfix
  std::vector<std::string> texts_;
  std::vector<ColumnId> names_;
  std::size_t depth_ = 0;  // most values on the stack at once
};

}  // namespace ridgeline
