// Each workload kind's traits are the one place the rest reads it from: the parser's choices,
// the report's kind and label, the sweep's fast keys all follow them.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <variant>
#include <vector>

#include "sim/config/run_config.hpp"
#include "sim/report/report.hpp"
#include "sim/sweep/sweep_fields.hpp"
#include "sim/util/config_error.hpp"
#include "tests/test_support.hpp"
#include "workloads/workload.hpp"

namespace ridgeline {
namespace {

using test::config_path;

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for_each_workload_kind(
      [&](auto kind) { names.emplace_back(KindOf<typename decltype(kind)::type>::name); });
  return names;
}

TEST(WorkloadKindTest, EveryKindHasItsOwnName) {
  const std::vector<std::string> names = kind_names();
  EXPECT_EQ(names.size(), std::variant_size_v<WorkloadSpec>);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
}

TEST(WorkloadKindTest, TheParserOffersEveryKindByName) {
  test::ScratchFiles scratch;
  const std::string workload = scratch.write("workload", "workload:\n  kind: convolution\n");
  try {
    load_config(config_path("hardware/seed.yaml"), workload, {});
    ADD_FAILURE() << "an unknown kind was read";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("choose one of: gemm, vector_add, memory_trace"),
              std::string::npos)
        << error.what();
  }
}

TEST(WorkloadKindTest, TheReportNamesTheKindItWasReadAs) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"hardware/seed.yaml", "workloads/seed/gemm-4096-t64-double.yaml"},
      {"hardware/seed.yaml", "workloads/vector-add.yaml"},
      {"hardware/hbm3-stack.yaml", "workloads/memory/sequential-trace.yaml"},
      {"hardware/a100-sxm4-40gb.yaml", "workloads/stream/triad.yaml"},
      {"hardware/seed.yaml", "workloads/ops/elementwise-gelu.yaml"},
      {"hardware/seed.yaml", "workloads/ops/softmax.yaml"},
      {"hardware/h100-sxm5-80gb.yaml", "workloads/ops/attention-decode.yaml"},
      {"hardware/h100-sxm5-80gb.yaml", "workloads/ops/conv-resnet.yaml"},
      {"hardware/seed.yaml", "workloads/ops/embedding-lookup.yaml"}};
  std::set<std::string> seen;
  for (const auto& [hardware, workload] : cases) {
    SCOPED_TRACE(workload);
    const RunConfig config = load_config(config_path(hardware), config_path(workload), {});
    const Json report = report_json(config, nullptr);
    EXPECT_EQ(report["workload"]["kind"], std::string(kind_name(config.workload)));
    EXPECT_EQ(report["workload"]["label"], short_label(config.workload));
    seen.insert(std::string(kind_name(config.workload)));
  }
  const std::vector<std::string> names = kind_names();
  EXPECT_EQ(seen, std::set<std::string>(names.begin(), names.end())) << "a kind without a case";
}

// Records the keys one kind lists as sweepable.
struct SweepableKeys {
  std::vector<std::string> keys;
  template <class... Members>
  void operator()(const char* name, Members...) {
    keys.push_back(std::string("workload.") + name);
  }
};

TEST(WorkloadKindTest, EverySweepableFieldHasASetterForItsKindOnly) {
  for_each_workload_kind([](auto kind) {
    using Spec = typename decltype(kind)::type;
    SweepableKeys listed;
    KindOf<Spec>::visit_sweepable_fields(listed);
    for (const std::string& key : listed.keys) {
      SCOPED_TRACE(key);
      const FieldSetter* setter = find_field_setter(key);
      ASSERT_NE(setter, nullptr);
      ASSERT_TRUE(setter->workload);
      for_each_workload_kind([&](auto other) {
        using Other = typename decltype(other)::type;
        WorkloadSpec to{Other{}};
        const WorkloadSpec from{Other{}};
        EXPECT_EQ(setter->workload(to, from), (std::is_same_v<Spec, Other>)) << KindOf<Other>::name;
      });
    }
  });
}

}  // namespace
}  // namespace ridgeline
