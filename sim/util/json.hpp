// The JSON documents Ridgeline writes (keys in insertion order) and their leaves by dotted path, as
// the CSV files and the sweep's result rows name them.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ridgeline {

using Json = nlohmann::ordered_json;

/// An object of `fields`, whose keys differ, in their order. Cheaper than Json{{key, value},
/// ...}: nlohmann reads an initializer list as arrays first, checks that each is a pair, then
/// moves them into the object, which a report that builds one object a kernel pays hundreds of
/// times.
Json json_object(std::initializer_list<std::pair<const char*, Json>> fields);

/// The JSON document in the file at `path` (a report a child run wrote); throws when it is none.
Json read_json_file(const std::string& path);

/// Leaves of `json` as (dotted path, value) in document order; lists are joined with ';'.
std::vector<std::pair<std::string, std::string>> flatten(const Json& json);

/// Calls `visit` with each leaf of `json` and its dotted path, in document order, as flatten
/// names them: a list of named entries (memory levels) gives path.<name>.<key> leaves; any other
/// list is one leaf.
void for_each_leaf(const Json& json,
                   const std::function<void(const std::string& path, const Json& leaf)>& visit);
/// A leaf as flatten writes it: strings bare, numbers as JSON, lists joined with ';'.
std::string leaf_text(const Json& leaf);

}  // namespace ridgeline
