#include "sim/util/json.hpp"

#include <algorithm>
#include <fstream>

namespace ridgeline {

Json json_object(std::initializer_list<std::pair<const char*, Json>> fields) {
  Json object(Json::value_t::object);
  auto& entries = object.get_ref<Json::object_t&>();
  entries.reserve(fields.size());
  for (const auto& [key, value] : fields) entries.emplace_back(key, value);
  return object;
}

Json read_json_file(const std::string& path) {
  std::ifstream file(path);
  return Json::parse(file);
}

void for_each_leaf(const Json& json,
                   const std::function<void(const std::string& path, const Json& leaf)>& visit) {
  auto walk = [&](auto&& self, const Json& node, const std::string& path) -> void {
    if (node.is_object()) {
      for (const auto& [key, value] : node.items())
        self(self, value, path.empty() ? key : path + "." + key);
    } else if (node.is_array() && !node.empty() &&
               std::all_of(node.begin(), node.end(), [](const Json& item) {
                 return item.is_object() && item.contains("name") && item["name"].is_string();
               })) {
      // A list of named entries (memory levels): one column per entry and key, by name.
      for (const auto& item : node) {
        const std::string prefix = path + "." + item["name"].get<std::string>();
        for (const auto& [key, value] : item.items()) {
          if (key != "name") self(self, value, prefix + "." + key);
        }
      }
    } else {
      visit(path, node);
    }
  };
  walk(walk, json, "");
}

std::string leaf_text(const Json& leaf) {
  if (!leaf.is_array()) return leaf.is_string() ? leaf.get<std::string>() : leaf.dump();
  std::string joined;
  for (const auto& item : leaf) {
    joined +=
        (joined.empty() ? "" : ";") + (item.is_string() ? item.get<std::string>() : item.dump());
  }
  return joined;
}

std::vector<std::pair<std::string, std::string>> flatten(const Json& json) {
  std::vector<std::pair<std::string, std::string>> leaves;
  for_each_leaf(json, [&](const std::string& path, const Json& leaf) {
    leaves.emplace_back(path, leaf_text(leaf));
  });
  return leaves;
}

}  // namespace ridgeline
