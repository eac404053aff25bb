// Running the ridgeline executable from a test: its exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace ridgeline::test {

struct Outcome {
  int exit_code;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

/// Runs `ridgeline ARGUMENTS` through the shell and waits for it.
inline Outcome ridgeline(const std::string& arguments) {
  const std::string base = ::testing::TempDir() + "ridgeline_cli_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string command =
      std::string(RIDGELINE_BINARY) + " " + arguments + " >" + base + ".out 2>" + base + ".err";
  const int status = std::system(command.c_str());
  Outcome outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(base + ".out"),
                  slurp(base + ".err")};
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return outcome;
}

}  // namespace ridgeline::test
