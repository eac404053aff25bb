#include "sim/sweep/sweep_row.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "sim/config/quantity.hpp"

namespace ridgeline {

std::string cell_text(const Cell& cell) {
  switch (cell.kind) {
    case Cell::Kind::integer:
      return std::to_string(cell.integer);
    case Cell::Kind::real:
      return format_real(cell.real);
    case Cell::Kind::text:
      return cell.text;
    case Cell::Kind::empty:
      break;
  }
  return "";
}

std::optional<double> Cell::number() const {
  switch (kind) {
    case Kind::integer:
      return static_cast<double>(integer);
    case Kind::real:
      return real;
    case Kind::text:
      if (std::isnan(text_number)) return std::nullopt;
      return text_number;
    case Kind::empty:
      break;
  }
  return std::nullopt;
}

bool Cell::operator==(const Cell& other) const {
  if (kind != other.kind) return false;
  switch (kind) {
    case Kind::integer:
      return integer == other.integer;
    case Kind::real:
      return real == other.real;
    case Kind::text:
      return text == other.text;
    case Kind::empty:
      break;
  }
  return true;
}

ColumnId ColumnTable::intern(std::string_view name) {
  if (auto it = ids_.find(std::string(name)); it != ids_.end()) return it->second;
  const auto id = static_cast<ColumnId>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(names_.back(), id);
  placed_.push_back(0);
  return id;
}

std::optional<ColumnId> ColumnTable::find(std::string_view name) const {
  if (auto it = ids_.find(std::string(name)); it != ids_.end()) return it->second;
  return std::nullopt;
}

bool ColumnTable::place(const Row& row) {
  bool added = false;
  for (std::size_t i = 0; i < row.size(); ++i) {
    const ColumnId id = row.column(i);
    if (placed_[id]) continue;
    // After the column before it in this row (placed by now), or first.
    auto at = order_.begin();
    if (i > 0) {
      const ColumnId before = row.column(i - 1);
      for (auto it = order_.begin(); it != order_.end(); ++it) {
        if (*it == before) {
          at = it + 1;
          break;
        }
      }
    }
    order_.insert(at, id);
    placed_[id] = 1;
    added = true;
  }
  return added;
}

void ColumnTable::restore_order(const std::vector<std::string>& header) {
  for (const auto& name : header) {
    const ColumnId id = intern(name);
    if (placed_[id]) continue;
    order_.push_back(id);
    placed_[id] = 1;
  }
}

Cell& Row::add_elsewhere(ColumnId id) {
  // The row before had another column here: its layout from here on is no guide.
  kept_ = size_;
  if (id >= slot_.size()) slot_.resize(id + 1, 0);
  const std::size_t at = position(id);
  if (at < size_) return cells_[at];
  if (size_ == cells_.size()) {
    cells_.emplace_back();
    columns_.push_back(0);
  }
  columns_[size_] = id;
  Cell& cell = cells_[size_];
  cell.kind = Cell::Kind::empty;
  slot_[id] = static_cast<std::uint32_t>(++size_);
  return cell;
}

std::string format_real(double value) {
  // The same shortest round-trip text nlohmann's dump writes, so a report's numbers and a
  // row's agree character for character.
  std::array<char, 64> buffer{};
  char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), end);
}

namespace {

void append_real(double value, std::string& out) {
  std::array<char, 64> buffer{};
  char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), end);
}

void append_integer(std::uint64_t value, std::string& out) {
  const fmt::format_int text(value);
  out.append(text.data(), text.size());
}

void append_json_string(std::string_view text, std::string& out) {
  out += '"';
  for (;;) {
    // Plain runs in one go; only quotes, backslashes and control characters need escapes.
    const auto special = std::find_if(text.begin(), text.end(), [](char c) {
      return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
    });
    out.append(text.begin(), special);
    if (special == text.end()) break;
    const char c = *special;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    }
    text.remove_prefix(static_cast<std::size_t>(special - text.begin()) + 1);
  }
  out += '"';
}

void append_csv_field(std::string_view text, std::string& out) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) {
    out.append(text);
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace

void RowWriter::write(const Row& row, std::string* json, std::string* csv) {
  if (cache_.size() < columns_.size()) cache_.resize(columns_.size());
  // Each cell's text, formatted only when its value changed since the row before.
  for (std::size_t i = 0; i < row.size(); ++i) {
    const Cell& cell = row.cell(i);
    Column& column = cache_[row.column(i)];
    if (column.formatted && column.last == cell) continue;
    if (column.json_key.empty()) {
      append_json_string(columns_.name(row.column(i)), column.json_key);
      column.json_key += ':';
    }
    column.json_piece = column.json_key;
    column.csv_value.clear();
    switch (cell.kind) {
      case Cell::Kind::integer:
        append_integer(cell.integer, column.csv_value);
        column.json_piece += column.csv_value;
        break;
      case Cell::Kind::real:
        append_real(cell.real, column.csv_value);
        column.json_piece += column.csv_value;
        break;
      case Cell::Kind::text:
        append_json_string(cell.text, column.json_piece);
        append_csv_field(cell.text, column.csv_value);
        break;
      case Cell::Kind::empty:
        column.json_piece += "null";
        break;
    }
    column.last = cell;
    column.formatted = true;
  }
  if (json) {
    json->push_back('{');
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) json->push_back(',');
      json->append(cache_[row.column(i)].json_piece);
    }
    json->append("}\n");
  }
  if (csv) {
    bool first = true;
    for (ColumnId id : columns_.order()) {
      if (!first) csv->push_back(',');
      first = false;
      if (row.find(id) != nullptr) csv->append(cache_[id].csv_value);
    }
    csv->push_back('\n');
  }
}

void append_json_line(const Row& row, const ColumnTable& columns, std::string& out) {
  RowWriter(columns).write(row, &out, nullptr);
}

void append_csv_line(const Row& row, const ColumnTable& columns, std::string& out) {
  RowWriter(columns).write(row, nullptr, &out);
}

std::string csv_header(const ColumnTable& columns) {
  std::string out;
  for (ColumnId id : columns.order()) {
    if (!out.empty()) out += ',';
    append_csv_field(columns.name(id), out);
  }
  return out + "\n";
}

bool parse_json_line(std::string_view line, ColumnTable& columns, Row& row) {
  row.clear();
  const auto json = nlohmann::ordered_json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) return false;
  for (const auto& [name, value] : json.items()) {
    Cell& cell = row.add(columns.intern(name));
    if (value.is_number_unsigned()) {
      cell.set_integer(value.get<std::uint64_t>());
    } else if (value.is_number()) {
      cell.set_real(value.get<double>());
    } else if (value.is_string()) {
      cell.set_text(value.get_ref<const std::string&>());
    } else if (value.is_boolean()) {
      cell.set_text(value.get<bool>() ? "true" : "false");
    } else if (!value.is_null()) {
      return false;
    }
  }
  return true;
}

double number_of_text(std::string_view text) {
  // Numbers start with a digit, a sign or a point; skip the rest (names, reasons) at once.
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-' ||
                        text[0] == '+' || text[0] == '.')) {
    return std::nan("");
  }
  // A plain number: all of the text reads as one.
  const std::string owned(text);
  char* end = nullptr;
  const double plain = std::strtod(owned.c_str(), &end);
  if (end == owned.c_str() + owned.size() && std::isfinite(plain)) return plain;
  // A quantity: whichever dimension its unit belongs to, in the reports' units (times in
  // seconds, energies in joules, powers in watts). Units are
  // letters and '/': anything else after the number ("64x128x32, 1 stage") is no quantity, and
  // is turned away before the parser's exceptions would cost microseconds.
  const std::size_t unit = static_cast<std::size_t>(end - owned.c_str());
  if (unit == 0 ||
      !std::all_of(owned.begin() + static_cast<std::ptrdiff_t>(unit), owned.end(), [](char c) {
        return std::isalpha(static_cast<unsigned char>(c)) || c == '/' || c == ' ';
      })) {
    return std::nan("");
  }
  for (Dimension dimension : kAllDimensions) {
    try {
      return in_report_units(parse_quantity(text, dimension), dimension);
    } catch (const QuantityError&) {
    }
  }
  return std::nan("");
}

}  // namespace ridgeline
