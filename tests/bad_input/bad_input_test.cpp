// The bad-input corpus: every case in cases.yaml runs the real ridgeline executable and must be
// answered as the user's fault, clearly: exit code 2, nothing on stdout, exactly one line on stderr
// that names where (file:line:column or the argument), what and why (the parts the case lists), no
// internal error, no sanitizer report, and no output file left behind.
//
// Each case is its own test (and its own CTest entry): adding a case is adding an entry to
// cases.yaml, and a file under files/ when it needs one.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "tests/run_ridgeline.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus = test::source_path("tests/bad_input");

struct Case {
  std::string name;
  std::vector<std::string> args;  ///< after 'ridgeline'; {configs} {files} {out} are replaced
  int exit_code = 2;
  std::vector<std::string> message;  ///< parts the one stderr line must contain
};

// The corpus, read once when the test binary starts (gtest lists one test per case).
// gtest prints a parameter in test names and failures; the case's name says which one.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> load_cases() {
  std::vector<Case> cases;
  const YAML::Node root = YAML::LoadFile(kCorpus + "/cases.yaml");
  for (const YAML::Node& entry : root["cases"]) {
    Case c;
    c.name = entry["name"].as<std::string>();
    for (const auto& arg : entry["args"]) c.args.push_back(arg.as<std::string>());
    c.exit_code = entry["exit"].as<int>();
    for (const auto& part : entry["message"]) c.message.push_back(part.as<std::string>());
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

class BadInput : public ::testing::TestWithParam<Case> {};

TEST_P(BadInput, IsAnsweredWithOneClearLine) {
  const Case& c = GetParam();
  ASSERT_FALSE(c.message.empty()) << "a case must say what its message contains";
  const fs::path out = fs::path(::testing::TempDir()) / ("ridgeline_bad_input_" + c.name);
  fs::remove_all(out);
  fs::create_directories(out);
  std::vector<std::string> args;
  for (std::string arg : c.args) {
    arg = replace_all(arg, "{configs}", test::source_path("configs"));
    arg = replace_all(arg, "{files}", kCorpus + "/files");
    args.push_back(replace_all(arg, "{out}", out.string()));
  }

  const test::Outcome o = test::run_program(RIDGELINE_BINARY, args, out.string());

  EXPECT_EQ(o.signal, 0) << "killed by a signal\n" << o.err;
  EXPECT_EQ(o.exit_code, c.exit_code) << o.err;
  EXPECT_EQ(o.out, "") << "nothing on stdout for bad input";
  ASSERT_FALSE(o.err.empty());
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << "exactly one line on stderr:\n" << o.err;
  EXPECT_EQ(o.err.rfind("ridgeline: error: ", 0), 0u) << o.err;
  for (const char* never : {"internal error", "Sanitizer", "runtime error:", "terminate called"})
    EXPECT_EQ(o.err.find(never), std::string::npos) << never << " in:\n" << o.err;
  for (const auto& part : c.message)
    EXPECT_NE(o.err.find(part), std::string::npos) << "missing '" << part << "' in:\n" << o.err;
  // A refused run writes nothing: no report, no half-written '.partial' file.
  EXPECT_TRUE(fs::is_empty(out)) << "files left in " << out;
  fs::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<Case>& param) {
                           return replace_all(param.param.name, "-", "_");
                         });

// The corpus is as broad as it claims: every case distinct, and at least 40 of them.
TEST(BadInputCorpus, HasAtLeastFortyDistinctCases) {
  const std::vector<Case> cases = load_cases();
  EXPECT_GE(cases.size(), 40u);
  std::set<std::string> names;
  for (const Case& c : cases) EXPECT_TRUE(names.insert(c.name).second) << "twice: " << c.name;
}

}  // namespace
}  // namespace ridgeline
