// `ridgeline validate` as users run it: each case's simulated figure is the one its own
// `ridgeline run` reports, the errors and statistics follow from them, and the picture and the
// page hold the cases the table prints, at any -j.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"
#include "tests/cli/xml_support.hpp"
#include "tests/energy_support.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;
using test::ridgeline;
using test::select;
using test::slurp;

struct Case {
  std::string name, gpu, hardware, workload, set, figure, measured;
  std::string l2_resident = {};  ///< the case's `l2_resident` list, e.g. "[data]"; empty: none
};

// Cases on the seed machine that run in a fraction of a second each.
std::vector<Case> seed_cases() {
  const std::string seed = test::config_path("hardware/seed.yaml");
  const std::string stack = test::config_path("hardware/hbm3-stack.yaml");
  return {
      {"vector-add", "seed", seed, test::config_path("workloads/vector-add.yaml"),
       "{workload.length: 1048576}", "bandwidth", "800GB/s"},
      {"gemm-t32", "seed", seed, test::config_path("workloads/seed/gemm-4096-t32-double.yaml"),
       "{workload.m: 512, workload.n: 512, workload.k: 512}", "flop_rate", "3TFLOP/s"},
      {"gemm-t64", "seed", seed, test::config_path("workloads/seed/gemm-4096-t64-double.yaml"),
       "{workload.m: 512, workload.n: 512, workload.k: 512}", "time", "100us"},
      {"gemm-t64-time-twice", "seed", seed,
       test::config_path("workloads/seed/gemm-4096-t64-double.yaml"),
       "{workload.m: 1024, workload.n: 512, workload.k: 512}", "time", "100us"},
      {"gemm-t32-time", "seed", seed,
       test::config_path("workloads/seed/gemm-4096-t32-double.yaml"),
       "{workload.m: 512, workload.n: 512, workload.k: 512}", "time", "1ms"},
      {"random-latency", "stack", stack, test::config_path("workloads/memory/random-trace.yaml"),
       "{hardware.cores.count: 1}", "latency", "120ns"},
  };
}

std::string write_validation(const std::string& name, const std::vector<Case>& cases) {
  const std::string path = ::testing::TempDir() + name + ".yaml";
  std::ofstream file(path);
  file << "validation:\n  cases:\n";
  for (const Case& c : cases) {
    file << "    - name: " << c.name << "\n      gpu: " << c.gpu << "\n      hardware: "
         << c.hardware << "\n      workload: " << c.workload << "\n";
    if (!c.set.empty()) file << "      set: " << c.set << "\n";
    if (!c.l2_resident.empty()) file << "      l2_resident: " << c.l2_resident << "\n";
    file << "      figure: " << c.figure << "\n      measured: " << c.measured
         << "\n      source: a test\n";
  }
  return path;
}

// The report `run_figure` writes for a case: named for the test too, since tests that run at the
// same time run the same cases.
std::string run_report_path(const Case& c) {
  return ::testing::TempDir() + "validate_" + c.name + "_" +
         ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json";
}

// The figure the case names, from `ridgeline run --json` of the same configuration.
double run_figure(const Case& c) {
  const std::string out = run_report_path(c);
  std::string sets;
  // "{a: 1, b: 2}" -> --set a=1 --set b=2
  std::string inner = c.set.size() > 2 ? c.set.substr(1, c.set.size() - 2) : "";
  for (std::size_t start = 0; start < inner.size();) {
    std::size_t end = inner.find(',', start);
    if (end == std::string::npos) end = inner.size();
    std::string item = inner.substr(start, end - start);
    item.erase(0, item.find_first_not_of(' '));
    const std::size_t colon = item.find(": ");
    sets += " --set " + item.substr(0, colon) + "=" + item.substr(colon + 2);
    start = end + 1;
  }
  // "[a, b]" -> --l2-resident a,b
  std::string resident;
  for (const char ch : c.l2_resident) {
    if (ch != '[' && ch != ']' && ch != ' ') resident += ch;
  }
  if (!resident.empty()) sets += " --l2-resident " + resident;
  const test::Outcome o = ridgeline("run " + c.hardware + " " + c.workload + sets +
                                    " --quiet --json " + out);
  EXPECT_EQ(o.exit_code, 0) << o.err;
  const json report = json::parse(slurp(out));
  const json& s = report["simulated"];
  if (c.figure == "bandwidth")
    return report["analytical"]["hbm_bytes"].get<double>() / s["time_s"].get<double>();
  if (c.figure == "flop_rate") return s["achieved_flop_per_s"].get<double>();
  if (c.figure == "time") return s["time_s"].get<double>();
  if (c.figure == "power") return s["energy"]["average_power_w"].get<double>();
  return s["trace"]["latency_s"]["mean"].get<double>();
}

TEST(Validate, EachCaseIsItsOwnRunsFigureAndTheStatisticsFollow) {
  const std::vector<Case> cases = seed_cases();
  const std::string file = write_validation("validate_seed", cases);
  const std::string base = ::testing::TempDir() + "validate_seed";
  const test::Outcome o = ridgeline("validate " + file + " -j 2 --json " + base + ".json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const json result = json::parse(slurp(base + ".json"));
  ASSERT_EQ(result["cases"].size(), cases.size());
  double sum = 0, worst = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].name);
    const json& c = result["cases"][i];
    EXPECT_EQ(c["name"], cases[i].name);
    EXPECT_EQ(c["figure"], cases[i].figure);
    EXPECT_EQ(c["source"], "a test");
    const double simulated = c["simulated"].get<double>();
    EXPECT_EQ(simulated, run_figure(cases[i]));
    const double measured = c["measured"].get<double>();
    EXPECT_DOUBLE_EQ(c["error_percent"].get<double>(), 100 * (simulated / measured - 1));
    sum += std::fabs(c["error_percent"].get<double>());
    worst = std::max(worst, std::fabs(c["error_percent"].get<double>()));
    EXPECT_NE(o.out.find(cases[i].name), std::string::npos);
  }
  EXPECT_EQ(result["cases"][0]["measured"].get<double>(), 800e9);
  EXPECT_EQ(result["cases"][2]["measured"].get<double>(), 100e-6);
  EXPECT_EQ(result["cases"][2]["unit"], "s");
  EXPECT_DOUBLE_EQ(result["mean_absolute_error_percent"].get<double>(),
                   sum / static_cast<double>(cases.size()));
  EXPECT_DOUBLE_EQ(result["max_abs_error_percent"].get<double>(), worst);
  // Three time cases: a correlation of them, and none for the kinds with fewer.
  ASSERT_TRUE(result["correlation"].contains("time"));
  EXPECT_EQ(result["correlation"].size(), 1u);
}

TEST(Validate, PowerIsTheRunsEnergyOverItsTime) {
  // The seed machine at 10 W static and 5 pJ a FLOP: a 512^3 GEMM draws 10 W plus its FLOPs'
  // 1.34 mJ over its time.
  test::ScratchFiles files;
  const std::string hardware = test::with_energy(
      files, "hardware/seed.yaml", test::energy_section("10W", "5pJ/FLOP", test::kNoHbmEnergy));
  const Case power{"gemm-power",
                   "seed",
                   hardware,
                   test::config_path("workloads/seed/gemm-4096-t64-double.yaml"),
                   "{workload.m: 512, workload.n: 512, workload.k: 512}",
                   "power",
                   "50W"};
  const std::string base = ::testing::TempDir() + "validate_power";
  const test::Outcome o = ridgeline("validate " + write_validation("validate_power", {power}) +
                                    " --json " + base + ".json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const json result = json::parse(slurp(base + ".json"));
  ASSERT_EQ(result["cases"].size(), 1u);
  const json& c = result["cases"][0];
  EXPECT_EQ(c["unit"], "W");
  EXPECT_EQ(c["measured"].get<double>(), 50.0);
  const double simulated = c["simulated"].get<double>();
  EXPECT_EQ(simulated, run_figure(power));
  // Its joules, counted by hand, over the run's time.
  const double time =
      json::parse(slurp(run_report_path(power)))["simulated"]["time_s"].get<double>();
  EXPECT_NEAR(simulated, 10 + 2.0 * 512 * 512 * 512 * 5e-12 / time, 1e-9);
  EXPECT_DOUBLE_EQ(c["error_percent"].get<double>(), 100 * (simulated / 50 - 1));
}

TEST(Validate, AWarmCaseChasesLinesTheL2HoldsFromTheStart) {
  // One core chasing 64 B at a time over 1 MiB: cold, nearly every load goes to the HBM (500 ns
  // on this machine; the 2,000 random loads repeat a few lines, which hit); with `l2_resident:
  // [data]` the trace's lines are in the L2 when the run starts, and every load hits (150 ns).
  const std::string set =
      "{hardware.cores.count: 1, hardware.hbm.max_bytes_in_flight_per_core: 64B, "
      "workload.pattern.order: random, workload.pattern.span: 1MiB, "
      "workload.pattern.accesses: 2000}";
  const std::string hardware = test::config_path("hardware/seed-l2.yaml");
  const std::string workload = test::config_path("workloads/memory/sequential-loads.yaml");
  const std::vector<Case> cases{
      {"cold-chase", "seed", hardware, workload, set, "latency", "500ns", ""},
      {"warm-chase", "seed", hardware, workload, set, "latency", "150ns", "[data]"}};
  const std::string base = ::testing::TempDir() + "validate_warm";
  const test::Outcome o = ridgeline("validate " + write_validation("validate_warm", cases) +
                                    " --json " + base + ".json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const json result = json::parse(slurp(base + ".json"));
  ASSERT_EQ(result["cases"].size(), 2u);
  const double cold = result["cases"][0]["simulated"].get<double>();
  const double warm = result["cases"][1]["simulated"].get<double>();
  EXPECT_EQ(cold, run_figure(cases[0]));
  EXPECT_EQ(warm, run_figure(cases[1]));
  EXPECT_GT(cold, 400e-9);
  EXPECT_GE(warm, 150e-9);
  EXPECT_LT(warm, 160e-9) << "every load a hit: the hit latency and a line's transfer";
}

TEST(Validate, CasesMeasuredAtTwiceTheirSimulatedTimeAreOffByHalfAndCorrelatePerfectly) {
  std::vector<Case> cases;
  for (const Case& c : seed_cases()) {
    if (c.figure == "time") cases.push_back(c);
  }
  ASSERT_EQ(cases.size(), 3u);
  // Measured at twice the simulated time, to the picosecond (quantities of time are whole ps).
  for (Case& c : cases) c.measured = std::to_string(std::llround(2 * run_figure(c) * 1e12)) + "ps";
  const std::string base = ::testing::TempDir() + "validate_twice";
  const test::Outcome o = ridgeline("validate " + write_validation("validate_twice", cases) +
                                    " --json " + base + ".json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const json result = json::parse(slurp(base + ".json"));
  for (const json& c : result["cases"]) EXPECT_NEAR(c["error_percent"].get<double>(), -50, 1e-4);
  EXPECT_NEAR(result["mean_absolute_error_percent"].get<double>(), 50, 1e-4);
  EXPECT_NEAR(result["correlation"]["time"].get<double>(), 1, 1e-9);
  EXPECT_NE(o.out.find("mean absolute error 50.0 % over 3 cases"), std::string::npos) << o.out;
}

TEST(Validate, ThePictureAndThePageHoldEveryCaseAndTheOutputIsTheSameAtEveryJ) {
  const std::vector<Case> cases = seed_cases();
  const std::string file = write_validation("validate_files", cases);
  const std::string base = ::testing::TempDir() + "validate_files";
  const test::Outcome one = ridgeline("validate " + file + " -j 1 --json " + base + "1.json");
  const test::Outcome two = ridgeline("validate " + file + " -j 2 --json " + base +
                                      "2.json --svg " + base + ".svg --report " + base + ".html");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(two.exit_code, 0) << two.err;
  // The first line names -j; the table and the statistics do not change with it.
  EXPECT_EQ(one.out.substr(one.out.find('\n')), two.out.substr(two.out.find('\n')));
  EXPECT_EQ(slurp(base + "1.json"), slurp(base + "2.json"));
  const json result = json::parse(slurp(base + "2.json"));

  const std::string svg = slurp(base + ".svg");
  xmlDocPtr doc = xmlReadMemory(svg.data(), static_cast<int>(svg.size()), "v.svg", nullptr,
                                XML_PARSE_NONET);
  ASSERT_NE(doc, nullptr);
  const auto names = select(doc, "//svg:circle[@class='case']", "data-case");
  ASSERT_EQ(names.size(), cases.size());
  const auto measured = select(doc, "//svg:circle[@class='case']", "data-measured");
  const auto simulated = select(doc, "//svg:circle[@class='case']", "data-simulated");
  // One panel a kind of figure, in the order first met: the points in panel order.
  std::vector<std::string> expected;
  for (const char* figure : {"bandwidth", "flop_rate", "time", "latency"}) {
    for (const json& c : result["cases"]) {
      if (c["figure"] == figure) {
        expected.push_back(c["name"]);
        const std::size_t at = expected.size() - 1;
        EXPECT_EQ(std::stod(measured[at]), c["measured"].get<double>());
        EXPECT_EQ(std::stod(simulated[at]), c["simulated"].get<double>());
      }
    }
  }
  EXPECT_EQ(names, expected);
  EXPECT_EQ(select(doc, "//svg:g[@class='panel']", "data-figure"),
            (std::vector<std::string>{"bandwidth", "flop_rate", "time", "latency"}));
  xmlFreeDoc(doc);

  const std::string html = slurp(base + ".html");
  test::expect_self_contained(html);
  htmlDocPtr page = htmlReadMemory(html.data(), static_cast<int>(html.size()), "v.html", "utf-8",
                                   HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
  ASSERT_NE(page, nullptr);
  std::vector<std::string> rows;
  for (const Case& c : cases) rows.push_back(c.name);
  EXPECT_EQ(select(page, "//table[@id='cases']//tr/td[1]"), rows);
  EXPECT_EQ(select(page, "//svg//*[local-name()='circle'][@class='case']").size(), cases.size());
  xmlFreeDoc(page);
}

}  // namespace
}  // namespace ridgeline
