// One row of a sweep's results: typed cells in the order they were produced, named by columns
// that all rows share. A row is written as a JSON line (its cells in its own order, so a line
// never depends on the rows before it) and as a CSV line (in the column order of the header).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ridgeline {

using ColumnId = std::uint32_t;

/// The number a text stands for: a plain decimal ("64", "1.5") or a quantity with a unit, in
/// the units result columns use (bytes, bytes/s, seconds, Hz, FLOP/cycle, ...). NaN otherwise.
double number_of_text(std::string_view text);

struct Cell {
  enum class Kind : std::uint8_t { empty, integer, real, text };
  Kind kind = Kind::empty;
  std::uint64_t integer = 0;
  double real = 0;  ///< kind real: the value
  std::string text;
  double text_number = std::nan("");  ///< what `text` reads as (number_of_text), NaN if nothing

  void set_integer(std::uint64_t value) {
    kind = Kind::integer;
    integer = value;
  }
  /// Non-finite values are no value at all (JSON has no NaN).
  void set_real(double value) {
    kind = std::isfinite(value) ? Kind::real : Kind::empty;
    real = value;
  }
  /// A text stands for the number it reads as, if any (number_of_text). The same text as this
  /// cell held before costs a comparison.
  void set_text(std::string_view value) {
    if (text != value) {
      text.assign(value);
      text_number = number_of_text(value);
    }
    kind = Kind::text;
  }
  /// Takes `other`'s value, copying a text only when it differs.
  void assign(const Cell& other) {
    kind = other.kind;
    integer = other.integer;
    real = other.real;
    if (other.kind == Kind::text && text != other.text) {
      text = other.text;
      text_number = other.text_number;
    }
  }
  /// The number this cell stands for, if any (a text such as "2TB/s" stands for 2e12).
  std::optional<double> number() const;
  bool operator==(const Cell& other) const;
};

/// A cell's value as text: as the CSV writes it, empty for no value.
std::string cell_text(const Cell& cell);

/// Every column name met so far, and the order of the CSV header.
class ColumnTable {
 public:
  ColumnId intern(std::string_view name);
  std::optional<ColumnId> find(std::string_view name) const;
  const std::string& name(ColumnId id) const { return names_[id]; }
  std::size_t size() const { return names_.size(); }

  /// The header: each column the first time a row has it, after the column before it in that
  /// row, so sections stay together whatever order rows of different shapes come in.
  const std::vector<ColumnId>& order() const { return order_; }
  /// Adds the row's columns that are not in the header yet; true when there were any.
  bool place(const class Row& row);
  /// Takes a header written before (resuming), in place of an empty one.
  void restore_order(const std::vector<std::string>& header);

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, ColumnId> ids_;
  std::vector<ColumnId> order_;
  std::vector<char> placed_;
};

class Row {
 public:
  /// Starts the next row, keeping the storage and the layout of this one: while the next row
  /// names the same columns in the same order (the rule for rows of one shape), adding a cell
  /// is a comparison.
  void clear() {
    kept_ = size_;
    size_ = 0;
  }
  /// A new cell for column `id`, after the others (or the existing one: a column appears once).
  /// Inline: a row of an analytical sweep takes some eighty of these a point.
  Cell& add(ColumnId id) {
    if (size_ < kept_ && columns_[size_] == id) {
      Cell& cell = cells_[size_++];
      cell.kind = Cell::Kind::empty;
      return cell;
    }
    return add_elsewhere(id);
  }
  const Cell* find(ColumnId id) const {
    const std::size_t at = position(id);
    return at < size_ ? &cells_[at] : nullptr;
  }
  Cell* find(ColumnId id) {
    const std::size_t at = position(id);
    return at < size_ ? &cells_[at] : nullptr;
  }

  std::size_t size() const { return size_; }
  ColumnId column(std::size_t i) const { return columns_[i]; }
  const Cell& cell(std::size_t i) const { return cells_[i]; }

 private:
  Cell& add_elsewhere(ColumnId id);
  // Where `id` is in this row; size_ or more when it is not.
  std::size_t position(ColumnId id) const {
    if (id >= slot_.size() || slot_[id] == 0) return size_;
    const std::size_t at = slot_[id] - 1;
    return at < size_ && columns_[at] == id ? at : size_;
  }

  std::vector<ColumnId> columns_;
  std::vector<Cell> cells_;          // reused: cells keep their string storage between rows
  std::vector<std::uint32_t> slot_;  // column id -> position + 1 (checked against columns_)
  std::size_t size_ = 0;             // cells of this row
  std::size_t kept_ = 0;             // cells of the row before, still laid out alike
};

/// Writes rows as a JSON object on one line (cells in the row's order) and as a CSV line (in the
/// header's order, empty fields for absent columns). Each cell is formatted once for both, and a
/// column whose value is the same as in the row before reuses its text: most inputs and many
/// figures stay put from one point to the next.
class RowWriter {
 public:
  explicit RowWriter(const ColumnTable& columns) : columns_(columns) {}
  /// Appends the row's lines to `json` and `csv` (either may be null).
  void write(const Row& row, std::string* json, std::string* csv);

 private:
  struct Column {
    Cell last;
    bool formatted = false;
    std::string json_key;    // "name":
    std::string json_piece;  // "name":value
    std::string csv_value;
  };
  const ColumnTable& columns_;
  std::vector<Column> cache_;
};

/// Appends the row as one JSON object and a newline.
void append_json_line(const Row& row, const ColumnTable& columns, std::string& out);
/// Appends the row as one CSV line in the header's order (empty fields for absent columns).
void append_csv_line(const Row& row, const ColumnTable& columns, std::string& out);
/// The CSV header line.
std::string csv_header(const ColumnTable& columns);

/// Reads a JSON line written by append_json_line back into `row`; false when it is not one.
bool parse_json_line(std::string_view line, ColumnTable& columns, Row& row);

/// How the results show a real number: the shortest text that reads back to it.
std::string format_real(double value);

}  // namespace ridgeline
