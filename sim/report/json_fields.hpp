// A visitor of dotted field names (visit_fields, visit_kernel_energy, ...) that writes them into a
// JSON object, nested: "tile.m" -> {"tile": {"m": ...}}, in the order visited.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/util/json.hpp"

namespace ridgeline {

class JsonFields {
 public:
  explicit JsonFields(Json& object) : object_(object) {}
  void integer(std::string_view name, std::uint64_t value) { leaf(name) = value; }
  void real(std::string_view name, double value) { leaf(name) = value; }
  void text(std::string_view name, std::string_view value) { leaf(name) = value; }

 private:
  Json& leaf(std::string_view dotted) {
    Json* node = &object_;
    for (std::size_t dot; (dot = dotted.find('.')) != std::string_view::npos;) {
      node = &(*node)[std::string(dotted.substr(0, dot))];
      dotted.remove_prefix(dot + 1);
    }
    return (*node)[std::string(dotted)];
  }

  Json& object_;
};

}  // namespace ridgeline
