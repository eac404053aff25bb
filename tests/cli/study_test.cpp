// `ridgeline study` as users run it: its rows tell workloads apart, and its files (JSON, CSV, the
// HTML page) hold the rows the text prints.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/cli_support.hpp"
#include "tests/cli/xml_support.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::Outcome;
using test::ridgeline;
using test::select;
using test::slurp;

const std::string kSeed = test::config_path("hardware/seed.yaml");
const std::string kSeedWorkloads = test::config_path("workloads/seed/");

// The fields of one CSV line, quotes undone.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

// A copy of the seed's t = 32 GEMM with `n` columns, as a workload file of its own.
std::string gemm_file(const std::string& name, std::uint64_t n) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << "workload:\n  kind: gemm\n  m: 4096\n  n: " << n
                      << "\n  k: 4096\n  dtype: fp32\n  strategy: tiled\n"
                         "  tile: {m: 32, n: 32, k: 32}\n  stages: 2\n";
  return path;
}

TEST(Study, RowsThatWouldReadTheSameNameTheKeysTheyDifferIn) {
  const std::string wide = gemm_file("ridgeline_study_wide.yaml", 4096);
  const std::string narrow = gemm_file("ridgeline_study_narrow.yaml", 2048);
  const Outcome o = ridgeline("study --analytical " + kSeed + " " + wide + " " + narrow + " " +
                              kSeedWorkloads + "gemm-4096-t64-double.yaml");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("  t = 32, 2 stages, n = 4096 "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("  t = 32, 2 stages, n = 2048 "), std::string::npos) << o.out;
  // A row whose label is its own keeps it as it was.
  EXPECT_NE(o.out.find("  t = 64, 2 stages "), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("t = 64, 2 stages,"), std::string::npos) << o.out;

  // The same workload in two files: only the file's name tells the rows apart.
  const std::string twin = gemm_file("ridgeline_study_twin.yaml", 4096);
  const Outcome twins = ridgeline("study --analytical " + kSeed + " " + wide + " " + twin);
  ASSERT_EQ(twins.exit_code, 0) << twins.err;
  EXPECT_NE(twins.out.find("  t = 32, 2 stages, ridgeline_study_wide.yaml "), std::string::npos)
      << twins.out;
  EXPECT_NE(twins.out.find("  t = 32, 2 stages, ridgeline_study_twin.yaml "), std::string::npos)
      << twins.out;
  for (const std::string& path : {wide, narrow, twin}) std::remove(path.c_str());
}

// One header and a row per run, each the columns `run --csv` writes; a GEMM and a vector add
// share the header, each leaving the other's keys empty.
TEST(Study, CsvHasOneHeaderAndARowPerRunWithTheJsonsLeaves) {
  const std::string base = ::testing::TempDir() + "ridgeline_study_csv";
  const Outcome o =
      ridgeline("study --analytical " + kSeed + " " + kSeedWorkloads +
                "gemm-4096-t64-double.yaml " + test::config_path("workloads/vector-add.yaml") +
                " --json " + base + ".json --csv " + base + ".csv");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto reports = nlohmann::json::parse(slurp(base + ".json"));
  ASSERT_EQ(reports.size(), 2u);
  const std::vector<std::string> lines = lines_of(slurp(base + ".csv"));
  ASSERT_EQ(lines.size(), 3u);
  const std::vector<std::string> header = csv_fields(lines[0]);
  const auto column = [&](const std::string& name) {
    const auto at = std::find(header.begin(), header.end(), name);
    EXPECT_NE(at, header.end()) << name;
    return static_cast<std::size_t>(at - header.begin());
  };
  for (std::size_t run = 0; run < 2; ++run) {
    const std::vector<std::string> row = csv_fields(lines[run + 1]);
    ASSERT_EQ(row.size(), header.size()) << lines[run + 1];
    EXPECT_EQ(row[column("analytical.hbm_bytes")],
              std::to_string(reports[run]["analytical"]["hbm_bytes"].get<std::uint64_t>()));
    EXPECT_EQ(row[column("workload.kind")], reports[run]["workload"]["kind"]);
    EXPECT_EQ(row[column("config.version")], RIDGELINE_VERSION);
  }
  EXPECT_EQ(csv_fields(lines[1])[column("workload.tile.m")], "64");
  EXPECT_EQ(csv_fields(lines[2])[column("workload.tile.m")], "");
  EXPECT_EQ(reports[0]["config"]["version"], RIDGELINE_VERSION);
  std::remove((base + ".json").c_str());
  std::remove((base + ".csv").c_str());
}

// The page: the rows the text prints, in tables, and the study's roofline; nothing fetched.
TEST(Study, HtmlReportHasTheTablesRowsAndTheRoofline) {
  const std::string base = ::testing::TempDir() + "ridgeline_study_report";
  const Outcome o = ridgeline("study -j 2 " + kSeed + " " + kSeedWorkloads +
                              "gemm-4096-t128-double.yaml " + kSeedWorkloads +
                              "gemm-4096-t64-double.yaml --set workload.m=1024 --set "
                              "workload.n=1024 --report " +
                              base + ".html --roofline " + base + ".svg");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string html = slurp(base + ".html");
  test::expect_self_contained(html);
  htmlDocPtr doc = htmlReadMemory(html.data(), static_cast<int>(html.size()), "study.html", "utf-8",
                                  HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
  ASSERT_NE(doc, nullptr);
  const std::vector<std::string> labels = {"t = 128, 2 stages", "t = 64, 2 stages"};
  // Each table's id and the line the text prints above it.
  for (const auto& [table, heading] :
       {std::pair<std::string, std::string>{"analytical", "Analytical"},
        {"simulated", "Simulated ("}}) {
    EXPECT_EQ(select(doc, "//table[@id='" + table + "']//tr/td[1]"), labels) << table;
    // Every cell of a row is in the text, on that row's line.
    for (const std::string& label : labels) {
      const auto cells = select(doc, "//table[@id='" + table + "']//tr[td[1]='" + label + "']/td");
      ASSERT_FALSE(cells.empty()) << table << " " << label;
      const std::size_t row = o.out.find("  " + label + " ", o.out.find(heading));
      ASSERT_NE(row, std::string::npos) << label;
      const std::string line = o.out.substr(row, o.out.find('\n', row) - row);
      for (const std::string& cell : cells)
        EXPECT_NE(line.find(cell), std::string::npos) << cell << " not in: " << line;
    }
  }
  EXPECT_EQ(select(doc, "//h2[.='Roofline']").size(), 1u);
  // The roofline on the page is the one --roofline writes: a kernel's two points per workload.
  EXPECT_EQ(select(doc, "//div[@class='chart']//circle[@class='simulated']").size(), 2u);
  EXPECT_NE(html.find(slurp(base + ".svg")), std::string::npos);
  xmlFreeDoc(doc);
  std::remove((base + ".html").c_str());
  std::remove((base + ".svg").c_str());
}

}  // namespace
}  // namespace ridgeline
