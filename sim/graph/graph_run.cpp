#include "sim/graph/graph_run.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "sim/util/child_process.hpp"
#include "sim/util/json.hpp"
#include "sim/util/output_file.hpp"

namespace ridgeline {

namespace {

KernelSimulation figures_of(const Json& report, std::uint32_t cores) {
  const Json& s = report.at("simulated");
  KernelSimulation k;
  k.time_s = s.at("time_s").get<double>();
  k.flops = s.at("flops").get<std::uint64_t>();
  k.issued_flops = s.at("issued_flops").get<std::uint64_t>();
  k.hbm_read_bytes = s.at("hbm_read_bytes").get<std::uint64_t>();
  k.hbm_write_bytes = s.at("hbm_write_bytes").get<std::uint64_t>();
  k.percent_of_roof = s.at("percent_of_roof").get<double>();
  k.bound = s.at("bound").get<std::string>();
  k.limit = s.at("verdict").at("limit").get<std::string>();
  k.limiter = s.at("limiter").at("cause").get<std::string>();
  k.demand.compute = s.at("compute_busy_fraction").get<double>();
  k.demand.memory = s.at("hbm_busy_fraction").get<double>();
  const double slots = static_cast<double>(cores) * s.at("resident_blocks_per_core").get<double>();
  k.demand.cores = slots > 0 ? std::min(1.0, s.at("blocks").get<double>() / slots) : 1;
  if (s.contains("l2")) k.l2_hit_rate = s.at("l2").at("hit_rate").get<double>();
  const Json& components = report.at("components");
  if (components.contains("l2")) {
    k.l2_dirty_at_end_bytes =
        static_cast<std::uint64_t>(components.at("l2").at("dirty_at_end_bytes").get<double>());
  }
  return k;
}

// Where the child simulating runs[i] writes its busy profile.
std::string busy_path(const std::string& scratch, std::size_t i) {
  return fmt::format("{}/kernel-{}.busy.json", scratch, i);
}

}  // namespace

std::vector<KernelSimulation> simulate_graph(const GraphConfig& config, unsigned jobs,
                                             bool busy_profiles) {
  const std::string scratch = make_temporary_directory("ridgeline-graph");
  struct Cleanup {
    std::string path;
    ~Cleanup() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } cleanup{scratch};

  std::vector<std::vector<std::string>> arguments;
  std::vector<std::string> reports;
  for (std::size_t i = 0; i < config.runs.size(); ++i) {
    const GraphRun& run = config.runs[i];
    const std::string workload = fmt::format("{}/kernel-{}.yaml", scratch, i);
    write_file_atomically(workload, run.document);
    reports.push_back(fmt::format("{}/kernel-{}.json", scratch, i));
    std::vector<std::string> args =
        run_arguments(config.hardware_path, workload, run.config.overrides, reports.back(),
                      run.config.l2_resident, run.config.l2_written);
    if (busy_profiles) {
      args.push_back("--busy-profile");
      args.push_back(busy_path(scratch, i));
    }
    arguments.push_back(std::move(args));
  }
  const std::vector<ChildResult> results = run_children(self_executable(), arguments, jobs);
  std::vector<KernelSimulation> simulations;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const GraphKernel& first = config.kernels[config.runs[i].kernels.front()];
    if (!results[i].ok()) {
      throw std::runtime_error(fmt::format("the simulation of kernel '{}' of {} failed: {}",
                                           first.name, config.workload_path, results[i].failure()));
    }
    simulations.push_back(figures_of(read_json_file(reports[i]), config.hardware.cores));
    if (busy_profiles) {
      simulations.back().busy = read_busy_profile(read_json_file(busy_path(scratch, i)));
    }
  }
  return simulations;
}

}  // namespace ridgeline
