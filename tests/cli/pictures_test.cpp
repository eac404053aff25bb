// The pictures are valid XML / self-contained HTML, and their numbers are the JSON's.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli/cli_support.hpp"
#include "tests/cli/xml_support.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

using test::select;

class Pictures : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = ::testing::TempDir() + "ridgeline_pictures_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::string command =
        std::string(RIDGELINE_BINARY) + " run " + test::config_path("hardware/seed.yaml") + " " +
        test::config_path("workloads/seed/gemm-4096-t128-double.yaml") +
        " --set workload.m=1024 --set workload.n=1024 --quiet --json " + base_ +
        ".json --roofline " + base_ + ".svg --report " + base_ + ".html";
    ASSERT_EQ(std::system(command.c_str()), 0);
    report_ = nlohmann::json::parse(slurp(base_ + ".json"));
  }
  void TearDown() override {
    for (const char* ext : {".json", ".svg", ".html"}) std::remove((base_ + ext).c_str());
  }
  std::string base_;
  nlohmann::json report_;
};

TEST_F(Pictures, RooflineSvgIsValidXmlWithTheRunsNumbers) {
  const std::string svg = slurp(base_ + ".svg");
  xmlDocPtr doc = xmlReadMemory(svg.data(), static_cast<int>(svg.size()), "roofline.svg", nullptr,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  ASSERT_NE(doc, nullptr) << "not well-formed XML";
  const auto simulated = select(doc, "//svg:circle[@class='simulated']", "data-flop-per-s");
  ASSERT_EQ(simulated.size(), 1u);
  EXPECT_DOUBLE_EQ(std::stod(simulated[0]),
                   report_["simulated"]["achieved_flop_per_s"].get<double>());
  const auto analytical =
      select(doc, "//svg:circle[@class='analytical']", "data-intensity-flop-per-byte");
  ASSERT_EQ(analytical.size(), 1u);
  EXPECT_DOUBLE_EQ(std::stod(analytical[0]),
                   report_["analytical"]["intensity_flop_per_byte"].get<double>());
  // One slope and ridge per memory level the report lists (HBM and SRAM here); HBM's at 20.
  EXPECT_EQ(select(doc, "//svg:circle[@class='ridge']", "data-level").size(),
            report_["analytical"]["levels"].size());
  const auto ridge =
      select(doc, "//svg:circle[@class='ridge'][@data-level='hbm']", "data-ridge-flop-per-byte");
  ASSERT_EQ(ridge.size(), 1u);
  EXPECT_DOUBLE_EQ(std::stod(ridge[0]), 20.0);
  // The kernel again at the SRAM level's intensity, analytical and simulated.
  for (const char* side : {"analytical", "simulated"}) {
    const auto at_sram =
        select(doc, std::string("//svg:rect[@class='level-") + side + "'][@data-level='sram']",
               "data-intensity-flop-per-byte");
    ASSERT_EQ(at_sram.size(), 1u) << side;
    EXPECT_DOUBLE_EQ(std::stod(at_sram[0]),
                     report_[side]["levels"][1]["intensity_flop_per_byte"].get<double>());
  }
  EXPECT_EQ(select(doc, "//svg:line[@class='roof']", "data-flop-per-s"),
            std::vector<std::string>{"20000000000000"});
  const auto axis_titles = select(doc, "//svg:text");
  EXPECT_NE(std::find(axis_titles.begin(), axis_titles.end(), "arithmetic intensity I (FLOP/byte)"),
            axis_titles.end());
  EXPECT_NE(std::find(axis_titles.begin(), axis_titles.end(), "performance (FLOP/s)"),
            axis_titles.end());
  xmlFreeDoc(doc);
}

TEST_F(Pictures, HtmlReportIsSelfContainedAndMatchesTheJson) {
  const std::string html = slurp(base_ + ".html");
  test::expect_self_contained(html);
  htmlDocPtr doc =
      htmlReadMemory(html.data(), static_cast<int>(html.size()), "report.html", "utf-8",
                     HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
  ASSERT_NE(doc, nullptr);
  const auto time = select(doc, "//td[@data-key='simulated.time_s']");
  ASSERT_EQ(time.size(), 1u);
  // In the unit that fits it, to six decimals of that unit ("1.117524 ms").
  EXPECT_NEAR(test::read_label(time[0]) / report_["simulated"]["time_s"].get<double>(), 1, 1e-6)
      << time[0];
  const auto bytes = select(doc, "//td[@data-key='simulated.hbm_bytes']");
  ASSERT_EQ(bytes.size(), 1u);
  std::string digits = bytes[0];
  digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
  EXPECT_EQ(std::stoull(digits), report_["simulated"]["hbm_bytes"].get<std::uint64_t>());
  const auto bound = select(doc, "//div[@data-key='analytical.bound']");
  ASSERT_EQ(bound.size(), 1u);
  EXPECT_EQ(bound[0], report_["analytical"]["bound"].get<std::string>());
  // The headline is the run's verdict against its own roof; the note's roof is beside it.
  const auto of_roof = select(doc, "//div[@data-key='simulated.percent_of_roof']");
  ASSERT_EQ(of_roof.size(), 1u);
  EXPECT_EQ(of_roof[0],
            fmt::format("{:.2f} %", report_["simulated"]["percent_of_roof"].get<double>()));
  const auto note = select(doc, "//span[@data-key='simulated.percent_of_note_roof']");
  ASSERT_EQ(note.size(), 1u);
  EXPECT_EQ(note[0],
            fmt::format("{:.2f}", report_["simulated"]["percent_of_note_roof"].get<double>()));
  xmlFreeDoc(doc);
}

// The bar of where the cores' time went spans its box: the picture is drawn to the box's width,
// and its shares, which add up to one, lie end to end from the left edge to the right.
TEST_F(Pictures, CoreTimeBarFillsItsBox) {
  // The bar's SVG, read as XML (the HTML parser would fold viewBox to lower case).
  const std::string html = slurp(base_ + ".html");
  const std::size_t box = html.find("<div class=\"chart\" id=\"core-time\">");
  ASSERT_NE(box, std::string::npos);
  const std::size_t start = html.find("<svg", box);
  const std::string svg = html.substr(start, html.find("</svg>", start) + 6 - start);
  xmlDocPtr doc = xmlReadMemory(svg.data(), static_cast<int>(svg.size()), "bar.svg", nullptr,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  ASSERT_NE(doc, nullptr) << "not well-formed XML";
  const std::string bar = "/svg:svg";
  ASSERT_EQ(select(doc, bar, "width"), std::vector<std::string>{"100%"});
  EXPECT_EQ(select(doc, bar, "height"), std::vector<std::string>{""});  // follows the width
  const auto view_box = select(doc, bar, "viewBox");
  ASSERT_EQ(view_box.size(), 1u);
  double box_x = 0, box_y = 0, box_width = 0, box_height = 0;
  std::istringstream(view_box[0]) >> box_x >> box_y >> box_width >> box_height;
  const auto xs = select(doc, bar + "/svg:rect[@data-share]", "x");
  const auto widths = select(doc, bar + "/svg:rect[@data-share]", "width");
  ASSERT_FALSE(xs.empty());
  ASSERT_EQ(xs.size(), widths.size());
  EXPECT_EQ(std::stod(xs.front()), box_x);
  double right = box_x;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    EXPECT_NEAR(std::stod(xs[i]), right, 0.002) << "share " << i << " leaves a gap";
    right = std::stod(xs[i]) + std::stod(widths[i]);
  }
  EXPECT_NEAR(right, box_x + box_width, 0.01);  // svg_number keeps 3 decimals
  xmlFreeDoc(doc);
}

// With an L2 the 2048^3 t = 64 GEMM beats the note's roof (HBM carries A and B once and C, 3 of
// its 65 parts): the headline is against the roof the run faces, compute, and stays below 100 %;
// the note's figure is beside it, labelled.
TEST(PicturesWithL2, HtmlReportHeadsWithTheRoofTheRunFaces) {
  const std::string html_path = ::testing::TempDir() + "ridgeline_pictures_l2.html";
  const std::string command =
      std::string(RIDGELINE_BINARY) + " run " + test::config_path("hardware/seed-l2.yaml") + " " +
      test::config_path("workloads/seed/gemm-4096-t64-double.yaml") +
      " --set workload.m=2048 --set workload.n=2048 --set workload.k=2048 --quiet --report " +
      html_path;
  ASSERT_EQ(std::system(command.c_str()), 0);
  const std::string html = slurp(html_path);
  std::remove(html_path.c_str());
  htmlDocPtr doc =
      htmlReadMemory(html.data(), static_cast<int>(html.size()), "report.html", "utf-8",
                     HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
  ASSERT_NE(doc, nullptr);
  const auto of_roof = select(doc, "//div[@data-key='simulated.percent_of_roof']");
  ASSERT_EQ(of_roof.size(), 1u);
  EXPECT_LE(std::stod(of_roof[0]), 100.0) << of_roof[0];
  EXPECT_GT(std::stod(of_roof[0]), 90.0) << of_roof[0];
  const auto note = select(doc, "//span[@data-key='simulated.percent_of_note_roof']");
  ASSERT_EQ(note.size(), 1u);
  EXPECT_GT(std::stod(note[0]), 120.0) << note[0];
  EXPECT_NE(html.find("of its roof (compute)"), std::string::npos);
  xmlFreeDoc(doc);
}

}  // namespace
}  // namespace ridgeline
