// The executable's shared libraries (sim/util/build_library.hpp): it starts without them, loads
// the simulator only to simulate and the ONNX importer only for an ONNX model, and says which
// one it could not load. An executable copied alone into a folder of its own shows all three.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "tests/cli/cli_support.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

class ExecutableAlone : public ::testing::Test {
 protected:
  void SetUp() override {
    // A folder a test: ctest runs them at once.
    folder_ = fs::path(::testing::TempDir()) /
              (std::string("ridgeline_alone_") +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    // A hard link where the file system allows one (the executable finds its folder by the path
    // it was started from), else a copy of its hundred megabytes.
    std::error_code linked;
    fs::create_hard_link(RIDGELINE_BINARY, folder_ / "ridgeline", linked);
    if (linked) fs::copy_file(RIDGELINE_BINARY, folder_ / "ridgeline");
  }
  void TearDown() override { fs::remove_all(folder_); }

  // `ridgeline ARGUMENTS` of the lone copy, from the source tree.
  test::Outcome lone(const std::string& arguments) const {
    const std::string base = (folder_ / "out").string();
    const std::string command = "cd " + test::source_path("") + " && " +
                                (folder_ / "ridgeline").string() + " " + arguments + " >" + base +
                                ".out 2>" + base + ".err";
    const int status = std::system(command.c_str());
    return test::Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::slurp(base + ".out"),
                         test::slurp(base + ".err")};
  }

  fs::path folder_;
};

TEST_F(ExecutableAlone, AnalyzesWithoutEitherLibrary) {
  const test::Outcome o = lone(
      "analyze configs/hardware/seed.yaml "
      "configs/workloads/seed/gemm-4096-t128-double.yaml");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("T_ideal"), std::string::npos) << o.out;
}

TEST_F(ExecutableAlone, RunSaysTheSimulatorsLibraryIsMissing) {
  const test::Outcome o = lone(
      "run configs/hardware/seed.yaml "
      "configs/workloads/seed/gemm-4096-t128-double.yaml");
  EXPECT_EQ(o.exit_code, 1);  // the installation's fault, not the input's
  EXPECT_NE(o.err.find("cannot load a library of Ridgeline"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("libridgeline_simulator.so"), std::string::npos) << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
}

TEST_F(ExecutableAlone, AnOnnxModelSaysTheImportersLibraryIsMissing) {
  const test::Outcome o = lone(
      "analyze configs/hardware/h100-sxm5-80gb.yaml "
      "configs/workloads/models/mlp-block-onnx.yaml");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.err.find("libridgeline_onnx.so"), std::string::npos) << o.err;
}

TEST_F(ExecutableAlone, WithItsLibrariesBesideItItRunsAndReadsOnnx) {
  for (const char* library : {"libridgeline_simulator.so", "libridgeline_onnx.so"}) {
    std::error_code linked;
    const fs::path built = fs::path(RIDGELINE_BINARY).parent_path() / library;
    fs::create_hard_link(built, folder_ / library, linked);
    if (linked) fs::copy_file(built, folder_ / library);
  }
  const test::Outcome run = lone(
      "run configs/hardware/seed.yaml "
      "configs/workloads/seed/gemm-4096-t128-double.yaml "
      "--set workload.m=512 --set workload.n=512 --set workload.k=512");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("simulated"), std::string::npos) << run.out;
  const test::Outcome onnx = lone(
      "analyze configs/hardware/h100-sxm5-80gb.yaml "
      "configs/workloads/models/mlp-block-onnx.yaml");
  EXPECT_EQ(onnx.exit_code, 0) << onnx.err;
}

}  // namespace
}  // namespace ridgeline
