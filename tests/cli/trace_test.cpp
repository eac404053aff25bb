// Traces as users ask for them: `ridgeline run --vcd FILE --timeline FILE`. Tracing changes no
// simulated figure (the JSON report is the same byte for byte); GTKWave's converter reads the VCD;
// the timeline follows the trace event format and its slices add up to the report's busy times;
// selection, windows and the size limit do what they say.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/cli/cli_support.hpp"
#include "tests/test_support.hpp"
#include "tests/vcd_reader.hpp"

namespace ridgeline {
namespace {

using test::Outcome;
using test::ridgeline;
using test::slurp;

// A run: hardware, workload, overrides (small sizes, so that a full trace takes well under a
// second).
struct Case {
  const char* name;
  std::string arguments;
};

std::string config(const std::string& hardware, const std::string& workload,
                   const std::string& overrides = "") {
  return test::config_path(hardware) + " " + test::config_path(workload) + overrides;
}

const std::string kSmall = " --set workload.m=1024 --set workload.n=1024 --set workload.k=1024";
const Case kSeed{"seed",
                 config("hardware/seed.yaml", "workloads/seed/gemm-4096-t64-double.yaml", kSmall)};
const Case kL2{"l2",
               config("hardware/seed-l2.yaml", "workloads/seed/gemm-4096-t64-double.yaml", kSmall)};
// Barriers, spilled registers, SRAM operand reads, 16 resident blocks a core.
const Case kSpill{"spill",
                  config("questions/q4-slow-past-ridge/machine.yaml",
                         "questions/q4-slow-past-ridge/register-spill.yaml",
                         " --set workload.m=512 --set workload.n=512 --set workload.k=512")};
// Trace players on a detailed HBM3 stack (row accesses per pseudo-channel).
const Case kTrace{"trace",
                  config("hardware/hbm3-stack.yaml", "workloads/memory/random-trace.yaml")};

std::string temp(const std::string& name) {
  return ::testing::TempDir() + "ridgeline_trace_" + std::to_string(::getpid()) + "_" + name;
}

// Runs `c` with `extra` arguments and returns the JSON report's text.
std::string report_of(const Case& c, const std::string& extra, Outcome* outcome = nullptr) {
  const std::string json = temp(std::string(c.name) + ".json");
  const Outcome o = ridgeline("run " + c.arguments + " --quiet --json " + json + " " + extra);
  EXPECT_EQ(o.exit_code, 0) << o.err;
  if (outcome) *outcome = o;
  std::string text = slurp(json);
  std::remove(json.c_str());
  return text;
}

struct Files {
  std::string vcd, gtkw, timeline;
  explicit Files(const std::string& name)
      : vcd(temp(name + ".vcd")),
        gtkw(temp(name + ".gtkw")),
        timeline(temp(name + ".trace.json")) {}
  ~Files() {
    for (const auto& path : {vcd, gtkw, timeline}) std::remove(path.c_str());
  }
  std::string arguments() const { return "--vcd " + vcd + " --timeline " + timeline; }
};

TEST(Trace, TracingChangesNoSimulatedFigure) {
  for (const Case& c : {kSeed, kL2, kSpill, kTrace}) {
    const Files files(c.name);
    const std::string plain = report_of(c, "");
    ASSERT_FALSE(plain.empty()) << c.name;
    EXPECT_EQ(report_of(c, files.arguments()), plain) << c.name << ": tracing changed the report";
    EXPECT_GT(std::filesystem::file_size(files.vcd), 0u) << c.name;
    EXPECT_GT(std::filesystem::file_size(files.timeline), 0u) << c.name;
    // Nor does watching the run for the HTML report's busy timeline, or for the busy profile.
    const std::string html = temp(std::string(c.name) + ".html");
    EXPECT_EQ(report_of(c, "--report " + html), plain) << c.name;
    std::remove(html.c_str());
    const std::string profile = temp(std::string(c.name) + ".busy.json");
    EXPECT_EQ(report_of(c, "--busy-profile " + profile), plain) << c.name;
    std::remove(profile.c_str());
    // A window and a selection change nothing either.
    EXPECT_EQ(report_of(c, files.arguments() + " --trace-start 1us --trace-end 3us --trace "
                                               "'top.*1.dma' --trace-level counters"),
              plain)
        << c.name;
  }
}

TEST(Trace, GtkwavesConverterReadsTheVcd) {
  const Files files("fst");
  report_of(kSpill, files.arguments());
  const std::string fst = temp("converted.fst");
  const std::string command = "vcd2fst " + files.vcd + " " + fst + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  EXPECT_GT(std::filesystem::file_size(fst), 0u);
  std::remove(fst.c_str());
  // And the VCD is what it says: scopes per unit, a busy signal per unit, changes in time order.
  const test::Vcd vcd = test::read_vcd(files.vcd);
  EXPECT_EQ(vcd.timescale, "1ps");
  for (const char* name : {"SystemC.top.core15.compute.busy", "SystemC.top.core0.barrier.busy",
                           "SystemC.top.core3.sram.stages_full", "SystemC.top.hbm.ch7.busy",
                           "SystemC.top.flop_per_s", "SystemC.top.core2.blocks.resident"}) {
    EXPECT_TRUE(vcd.has(name)) << name;
  }
  for (const std::string& comment : vcd.comments) {
    EXPECT_EQ(comment.find("stopped"), std::string::npos) << comment;
  }
}

TEST(Trace, GtkwaveSaveFileShowsSignalsOfTheVcd) {
  const Files files("gtkw");
  report_of(kL2, files.arguments());
  const test::Vcd vcd = test::read_vcd(files.vcd);
  const std::string save = slurp(files.gtkw);
  EXPECT_NE(save.find("[dumpfile] \"" + std::filesystem::absolute(files.vcd).string() + "\""),
            std::string::npos);
  // Every trace line names a variable of the VCD (vectors with their bit range).
  std::size_t shown = 0;
  std::size_t groups = 0;
  std::istringstream lines(save);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("@800200", 0) == 0) ++groups;
    if (line.rfind("+{", 0) != 0) continue;
    const std::string name = line.substr(line.find("} ") + 2);
    const std::string base = name.substr(0, name.find('['));
    ASSERT_TRUE(vcd.has(base)) << name;
    if (vcd.var(base).width > 1) {
      EXPECT_EQ(name, base + "[" + std::to_string(vcd.var(base).width - 1) + ":0]");
    }
    ++shown;
  }
  EXPECT_GE(groups, 6u);  // top, four cores, HBM, L2
  EXPECT_GT(shown, 40u);
}

struct Slice {
  std::string name;
  std::uint64_t ts_ps, dur_ps;
};

std::uint64_t picoseconds(const nlohmann::json& micros) {
  return static_cast<std::uint64_t>(std::llround(micros.get<double>() * 1e6));
}

using Slices = std::map<std::string, std::vector<Slice>>;

// Checks the timeline at `path` against the trace event format and collects its slices by track
// name ("top.core0.compute", "top.core0.dma 3", ...).
void check_timeline(const std::string& path, Slices& slices) {
  const nlohmann::json timeline = nlohmann::json::parse(slurp(path));
  ASSERT_TRUE(timeline.is_object());
  EXPECT_EQ(timeline["displayTimeUnit"], "ns");
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, std::string> threads;
  std::map<std::pair<int, std::string>, double> counter_time;
  for (const auto& e : timeline["traceEvents"]) {
    ASSERT_TRUE(e.contains("ph") && e.contains("name") && e.contains("pid")) << e.dump();
    const std::string ph = e["ph"];
    if (ph == "M") {
      ASSERT_TRUE(e["args"].contains("name") || e["args"].contains("sort_index")) << e.dump();
      if (e["name"] == "process_name") processes[e["pid"]] = e["args"]["name"];
      if (e["name"] == "thread_name") threads[{e["pid"], e["tid"]}] = e["args"]["name"];
    } else if (ph == "X") {
      ASSERT_TRUE(e.contains("tid") && e["ts"].is_number() && e["dur"].is_number()) << e.dump();
      const auto thread = threads.find({e["pid"], e["tid"]});
      ASSERT_NE(thread, threads.end()) << "a slice on a track without a name: " << e.dump();
      slices[processes.at(e["pid"]) + "." + thread->second].push_back(
          Slice{e["name"], picoseconds(e["ts"]), picoseconds(e["dur"])});
    } else if (ph == "C") {
      ASSERT_TRUE(e["ts"].is_number() && e["args"].is_object() && e["args"].size() == 1)
          << e.dump();
      double& last = counter_time[{e["pid"], e["name"]}];
      EXPECT_GE(e["ts"].get<double>(), last) << "counter time goes back: " << e.dump();
      last = e["ts"];
    } else {
      EXPECT_EQ(ph, "i") << e.dump();
    }
  }
  // Complete events of one track never overlap and come in time order.
  for (const auto& [track, list] : slices) {
    for (std::size_t i = 1; i < list.size(); ++i) {
      EXPECT_GE(list[i].ts_ps, list[i - 1].ts_ps + list[i - 1].dur_ps)
          << track << ": " << list[i - 1].name << " then " << list[i].name;
    }
  }
}

Slices checked_timeline(const std::string& path) {
  Slices slices;
  check_timeline(path, slices);
  return slices;
}

// Σ duration and count of the slices on tracks matching `track` (a regex) whose name matches
// `name`.
std::pair<std::uint64_t, std::uint64_t> total(const Slices& slices, const std::string& track,
                                              const std::string& name = ".*") {
  std::uint64_t ps = 0;
  std::uint64_t count = 0;
  for (const auto& [t, list] : slices) {
    if (!std::regex_match(t, std::regex(track))) continue;
    for (const Slice& s : list) {
      if (!std::regex_match(s.name, std::regex(name))) continue;
      ps += s.dur_ps;
      ++count;
    }
  }
  return {ps, count};
}

std::uint64_t ps_of(const nlohmann::json& seconds) {
  return static_cast<std::uint64_t>(std::llround(seconds.get<double>() * 1e12));
}

TEST(Trace, TimelineSlicesAddUpToTheReportsBusyTimes) {
  const Files files("sums");
  const nlohmann::json report = nlohmann::json::parse(report_of(kSpill, files.arguments()));
  const auto slices = checked_timeline(files.timeline);
  const nlohmann::json& c = report["components"];
  const auto compute = total(slices, R"(top\.core\d+\.compute)");
  EXPECT_EQ(compute.first, ps_of(c["compute_units"]["busy_s"]));
  EXPECT_EQ(compute.second, c["compute_units"]["ops"].get<std::uint64_t>());
  EXPECT_EQ(total(slices, R"(top\.hbm\.ch\d+)").first, ps_of(c["hbm"]["channel_busy_s"]));
  EXPECT_EQ(total(slices, R"(top\.core\d+\.dma( \d+)?)", "load .*").first,
            ps_of(c["cores"]["load_time_s"]));
  EXPECT_EQ(total(slices, R"(top\.core\d+\.dma( \d+)?)").second,
            c["cores"]["loads"].get<std::uint64_t>() + c["cores"]["stores"].get<std::uint64_t>());
  EXPECT_EQ(total(slices, R"(top\.core\d+\.dma( \d+)?)", "load local_.*").second,
            c["cores"]["local_loads"].get<std::uint64_t>());
  EXPECT_EQ(total(slices, R"(top\.core\d+\.barrier)").first, ps_of(c["cores"]["barrier_time_s"]));
  EXPECT_EQ(total(slices, R"(top\.core\d+\.sram\.read)").first, ps_of(c["sram"]["read_busy_s"]));
  EXPECT_EQ(total(slices, R"(top\.core\d+\.sram\.write)").first, ps_of(c["sram"]["write_busy_s"]));
  const auto blocks = total(slices, R"(top\.core\d+\.block slot \d+)");
  EXPECT_EQ(blocks.first, ps_of(c["cores"]["resident_block_time_s"]));
  EXPECT_EQ(blocks.second, c["cores"]["blocks"].get<std::uint64_t>());
}

TEST(Trace, TimelineOfAMemoryTraceHasAnAccessPerLine) {
  const Files files("players");
  const nlohmann::json report = nlohmann::json::parse(report_of(kTrace, files.arguments()));
  const auto slices = checked_timeline(files.timeline);
  EXPECT_EQ(total(slices, R"(top\.player\d+\.dma( \d+)?)").second,
            report["simulated"]["trace"]["accesses"].get<std::uint64_t>());
  // Detailed mode: the pseudo-channels' data-bus reservations (in lanes where FR-FCFS decided
  // them out of time order).
  EXPECT_EQ(total(slices, R"(top\.hbm\.ch\d+\.pc\d( \d+)?)").first,
            ps_of(report["components"]["hbm"]["channel_busy_s"]));
}

TEST(Trace, SelectionKeepsOnlyWhatMatches) {
  const Files files("selection");
  report_of(kSeed, files.arguments() + " --trace 'top.core0.*' --trace top.hbm --trace-level busy");
  const test::Vcd vcd = test::read_vcd(files.vcd);
  std::vector<std::string> names;
  for (const auto& [name, v] : vcd.vars) names.push_back(name);
  std::vector<std::string> expected{"SystemC.top.core0.barrier.busy",
                                    "SystemC.top.core0.compute.busy", "SystemC.top.core0.dma.busy",
                                    "SystemC.top.core0.sram.read.busy",
                                    "SystemC.top.core0.sram.write.busy"};
  for (int ch = 0; ch < 8; ++ch)
    expected.push_back("SystemC.top.hbm.ch" + std::to_string(ch) + ".busy");
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(names, expected);
  const auto slices = checked_timeline(files.timeline);
  for (const auto& [track, list] : slices) {
    EXPECT_TRUE(track.rfind("top.core0.", 0) == 0 || track.rfind("top.hbm.", 0) == 0) << track;
  }
  EXPECT_EQ(slices.count("top.core0.compute"), 1u);
  EXPECT_EQ(slices.count("top.core0.block slot 0"), 1u);
  EXPECT_EQ(slices.count("top.core1.compute"), 0u);
}

TEST(Trace, SizeLimitStopsTheFilesNotTheRun) {
  const Files files("limit");
  const std::string plain = report_of(kSeed, "");
  Outcome o;
  const std::string limited = report_of(kSeed, files.arguments() + " --trace-limit 256KiB", &o);
  EXPECT_EQ(limited, plain);
  for (const std::string& path : {files.vcd, files.timeline}) {
    EXPECT_NE(o.err.find("warning: the"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find(path + " reached its size limit of 262144 bytes"), std::string::npos)
        << o.err;
    EXPECT_LE(std::filesystem::file_size(path), 262144u) << path;
    EXPECT_GT(std::filesystem::file_size(path), 262144u / 2) << path;  // not long before it
  }
  const test::Vcd vcd = test::read_vcd(files.vcd);
  ASSERT_FALSE(vcd.comments.empty());
  EXPECT_NE(vcd.comments.back().find("trace stopped"), std::string::npos);
  const nlohmann::json timeline = nlohmann::json::parse(slurp(files.timeline));
  EXPECT_NE(timeline["otherData"]["stopped"].get<std::string>().find("size limit"),
            std::string::npos);
  checked_timeline(files.timeline);
}

// The HTML report's chart of busy units over time: its strips add up to the report's busy times.
TEST(Trace, ReportsBusyTimelineAddsUpToTheBusyTimes) {
  const std::string html_path = temp("busy.html");
  const nlohmann::json report = nlohmann::json::parse(report_of(kSpill, "--report " + html_path));
  const std::string html = slurp(html_path);
  std::remove(html_path.c_str());
  std::map<std::string, double> strips;
  const std::regex strip(R"re(data-label="([^"]+)" data-busy-s="([^"]+)")re");
  for (auto m = std::sregex_iterator(html.begin(), html.end(), strip); m != std::sregex_iterator();
       ++m) {
    strips[(*m)[1]] = std::stod((*m)[2]);
  }
  const nlohmann::json& c = report["components"];
  const double cores = report["hardware"]["cores"].get<double>();
  ASSERT_EQ(strips.count("all 16 cores compute"), 1u) << html;
  EXPECT_NEAR(strips["all 16 cores compute"], c["compute_units"]["busy_s"].get<double>() / cores,
              1e-15);
  EXPECT_NEAR(strips["HBM (8 channels)"], c["hbm"]["channel_busy_s"].get<double>() / 8, 1e-15);
  // Loads in flight: at least one at a time, so at most the time loads took, at least the longest.
  EXPECT_LE(strips["core0 loads"], c["cores"]["load_time_s"].get<double>());
  EXPECT_GT(strips["core0 loads"], 0);
  EXPECT_EQ(strips.count("core1 compute"), 0u);  // more than eight cores: their mean and core 0
}

// The busy profile: each part's fractions, over the time each bucket spans, add up to the
// report's busy time of that part.
TEST(Trace, BusyProfileAddsUpToTheBusyTimes) {
  const std::string path = temp("l2.busy.json");
  const nlohmann::json report = nlohmann::json::parse(report_of(kL2, "--busy-profile " + path));
  const nlohmann::json profile = nlohmann::json::parse(slurp(path));
  std::remove(path.c_str());
  const double run_s = report["simulated"]["time_s"].get<double>();
  EXPECT_DOUBLE_EQ(profile["run_s"].get<double>(), run_s);
  const double bucket_s = profile["bucket_s"].get<double>();
  const nlohmann::json& series = profile["busy_fraction"];
  const std::size_t buckets = series["hbm"].size();
  ASSERT_GT(buckets, 1u);
  ASSERT_LE(buckets, 240u);
  // The buckets cover the run, the last one ending with it.
  EXPECT_LT(bucket_s * static_cast<double>(buckets - 1), run_s);
  EXPECT_GE(bucket_s * static_cast<double>(buckets), run_s * (1 - 1e-12));
  const auto busy_s = [&](const char* part) {
    EXPECT_EQ(series[part].size(), buckets) << part;
    double sum = 0;
    for (std::size_t b = 0; b < buckets; ++b) {
      const double fraction = series[part][b].get<double>();
      EXPECT_GE(fraction, 0) << part << " " << b;
      EXPECT_LE(fraction, 1 + 1e-12) << part << " " << b;
      const double span = std::min(bucket_s, run_s - static_cast<double>(b) * bucket_s);
      sum += fraction * span;
    }
    return sum;
  };
  const nlohmann::json& c = report["components"];
  const double cores = report["hardware"]["cores"].get<double>();
  const double channels = report["hardware"]["hbm_channels"].get<double>() *
                          report["hardware"]["hbm_pseudo_channels"].get<double>();
  EXPECT_NEAR(busy_s("compute"), c["compute_units"]["busy_s"].get<double>() / cores, 1e-3 * run_s);
  EXPECT_NEAR(busy_s("hbm"), c["hbm"]["channel_busy_s"].get<double>() / channels, 1e-3 * run_s);
  EXPECT_NEAR(busy_s("l2_port"), c["l2"]["port_busy_s"].get<double>(), 1e-3 * run_s);
  // Loads in flight, at least one at a time: at most the time loads took.
  EXPECT_GT(busy_s("loads"), 0);
  EXPECT_LE(busy_s("loads"), c["cores"]["load_time_s"].get<double>() / cores * (1 + 1e-9));
  EXPECT_GT(busy_s("stores"), 0);
}

TEST(Trace, BadTraceOptionsAreTheUsersToFix) {
  const std::string run = "run " + kSeed.arguments + " --quiet ";
  const Files files("errors");
  Outcome o = ridgeline(run + "--vcd " + files.vcd + " --trace-level loud");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("--trace-level: value \"loud\": not a level of detail"), std::string::npos)
      << o.err;
  o = ridgeline(run + "--trace 'top.core0.*'");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("add --vcd FILE or --timeline FILE"), std::string::npos) << o.err;
  o = ridgeline(run + "--timeline " + files.timeline + " --trace-start 5us --trace-end 2us");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("must end after it starts"), std::string::npos) << o.err;
  o = ridgeline(run + "--vcd " + files.vcd + " --trace-limit 64KiB");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("--trace-limit: value \"65536\": the VCD's declarations of 1562 signals "
                       "alone take up to"),
            std::string::npos)
      << o.err;
  o = ridgeline(run + "--timeline " + files.timeline + " --trace 'top.gpu*' --trace top.core999");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("--trace: value \"top.gpu* top.core999\": selects no signal of this "
                       "machine at level rates"),
            std::string::npos)
      << o.err;
  o = ridgeline(run + "--vcd /nonexistent-directory/x.vcd");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("/nonexistent-directory/x.vcd: cannot write the file"), std::string::npos)
      << o.err;
}

}  // namespace
}  // namespace ridgeline
