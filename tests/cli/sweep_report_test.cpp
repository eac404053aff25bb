// The sweep report: its SVG is XML, its HTML self-contained, and every number read back out of
// its charts (a heat map cell, the best at an axis value, the Pareto front, a roofline point)
// is the results files' own; the front is exactly the non-dominated set; bad axes are errors.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "sim/charts/chart_scale.hpp"
#include "tests/cli/cli_support.hpp"
#include "tests/cli/svg_geometry.hpp"
#include "tests/cli/xml_support.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;
using test::Outcome;
using test::read_label;
using test::ridgeline;
using test::select;
using test::slurp;
namespace fs = std::filesystem;

// A document parsed strictly as XML; fails the test when it is not well-formed.
struct XmlDoc {
  explicit XmlDoc(const std::string& text, const std::string& name) {
    doc = xmlReadMemory(text.data(), static_cast<int>(text.size()), name.c_str(), nullptr,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  }
  ~XmlDoc() { xmlFreeDoc(doc); }
  XmlDoc(const XmlDoc&) = delete;
  XmlDoc& operator=(const XmlDoc&) = delete;
  xmlDocPtr doc = nullptr;
};

// Every <svg>...</svg> of a page, in order.
std::vector<std::string> svgs_of(const std::string& html) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = html.find("<svg", at)) != std::string::npos) {
    const std::size_t end = html.find("</svg>", at);
    out.push_back(html.substr(at, end + 6 - at));
    at = end;
  }
  return out;
}

// The chart of a page's <div> whose attributes include `marker` (e.g. data-axis="..."), as SVG.
std::string chart_in(const std::string& html, const std::string& marker) {
  const std::size_t div = html.find(marker);
  if (div == std::string::npos) return "";
  const std::size_t at = html.find("<svg", div);
  return html.substr(at, html.find("</svg>", at) + 6 - at);
}

std::vector<json> rows_of(const std::string& directory) {
  std::vector<json> out;
  std::istringstream lines(slurp(directory + "/results.jsonl"));
  for (std::string line; std::getline(lines, line);) out.push_back(json::parse(line));
  return out;
}

std::string text_of(const json& cell) {
  return cell.is_string() ? cell.get<std::string>() : cell.dump();
}

std::set<std::uint64_t> points_in(const std::vector<std::string>& lists) {
  std::set<std::uint64_t> points;
  for (const auto& list : lists) {
    std::istringstream in(list);
    for (std::uint64_t p; in >> p;) points.insert(p);
  }
  return points;
}

class SweepReport : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return scratch_.path(name); }

  // The capacity sweep, analytically: 21 ok points and 9 skipped over three presets.
  void capacity(const std::string& extra = "") {
    const Outcome o =
        ridgeline("sweep " + test::config_path("sweeps/tile-capacity.yaml") +
                  " --analytical --out " + path("out") + " --report " + path("report.html") +
                  " --roofline " + path("roofline.svg") + extra);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    rows_ = rows_of(path("out"));
    summary_ = json::parse(slurp(path("out/summary.json")));
    html_ = slurp(path("report.html"));
    ASSERT_EQ(rows_.size(), 30u);
  }

  test::ScratchDirectory scratch_{"sweep_report"};
  std::vector<json> rows_;
  json summary_;
  std::string html_;
};

TEST_F(SweepReport, PagesAreSelfContainedAndEveryChartIsXml) {
  capacity();
  test::expect_self_contained(html_);
  htmlDocPtr page =
      htmlReadMemory(html_.data(), static_cast<int>(html_.size()), "report.html", "utf-8",
                     HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(select(page, "//meta[@name='viewport']", "content").size(), 1u);
  EXPECT_NE(html_.find("@media print"), std::string::npos);
  xmlFreeDoc(page);
  // Each chart on the page is well-formed XML on its own: two heat maps, the Pareto front, time
  // and FLOP/s for each of three axes, the roofline.
  const auto svgs = svgs_of(html_);
  EXPECT_EQ(svgs.size(), 2u + 1u + 6u + 1u);
  for (std::size_t i = 0; i < svgs.size(); ++i) {
    XmlDoc svg(svgs[i], "chart.svg");
    EXPECT_NE(svg.doc, nullptr) << "chart " << i << " is not well-formed XML";
  }
  XmlDoc roofline(slurp(path("roofline.svg")), "roofline.svg");
  EXPECT_NE(roofline.doc, nullptr);
  // Inline SVGs share the page's ids: a chart's pattern or gradient must not be another's.
  std::set<std::string> ids;
  const std::regex id_attribute(" id=\"([^\"]+)\"");
  for (auto it = std::sregex_iterator(html_.begin(), html_.end(), id_attribute);
       it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(ids.insert((*it)[1]).second) << (*it)[1];
  }
}

TEST_F(SweepReport, SummaryAndProblemsAreTheSweeps) {
  capacity();
  htmlDocPtr page =
      htmlReadMemory(html_.data(), static_cast<int>(html_.size()), "report.html", "utf-8",
                     HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
  ASSERT_NE(page, nullptr);
  for (const char* status : {"ok", "failed", "skipped"}) {
    const auto shown = select(page, std::string("//div[@data-key='points.") + status + "']");
    ASSERT_EQ(shown.size(), 1u) << status;
    EXPECT_EQ(std::stoull(shown[0]), summary_["points"][status].get<std::uint64_t>()) << status;
  }
  EXPECT_EQ(summary_["points"]["ok"], 21);
  for (const json& best : summary_["best"]) {
    const std::string name = best["objective"];
    const auto point = select(page, "//td[@data-key='best." + name + ".point']");
    ASSERT_EQ(point.size(), 1u) << name;
    EXPECT_EQ(std::stoull(point[0]), best["point"].get<std::uint64_t>()) << name;
    const auto value = select(page, "//td[@data-key='best." + name + ".value']", "data-value");
    ASSERT_EQ(value.size(), 1u);
    EXPECT_NEAR(std::stod(value[0]) / best["value"].get<double>(), 1, 1e-5) << name;
    // Shown with its unit, as the charts label values ("469 us", "293 TFLOP/s").
    const auto shown = select(page, "//td[@data-key='best." + name + ".value']");
    ASSERT_EQ(shown.size(), 1u);
    const std::string unit = name == "time_s"       ? "s"
                             : name == "flop_per_s" ? "FLOP/s"
                                                    : "FLOP/s per B";
    EXPECT_EQ(shown[0], si_unit(best["value"].get<double>(), unit)) << name;
  }
  // Every skipped point in the table, with its reason as results.jsonl has it.
  const auto cells = select(page, "//table[@id='problems']//tr/td");
  std::map<std::uint64_t, std::string> listed;
  for (std::size_t i = 0; i + 3 < cells.size(); i += 4)
    listed[std::stoull(cells[i])] = cells[i + 3];
  std::size_t skipped = 0;
  for (const json& row : rows_) {
    if (row["status"] == "ok") continue;
    ++skipped;
    ASSERT_TRUE(listed.count(row["point"])) << row["point"];
    EXPECT_EQ(listed[row["point"]], row["reason"].get<std::string>());
  }
  EXPECT_EQ(listed.size(), skipped);
  EXPECT_EQ(skipped, 9u);
  xmlFreeDoc(page);
}

TEST_F(SweepReport, HeatMapCellsAreTheBestOfTheirRows) {
  capacity();
  // Default axes: the first two that vary, hardware (columns) by tile (rows); time first.
  XmlDoc map(chart_in(html_, "data-figure=\"time\""), "heat.svg");
  ASSERT_NE(map.doc, nullptr);
  std::map<std::pair<std::string, std::string>, std::pair<double, std::uint64_t>> best;
  std::map<std::pair<std::string, std::string>, std::set<std::string>> reasons;
  for (const json& row : rows_) {
    const auto key =
        std::make_pair(text_of(row["axis.hardware"]), text_of(row["axis.workload.tile"]));
    if (row["status"] != "ok") {
      reasons[key].insert(row["reason"].get<std::string>());
      continue;
    }
    const double t = row["analytical.t_ideal_s"];
    auto [it, added] = best.emplace(key, std::make_pair(t, row["point"].get<std::uint64_t>()));
    if (!added && t < it->second.first) it->second = {t, row["point"]};
  }
  const auto xs = select(map.doc, "//svg:rect[@class='cell']", "data-x");
  const auto ys = select(map.doc, "//svg:rect[@class='cell']", "data-y");
  const auto values = select(map.doc, "//svg:rect[@class='cell']", "data-value");
  const auto points = select(map.doc, "//svg:rect[@class='cell']", "data-point");
  const auto texts = select(map.doc, "//svg:text[@class='cell-value']");
  ASSERT_EQ(xs.size(), best.size());
  ASSERT_EQ(texts.size(), best.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    SCOPED_TRACE(xs[i] + " " + ys[i]);
    const auto& [value, point] = best.at({xs[i], ys[i]});
    EXPECT_EQ(std::stod(values[i]), value);  // exactly: the shortest text that reads back
    EXPECT_EQ(std::stoull(points[i]), point);
    EXPECT_NEAR(read_label(texts[i]) / value, 1, 0.005) << texts[i];  // "2.22 ms"
  }
  // 256 x 256 x 32 fits no preset: a skipped cell per preset, its reason in its tooltip.
  const auto empty_x = select(map.doc, "//svg:rect[@class='cell empty']", "data-x");
  const auto empty_state = select(map.doc, "//svg:rect[@class='cell empty']", "data-state");
  const auto empty_title = select(map.doc, "//svg:rect[@class='cell empty']/svg:title");
  ASSERT_EQ(empty_x.size(), 3u);
  for (std::size_t i = 0; i < empty_x.size(); ++i) {
    EXPECT_EQ(empty_state[i], "skipped");
    const auto& why = reasons.at({empty_x[i], "{m: 256, n: 256, k: 32}"});
    ASSERT_FALSE(why.empty());
    EXPECT_NE(empty_title[i].find(*why.begin()), std::string::npos) << empty_title[i];
  }
  EXPECT_EQ(select(map.doc, "//svg:text[@class='x-title']"), std::vector<std::string>{"hardware"});
}

TEST_F(SweepReport, BestPerAxisValueIsTheBestOfItsRows) {
  capacity();
  XmlDoc chart(chart_in(html_, "data-axis=\"workload.stages\" data-figure=\"FLOP/s\""), "a.svg");
  ASSERT_NE(chart.doc, nullptr);
  std::map<std::string, double> best;
  std::size_t ok = 0;
  for (const json& row : rows_) {
    if (row["status"] != "ok") continue;
    ++ok;
    const double f = row["analytical.roof_flop_per_s"];
    auto [it, added] = best.emplace(text_of(row["axis.workload.stages"]), f);
    if (!added) it->second = std::max(it->second, f);
  }
  const auto at = select(chart.doc, "//svg:circle[@class='best']", "data-axis-value");
  const auto values = select(chart.doc, "//svg:circle[@class='best']", "data-value");
  ASSERT_EQ(at.size(), best.size());
  for (std::size_t i = 0; i < at.size(); ++i) EXPECT_EQ(std::stod(values[i]), best.at(at[i]));
  // Every ok point is a dot (points that coincide share one).
  EXPECT_EQ(points_in(select(chart.doc, "//svg:circle[@class='dot']", "data-point")).size(), ok);
  // The y axis says which figures these are.
  EXPECT_EQ(select(chart.doc, "//svg:text[@class='y-title']"),
            std::vector<std::string>{"roof FLOP/s (analytical) (FLOP/s)"});
}

TEST_F(SweepReport, ParetoFrontIsExactlyTheNonDominatedPoints) {
  capacity();
  // The default pair: time_s (minimize t_ideal) and flop_per_s (maximize the roof).
  ASSERT_EQ(summary_["pareto"]["objectives"], json({"time_s", "flop_per_s"}));
  struct Values {
    std::uint64_t point;
    double time, flop_per_s;
  };
  std::vector<Values> ok;
  for (const json& row : rows_) {
    if (row["status"] != "ok") continue;
    ok.push_back({row["point"], row["analytical.t_ideal_s"],
                  row["analytical.roof_flop_per_s"].get<double>()});
  }
  std::set<std::uint64_t> front;
  for (const Values& v : ok) {
    const bool dominated = std::any_of(ok.begin(), ok.end(), [&](const Values& w) {
      return w.time <= v.time && w.flop_per_s >= v.flop_per_s &&
             (w.time < v.time || w.flop_per_s > v.flop_per_s);
    });
    if (!dominated) front.insert(v.point);
  }
  XmlDoc chart(chart_in(html_, "id=\"pareto\""), "pareto.svg");
  ASSERT_NE(chart.doc, nullptr);
  const auto points = select(chart.doc, "//svg:circle[@class='front']", "data-point");
  const auto xs = select(chart.doc, "//svg:circle[@class='front']", "data-x");
  const auto ys = select(chart.doc, "//svg:circle[@class='front']", "data-y");
  EXPECT_EQ(points_in(points), front);
  std::set<std::uint64_t> in_summary;
  for (const json& p : summary_["pareto"]["points"])
    in_summary.insert(p["point"].get<std::uint64_t>());
  EXPECT_EQ(in_summary, front);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto v = std::find_if(ok.begin(), ok.end(),
                                [&](const Values& w) { return w.point == std::stoull(points[i]); });
    ASSERT_NE(v, ok.end());
    EXPECT_EQ(std::stod(xs[i]), v->time);
    EXPECT_NEAR(std::stod(ys[i]) / v->flop_per_s, 1, 1e-12);
  }
  // Each front point is labelled with its number; every other ok point is a dot.
  std::string labels;
  for (const auto& l : select(chart.doc, "//svg:text[@class='front-label']")) labels += l + " ";
  for (std::uint64_t p : front)
    EXPECT_NE(labels.find("#" + std::to_string(p)), std::string::npos) << labels;
  EXPECT_EQ(points_in(select(chart.doc, "//svg:circle[@class='dot']", "data-point")).size(),
            ok.size() - front.size());
}

TEST_F(SweepReport, RooflineHasEveryPointAndEachMachinesRoof) {
  capacity();
  XmlDoc svg(slurp(path("roofline.svg")), "roofline.svg");
  ASSERT_NE(svg.doc, nullptr);
  std::map<std::string, std::string> hardware_of;            // point -> preset
  std::map<std::string, std::pair<double, double>> machine;  // name -> peak, HBM bandwidth
  for (const json& row : rows_) {
    if (row["status"] != "ok") continue;
    hardware_of[text_of(row["point"])] = fs::path(row["axis.hardware"].get<std::string>()).stem();
    machine[row["hardware.name"]] = {row["analytical.peak_flop_per_s"],
                                     row["analytical.hbm_bytes_per_s"]};
  }
  const auto points = select(svg.doc, "//svg:circle[@class='analytical']", "data-point");
  const auto series = select(svg.doc, "//svg:circle[@class='analytical']", "data-series");
  EXPECT_EQ(points_in(points).size(), hardware_of.size());
  // Coloured by the first axis, the presets: every point in its preset's series.
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::uint64_t p : points_in({points[i]})) {
      EXPECT_EQ(series[i], hardware_of.at(std::to_string(p))) << p;
    }
  }
  EXPECT_EQ(select(svg.doc, "//svg:text[@class='legend-title']"),
            std::vector<std::string>{"hardware"});
  // A roof per preset: its HBM slope and ridge at P / BW.
  const auto roofs =
      select(svg.doc, "//svg:circle[@class='ridge'][@data-level='hbm']", "data-roof");
  const auto ridges = select(svg.doc, "//svg:circle[@class='ridge'][@data-level='hbm']",
                             "data-ridge-flop-per-byte");
  ASSERT_EQ(roofs.size(), machine.size());
  for (std::size_t i = 0; i < roofs.size(); ++i) {
    const auto& [peak, bandwidth] = machine.at(roofs[i]);
    EXPECT_DOUBLE_EQ(std::stod(ridges[i]), peak / bandwidth) << roofs[i];
  }
  // The page's roofline is the same chart.
  EXPECT_EQ(chart_in(html_, "id=\"roofline\"") + "\n", slurp(path("roofline.svg")));
}

TEST_F(SweepReport, SimulatedSweepDrawsSimulatedFiguresAndMarksFailures) {
  // Six tiny points (512^3 GEMMs): three run, one is skipped by the constraint, two fail (a
  // 1024 tile is larger than 512).
  std::ofstream(path("tiny.yaml"))
      << "sweep:\n  hardware: " << test::config_path("hardware/seed.yaml")
      << "\n  workload: " << test::config_path("workloads/seed/gemm-4096-t64-double.yaml")
      << "\n  set:\n    workload.m: 512\n    workload.n: 512\n    workload.k: 512\n"
         "  axes:\n"
         "    - workload.tile: [{m: 32, n: 32, k: 32}, {m: 64, n: 64, k: 64},\n"
         "                      {m: 1024, n: 1024, k: 1024}]\n"
         "    - workload.stages: [1, 2]\n"
         "  constraints:\n"
         "    - analytical.footprint.sram_bytes_per_block <= 48KiB\n";
  ASSERT_EQ(ridgeline("sweep " + path("tiny.yaml") + " -j 2 --out " + path("out")).exit_code, 0);
  // Drawn again from the finished directory, with the axes chosen.
  const Outcome o =
      ridgeline("sweep-report " + path("out") + " --out " + path("r.html") + " --roofline " +
                path("r.svg") + " --heatmap workload.stages,workload.tile --color-by stages");
  EXPECT_EQ(o.exit_code, 2);  // "stages" is no axis: the key is workload.stages
  EXPECT_NE(o.err.find("did you mean 'workload.stages'?"), std::string::npos) << o.err;
  ASSERT_EQ(ridgeline("sweep-report " + path("out") + " --out " + path("r.html") + " --roofline " +
                      path("r.svg") +
                      " --heatmap workload.stages,workload.tile --color-by workload.stages")
                .exit_code,
            0);
  const auto rows = rows_of(path("out"));
  const std::string html = slurp(path("r.html"));
  XmlDoc map(chart_in(html, "data-figure=\"time\""), "heat.svg");
  ASSERT_NE(map.doc, nullptr);
  // Columns are stages now; each ok cell is one point's simulated time.
  const auto xs = select(map.doc, "//svg:rect[@class='cell']", "data-x");
  const auto ys = select(map.doc, "//svg:rect[@class='cell']", "data-y");
  const auto values = select(map.doc, "//svg:rect[@class='cell']", "data-value");
  ASSERT_EQ(xs.size(), 3u);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const json& r) {
      return text_of(r["axis.workload.stages"]) == xs[i] && r["axis.workload.tile"] == ys[i];
    });
    ASSERT_NE(row, rows.end());
    EXPECT_EQ(std::stod(values[i]), (*row)["simulated.time_s"].get<double>());
  }
  const auto states = select(map.doc, "//svg:rect[@class='cell empty']", "data-state");
  EXPECT_EQ(std::multiset<std::string>(states.begin(), states.end()),
            (std::multiset<std::string>{"failed", "failed", "skipped"}));
  const auto titles = select(map.doc, "//svg:rect[@class='cell empty']/svg:title");
  ASSERT_EQ(titles.size(), 3u);
  for (std::size_t i = 0; i < titles.size(); ++i) {
    // The reason as the row has it: the sweep file's line that set the tile, and the rule.
    const std::string why =
        states[i] == "failed"
            ? "failed: " + path("tiny.yaml") + ":10:27: workload.tile.m: value \"1024\""
            : "skipped: constraint 'analytical.footprint.sram_bytes_per_block";
    EXPECT_NE(titles[i].find(why), std::string::npos) << titles[i];
  }
  EXPECT_NE(html.find("Charts show the simulated figures"), std::string::npos);
  // The roofline: a filled point per ok point at what the simulation achieved.
  XmlDoc svg(slurp(path("r.svg")), "r.svg");
  ASSERT_NE(svg.doc, nullptr);
  const auto simulated = select(svg.doc, "//svg:circle[@class='simulated']", "data-point");
  const auto achieved = select(svg.doc, "//svg:circle[@class='simulated']", "data-flop-per-s");
  ASSERT_EQ(points_in(simulated).size(), 3u);
  for (std::size_t i = 0; i < simulated.size(); ++i) {
    const std::uint64_t p = *points_in({simulated[i]}).begin();
    EXPECT_EQ(std::stod(achieved[i]), rows[p]["simulated.achieved_flop_per_s"].get<double>());
  }
}

TEST_F(SweepReport, AxesAreCategoricalLinearOrLogAsTheirValues) {
  ASSERT_EQ(ridgeline("sweep " + test::config_path("sweeps/ridge-shift.yaml") +
                      " --analytical --out " + path("out") + " --report " + path("r.html"))
                .exit_code,
            0);
  const std::string html = slurp(path("r.html"));
  // A factor range: a log axis, ticks at its values as written.
  XmlDoc bandwidth(chart_in(html, "data-axis=\"hardware.hbm.bandwidth\""), "b.svg");
  ASSERT_NE(bandwidth.doc, nullptr);
  EXPECT_EQ(select(bandwidth.doc, "//svg:text[@class='x-title']"),
            std::vector<std::string>{"hardware.hbm.bandwidth (log scale)"});
  EXPECT_EQ(select(bandwidth.doc, "//svg:text[@class='x-tick']"),
            (std::vector<std::string>{"0.5TB/s", "1TB/s", "2TB/s", "4TB/s"}));
  // Files: categories named by the file, in the sweep's order.
  XmlDoc workload(chart_in(html, "data-axis=\"workload\""), "w.svg");
  ASSERT_NE(workload.doc, nullptr);
  EXPECT_EQ(select(workload.doc, "//svg:text[@class='x-tick']"),
            (std::vector<std::string>{"gemm-4096-t128-double", "vector-add"}));
  // Bandwidth by peak gives twenty machines, each roof drawn.
  EXPECT_EQ(select(bandwidth.doc, "//svg:text[@class='x-title']").size(), 1u);
  XmlDoc roofline(chart_in(html, "id=\"roofline\""), "r.svg");
  ASSERT_NE(roofline.doc, nullptr);
  const auto roofs =
      select(roofline.doc, "//svg:circle[@class='ridge'][@data-level='hbm']", "data-roof");
  EXPECT_EQ(std::set<std::string>(roofs.begin(), roofs.end()).size(), 20u);

  EXPECT_TRUE(fits_log({0.5e12, 1e12, 2e12, 4e12}));
  EXPECT_TRUE(fits_log({25, 50, 125, 250, 500}));   // no progression, a decade and more
  EXPECT_TRUE(fits_log({1e-7, 3.16228e-7, 1e-6}));  // count: 3, scale: log
  EXPECT_FALSE(fits_log({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));  // a step range
  EXPECT_FALSE(fits_log({1, 2}));
  EXPECT_FALSE(fits_log({0, 1, 10, 100}));
}

// A number's format in a tick label: what follows its digits, less an SI prefix ("10 k" and
// "1 k" -> "", "200 TFLOP/s" -> "FLOP/s"); "1e+03" -> "e+03". Labels that are no number (a
// category's) have none.
std::optional<std::string> number_format(const std::string& label) {
  static const std::regex number("^-?[0-9]+(\\.[0-9]+)? ?[PTGMkmunp]?(.*)$");
  std::smatch match;
  if (!std::regex_match(label, match, number)) return std::nullopt;
  return match[2].str();
}

// Every chart of a page: each text inside the view box, no two tick labels of an axis over each
// other nor under the axis's title, and an axis's numeric tick labels in one format.
void expect_legible_charts(const std::string& html, const std::string& page) {
  const auto svgs = svgs_of(html);
  ASSERT_FALSE(svgs.empty()) << page;
  for (std::size_t i = 0; i < svgs.size(); ++i) {
    XmlDoc svg(svgs[i], "chart.svg");
    ASSERT_NE(svg.doc, nullptr);
    const std::string title = select(svg.doc, "//svg:text[1]").front();
    SCOPED_TRACE(page + ", chart " + std::to_string(i) + ": " + title);
    const auto [width, height] = test::view_box_size(svg.doc);
    const auto boxes = test::text_boxes(svg.doc);
    for (const test::TextBox& box : boxes) {
      for (const auto& corner : box.corners) {
        EXPECT_GE(corner[0], -1) << "cut at the left: " << box.text;
        EXPECT_LE(corner[0], width + 1) << "cut at the right: " << box.text;
        EXPECT_GE(corner[1], -1) << "cut at the top: " << box.text;
        EXPECT_LE(corner[1], height + 1) << "cut at the bottom: " << box.text;
      }
    }
    for (const char* axis : {"x", "y"}) {
      std::vector<const test::TextBox*> ticks, titles;
      for (const test::TextBox& box : boxes) {
        if (box.css_class == std::string(axis) + "-tick") ticks.push_back(&box);
        if (box.css_class == std::string(axis) + "-title") titles.push_back(&box);
      }
      std::set<std::string> formats;
      bool numeric = !ticks.empty();
      for (std::size_t a = 0; a < ticks.size(); ++a) {
        const auto format = number_format(ticks[a]->text);
        numeric = numeric && format.has_value();
        if (format) formats.insert(*format);
        for (std::size_t b = a + 1; b < ticks.size(); ++b) {
          if (ticks[a]->angle_deg != ticks[b]->angle_deg) continue;
          EXPECT_FALSE(test::overlap(*ticks[a], *ticks[b]))
              << axis << " ticks '" << ticks[a]->text << "' and '" << ticks[b]->text << "'";
        }
        // Titles are turned by a right angle or not at all: their corners bound them exactly.
        for (const test::TextBox* t : titles) {
          EXPECT_FALSE(test::bounds_overlap(*ticks[a], *t))
              << axis << " tick '" << ticks[a]->text << "' and the title '" << t->text << "'";
        }
      }
      if (numeric) {
        EXPECT_EQ(formats.size(), 1u) << axis << " ticks in several formats";
      }
    }
  }
}

TEST_F(SweepReport, ChartTextsFitAndTickLabelsAreApartAndAlike) {
  capacity();
  expect_legible_charts(html_, "tile-capacity");
  for (const char* sweep : {"ridge-shift", "seed-tiles"}) {
    const std::string out = path(std::string("out-") + sweep);
    const std::string report = path(std::string(sweep) + ".html");
    ASSERT_EQ(ridgeline("sweep " + test::config_path(std::string("sweeps/") + sweep + ".yaml") +
                        " --analytical --out " + out + " --report " + report)
                  .exit_code,
              0);
    expect_legible_charts(slurp(report), sweep);
  }
}

TEST_F(SweepReport, MergedShardsDrawTheSameCharts) {
  const std::string sweep = test::config_path("sweeps/tile-capacity.yaml");
  for (const char* shard : {"1/2", "2/2"}) {
    ASSERT_EQ(ridgeline("sweep " + sweep + " --analytical --shard " + shard + " --out " +
                        path(std::string("s") + shard[0]))
                  .exit_code,
              0);
  }
  ASSERT_EQ(
      ridgeline("sweep-merge " + path("s1") + " " + path("s2") + " --out " + path("m")).exit_code,
      0);
  ASSERT_EQ(ridgeline("sweep " + sweep + " --analytical --out " + path("whole")).exit_code, 0);
  for (const char* d : {"m", "whole"}) {
    ASSERT_EQ(
        ridgeline("sweep-report " + path(d) + " --out " + path(std::string(d) + ".html")).exit_code,
        0);
  }
  const auto merged = svgs_of(slurp(path("m.html")));
  const auto whole = svgs_of(slurp(path("whole.html")));
  EXPECT_EQ(merged, whole);
  EXPECT_EQ(merged.size(), 10u);
}

TEST_F(SweepReport, BadAxesAndDirectoriesAreTheUsersToFix) {
  const std::string sweep = test::config_path("sweeps/seed-tiles.yaml");
  // Told before the sweep runs: nothing is written.
  Outcome o = ridgeline("sweep " + sweep + " --analytical --out " + path("out") + " --report " +
                        path("r.html") + " --color-by workload.tiles");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("--color-by: value \"workload.tiles\": not an axis of the sweep (did you "
                       "mean 'workload.tile'? the sweep's axes: workload.tile, workload.stages)"),
            std::string::npos)
      << o.err;
  EXPECT_FALSE(fs::exists(path("out/results.jsonl")));
  ASSERT_EQ(ridgeline("sweep " + sweep + " --analytical --out " + path("out")).exit_code, 0);
  for (const std::string& bad : {std::string("--heatmap workload.tile"),
                                 std::string("--heatmap workload.tile,workload.tile"),
                                 std::string("--heatmap workload.tile,hardware.hbm.bandwidth"),
                                 std::string("--color-by nothing")}) {
    o = ridgeline("sweep-report " + path("out") + " --out " + path("r.html") + " " + bad);
    EXPECT_EQ(o.exit_code, 2) << bad;
    EXPECT_NE(o.err.find("ridgeline: error: --"), std::string::npos) << bad << ": " << o.err;
    EXPECT_EQ(o.err.find("internal"), std::string::npos) << o.err;
  }
  EXPECT_NE(o.err.find("the sweep's axes: workload.tile, workload.stages"), std::string::npos);
  // `axis.` in front is the column's name, also understood.
  EXPECT_EQ(ridgeline("sweep-report " + path("out") + " --out " + path("r.html") +
                      " --color-by axis.workload.stages")
                .exit_code,
            0);
  // A directory that holds no sweep.
  o = ridgeline("sweep-report " + scratch_.dir() + " --out " + path("r.html"));
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("holds no sweep results"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace ridgeline
