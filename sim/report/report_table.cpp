#include "sim/report/report_table.hpp"

#include <fmt/format.h>

#include "sim/charts/svg.hpp"

namespace ridgeline {

std::string table_text_row(const ReportTable& table, const ReportTable::Row& row) {
  std::string line = "  " + fmt::format("{:<{}}", row.cells.front(), table.widths.front());
  if (!row.failure.empty()) return line + " failed: " + row.failure + "\n";
  for (std::size_t i = 1; i < row.cells.size(); ++i)
    line += " " + fmt::format("{:>{}}", row.cells[i], table.widths[i]);
  return line + "\n";
}

std::string table_text(const ReportTable& table) {
  std::string text = table_text_row(table, {table.header, ""});
  for (const ReportTable::Row& row : table.rows) text += table_text_row(table, row);
  return text;
}

std::string table_html(const ReportTable& table) {
  std::string html = fmt::format("<h2>{}</h2>\n<div class=\"scroll\"><table id=\"{}\">\n<tr>",
                                 xml_escape(table.title), table.id);
  for (const std::string& name : table.header) html += "<th>" + xml_escape(name) + "</th>";
  html += "</tr>\n";
  for (const ReportTable::Row& row : table.rows) {
    html += "<tr><td>" + xml_escape(row.cells.front()) + "</td>";
    if (!row.failure.empty()) {
      html += fmt::format("<td class=\"text\" colspan=\"{}\">failed: {}</td>",
                          table.header.size() - 1, xml_escape(row.failure));
    }
    for (std::size_t i = 1; i < row.cells.size(); ++i)
      html += "<td>" + xml_escape(row.cells[i]) + "</td>";
    html += "</tr>\n";
  }
  return html + "</table></div>\n";
}

}  // namespace ridgeline
