// A table of a command's results as cells: printed as text with its columns padded and drawn as
// an HTML table on the command's --report page, so that the two cannot disagree (`study`,
// `validate`).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ridgeline {

struct ReportTable {
  struct Row {
    std::vector<std::string> cells;
    std::string failure;  ///< a run that failed: its message instead of the cells after the label
  };
  std::string id;  ///< the HTML table's id
  std::string title;
  std::vector<std::string> header;
  std::vector<std::size_t> widths;  ///< characters per column in the text; the first is left-aligned
  std::vector<Row> rows;

  void add(std::vector<std::string> cells) { rows.push_back({std::move(cells), ""}); }
};

/// The header and the rows as text (the title is the caller's to print where it belongs).
std::string table_text(const ReportTable& table);
/// One row as text, as table_text prints it.
std::string table_text_row(const ReportTable& table, const ReportTable::Row& row);
/// The title as a heading, then the table (in a box that scrolls on a narrow screen).
std::string table_html(const ReportTable& table);

}  // namespace ridgeline
