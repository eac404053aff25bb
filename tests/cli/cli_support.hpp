// Running the ridgeline executable from a test: its exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
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

/// "2.22 ms" -> 0.00222, "61.8 TFLOP/s" -> 6.18e13, "34 ns" -> 3.4e-8: a label or a report's
/// quantity read as a person reads it.
inline double read_label(const std::string& text) {
  std::istringstream in(text);
  double value = 0;
  std::string unit;
  in >> value >> unit;
  const std::map<char, double> prefixes{{'P', 1e15}, {'T', 1e12}, {'G', 1e9},
                                        {'M', 1e6},  {'k', 1e3},  {'m', 1e-3},
                                        {'u', 1e-6}, {'n', 1e-9}, {'p', 1e-12}};
  const auto prefix = unit.size() > 1 ? prefixes.find(unit[0]) : prefixes.end();
  return prefix == prefixes.end() ? value : value * prefix->second;
}

}  // namespace ridgeline::test
