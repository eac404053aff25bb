// The folder graph is the library graph: every #include of the project's own headers stays within
// its library or reaches a library that one links (directly or through others), as the
// CMakeLists.txt files declare them. A header included against the direction compiles (every
// library sees the whole source tree) and, where it is only declarations, would even link; this
// test is what refuses it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Library {
  std::string folder;              // relative to the source tree: "sim/report", "models"
  std::set<std::string> sources;   // file names in that folder
  std::vector<std::string> links;  // project libraries it links, as written
};

// Every ridgeline_library(NAME [PLAIN] sources... LINKS libraries...) of the given folders.
std::map<std::string, Library> declared_libraries(const std::vector<std::string>& folders) {
  const std::regex call(R"(ridgeline_library\(\s*(\w+)([^)]*)\))");
  std::map<std::string, Library> libraries;
  for (const std::string& folder : folders) {
    const std::string text = read(test::source_path(folder + "/CMakeLists.txt"));
    for (std::sregex_iterator m(text.begin(), text.end(), call), end; m != end; ++m) {
      Library library{folder, {}, {}};
      std::istringstream words((*m)[2].str());
      bool in_links = false;
      for (std::string word; words >> word;) {
        if (word == "PLAIN") continue;
        if (word == "LINKS") {
          in_links = true;
        } else if (in_links) {
          if (word.rfind("ridgeline_", 0) == 0) library.links.push_back(word);
        } else {
          library.sources.insert(word);
        }
      }
      libraries[(*m)[1].str()] = library;
    }
  }
  return libraries;
}

class LibraryGraph : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::string> folders = {"models", "workloads"};
    for (const auto& entry : fs::directory_iterator(test::source_path("sim"))) {
      if (entry.is_directory()) folders.push_back("sim/" + entry.path().filename().string());
    }
    libraries_ = declared_libraries(folders);
    // The executable's main.cpp links the commands' library.
    libraries_["ridgeline_commands"].sources.insert("main.cpp");
  }

  // The library a file of the tree belongs to: the one listing it, or its .cpp (a header goes
  // with the source of its name). Otherwise a header goes with its folder's only library; in
  // models/, where three share the folder, SystemC's (*_module, sc_*) with the shells, any other
  // with the plain timing cores.
  std::string library_of(const std::string& path) const {
    const fs::path p(path);
    const std::string folder = p.parent_path().string();
    const std::string stem = p.stem().string();
    std::string only;
    int in_folder = 0;
    for (const auto& [name, library] : libraries_) {
      if (library.folder != folder) continue;
      ++in_folder;
      only = name;
      if (library.sources.count(stem + ".cpp") || library.sources.count(p.filename().string())) {
        return name;
      }
    }
    if (folder == "models") {
      const bool shell = stem.size() > 7 && stem.compare(stem.size() - 7, 7, "_module") == 0;
      return shell || stem.rfind("sc_", 0) == 0 ? "ridgeline_models" : "ridgeline_timing";
    }
    return in_folder == 1 ? only : "";
  }

  // Every library `name` reaches through its links, itself included.
  std::set<std::string> reachable(const std::string& name) const {
    std::set<std::string> seen;
    std::vector<std::string> todo = {name};
    while (!todo.empty()) {
      const std::string next = todo.back();
      todo.pop_back();
      if (!seen.insert(next).second) continue;
      const auto found = libraries_.find(next);
      if (found != libraries_.end())
        todo.insert(todo.end(), found->second.links.begin(), found->second.links.end());
    }
    return seen;
  }

  std::map<std::string, Library> libraries_;
};

TEST_F(LibraryGraph, EveryLibraryIsDeclaredWithItsLinks) {
  for (const char* name :
       {"ridgeline_program", "ridgeline_timing", "ridgeline_models", "ridgeline_workloads",
        "ridgeline_util", "ridgeline_config", "ridgeline_waveforms", "ridgeline_run",
        "ridgeline_charts", "ridgeline_report", "ridgeline_sweep", "ridgeline_commands"}) {
    EXPECT_EQ(libraries_.count(name), 1u) << name;
  }
  EXPECT_EQ(reachable("ridgeline_util").size(), 1u);  // util links no library of ours
  EXPECT_TRUE(reachable("ridgeline_commands").count("ridgeline_program"));
  EXPECT_FALSE(reachable("ridgeline_config").count("ridgeline_models"));  // config is plain
}

TEST_F(LibraryGraph, IncludesFollowTheLinks) {
  const std::regex include(R"re(#include "((?:sim|models|workloads)/[^"]+)")re");
  int files = 0;
  for (const char* top : {"models", "workloads", "sim"}) {
    for (const auto& entry : fs::recursive_directory_iterator(test::source_path(top))) {
      const std::string extension = entry.path().extension().string();
      if (extension != ".cpp" && extension != ".hpp") continue;
      const std::string path = fs::relative(entry.path(), test::source_path("")).generic_string();
      const std::string from = library_of(path);
      ASSERT_FALSE(from.empty()) << path << " belongs to no library in its CMakeLists.txt";
      ++files;
      const std::set<std::string> allowed = reachable(from);
      const std::string text = read(entry.path());
      for (std::sregex_iterator m(text.begin(), text.end(), include), end; m != end; ++m) {
        const std::string target = (*m)[1].str();
        const std::string to = library_of(target);
        EXPECT_TRUE(allowed.count(to))
            << path << " (" << from << ") includes " << target << " (" << to
            << "), a library it does not link: move the code, or link the other way";
      }
    }
  }
  EXPECT_GT(files, 150);
}

}  // namespace
}  // namespace ridgeline
