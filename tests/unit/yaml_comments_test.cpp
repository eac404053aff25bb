// without_comments (sim/config/yaml_comments.hpp): what YAML reads as a comment is cut, nothing
// else, values keep their lines and columns, and a document it cannot cut safely is left whole.
#include "sim/config/yaml_comments.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>

#include "sim/config/config_node.hpp"
#include "sim/util/config_error.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

std::string cut(const std::string& text) {
  const std::optional<std::string> out = without_comments(text);
  EXPECT_TRUE(out) << text;
  return out.value_or("");
}

TEST(YamlComments, EmptiesEachCommentKeepingItsHashAndNewline) {
  EXPECT_EQ(cut("# a file\nhardware:   # its keys\n  clock: 1GHz # [SRC]\n"),
            "#\nhardware:   #\n  clock: 1GHz #\n");
  EXPECT_EQ(cut("a: 1\t# tab before\n  # indented\nb: 2"), "a: 1\t#\n  #\nb: 2");
}

TEST(YamlComments, KeepsAHashThatIsText) {
  EXPECT_EQ(cut("url: http://x/#frag\n"), "url: http://x/#frag\n");  // no space before it
  EXPECT_EQ(cut("a#b: 1\n"), "a#b: 1\n");
  EXPECT_EQ(cut("s: \"a # b\" # c\n"), "s: \"a # b\" #\n");
  EXPECT_EQ(cut("s: 'it''s # x' # c\n"), "s: 'it''s # x' #\n");
  EXPECT_EQ(cut("s: \"q\\\" # x\" # c\n"), "s: \"q\\\" # x\" #\n");  // an escaped quote
  EXPECT_EQ(cut("s: 'say \"hi\" # x'\n"), "s: 'say \"hi\" # x'\n");
  EXPECT_EQ(cut("l: [1, 2] # c\n"), "l: [1, 2] #\n");
}

TEST(YamlComments, LeavesWholeWhatItCannotCutSafely) {
  EXPECT_FALSE(without_comments("s: \"runs on\n  # text, not a comment\n  \"\n"));
  EXPECT_FALSE(without_comments("s: it's # plain, an apostrophe\n"));
  EXPECT_FALSE(without_comments("b: |\n  # text in a block\n"));
  EXPECT_FALSE(without_comments("b: >- # folded\n  # text\n"));
  EXPECT_FALSE(without_comments("- |2\n  x\n"));
}

// Every bundled configuration reads the same with its comments cut: the same tree, the same
// positions.
TEST(YamlComments, EveryBundledFileParsesToTheSameTree) {
  int files = 0;
  const auto same = [](const YAML::Node& a, const YAML::Node& b, auto& self) -> bool {
    if (a.Type() != b.Type() || a.Mark().line != b.Mark().line ||
        a.Mark().column != b.Mark().column)
      return false;
    if (a.IsScalar()) return a.Scalar() == b.Scalar();
    if (a.IsSequence()) {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (!self(a[i], b[i], self)) return false;
      return true;
    }
    if (a.IsMap()) {
      if (a.size() != b.size()) return false;
      for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
        if (!self(i->first, j->first, self) || !self(i->second, j->second, self)) return false;
    }
    return true;
  };
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(test::source_path("configs"))) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string text = read_config_file(entry.path().string());
    const std::optional<std::string> cut_text = without_comments(text);
    if (!cut_text) continue;
    EXPECT_TRUE(same(YAML::Load(text), YAML::Load(*cut_text), same)) << entry.path();
    ++files;
  }
  EXPECT_GT(files, 90);  // the bundled files, every one of which it cuts today
}

// A comment inside a multi-line plain scalar ends it, which makes the next line an error: still
// so once the comment is emptied.
TEST(YamlComments, ADocumentThatIsAnErrorStaysOne) {
  const std::string text = "a: hello\n  # ends the scalar\n  more\n";
  EXPECT_THROW(YAML::Load(text), YAML::Exception);
  EXPECT_THROW(YAML::Load(cut(text)), YAML::Exception);
}

TEST(YamlComments, AnErrorIsReportedWhereItWas) {
  try {
    load_document_text("f.yaml", "hardware:  # the machine\n  cores: {count: [}  # oops\n",
                       "hardware", {});
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("f.yaml:2:"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace ridgeline
