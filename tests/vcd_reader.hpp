// A small VCD reader for the trace tests: scopes, variables and their value changes.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ridgeline::test {

struct VcdVariable {
  std::string name;  ///< full dotted name, e.g. "SystemC.top.core0.compute.busy"
  int width = 1;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> changes;  ///< (time, value), in file order

  /// The value at `time`: the last change at or before it (0 before the first).
  std::uint64_t at(std::uint64_t time) const {
    std::uint64_t value = 0;
    for (const auto& [t, v] : changes) {
      if (t > time) break;
      value = v;
    }
    return value;
  }
};

struct Vcd {
  std::string timescale;
  std::set<std::string> scopes;             ///< dotted paths of every scope
  std::map<std::string, VcdVariable> vars;  ///< by full name
  std::vector<std::uint64_t> times;         ///< every time stamp, in file order
  std::vector<std::string> comments;
  bool has(const std::string& name) const { return vars.count(name) > 0; }
  const VcdVariable& var(const std::string& name) const {
    const auto found = vars.find(name);
    if (found == vars.end()) throw std::runtime_error("no variable " + name);
    return found->second;
  }
};

/// Reads `path`; throws std::runtime_error on anything that is not VCD.
inline Vcd read_vcd(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot open " + path);
  Vcd vcd;
  std::map<std::string, std::string> by_id;  // identifier -> name
  std::vector<std::string> scope;
  std::string token;
  std::uint64_t now = 0;
  bool definitions = true;
  const auto dotted = [&scope](const std::string& leaf) {
    std::string name;
    for (const auto& s : scope) name += s + ".";
    return name + leaf;
  };
  const auto skip_to_end = [&file](std::vector<std::string>* words) {
    std::string word;
    while (file >> word && word != "$end") {
      if (words) words->push_back(word);
    }
    if (word != "$end") throw std::runtime_error("unterminated section");
  };
  const auto set = [&](const std::string& id, std::uint64_t value) {
    const auto found = by_id.find(id);
    if (found == by_id.end()) throw std::runtime_error("unknown identifier " + id);
    vcd.vars[found->second].changes.emplace_back(now, value);
  };
  while (file >> token) {
    if (definitions) {
      if (token == "$scope") {
        std::vector<std::string> words;
        skip_to_end(&words);
        if (words.size() != 2) throw std::runtime_error("bad $scope");
        scope.push_back(words[1]);
        vcd.scopes.insert(dotted("").substr(0, dotted("").size() - 1));
      } else if (token == "$upscope") {
        skip_to_end(nullptr);
        if (scope.empty()) throw std::runtime_error("$upscope without $scope");
        scope.pop_back();
      } else if (token == "$var") {
        std::vector<std::string> words;
        skip_to_end(&words);
        if (words.size() < 4) throw std::runtime_error("bad $var");
        VcdVariable v;
        v.width = std::stoi(words[1]);
        v.name = dotted(words[3]);
        by_id[words[2]] = v.name;
        vcd.vars[v.name] = v;
      } else if (token == "$timescale") {
        std::vector<std::string> words;
        skip_to_end(&words);
        for (const auto& w : words) vcd.timescale += w;
      } else if (token == "$enddefinitions") {
        skip_to_end(nullptr);
        if (!scope.empty()) throw std::runtime_error("scopes left open");
        definitions = false;
      } else if (token[0] == '$') {
        skip_to_end(nullptr);  // $date, $version, $comment
      } else {
        throw std::runtime_error("unexpected " + token + " in the header");
      }
      continue;
    }
    if (token == "$comment") {
      std::vector<std::string> words;
      skip_to_end(&words);
      std::string text;
      for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
      vcd.comments.push_back(text);
    } else if (token == "$dumpvars" || token == "$end") {
      continue;
    } else if (token[0] == '#') {
      const std::uint64_t t = std::stoull(token.substr(1));
      if (!vcd.times.empty() && t < vcd.times.back()) throw std::runtime_error("time goes back");
      now = t;
      vcd.times.push_back(t);
    } else if (token[0] == 'b') {
      std::string id;
      if (!(file >> id)) throw std::runtime_error("vector without identifier");
      set(id, std::stoull(token.substr(1), nullptr, 2));
    } else if (token[0] == '0' || token[0] == '1') {
      set(token.substr(1), token[0] == '1' ? 1 : 0);
    } else {
      throw std::runtime_error("unexpected " + token);
    }
  }
  if (definitions) throw std::runtime_error("no $enddefinitions");
  return vcd;
}

}  // namespace ridgeline::test
