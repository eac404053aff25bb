#include "sim/util/error_json.hpp"

namespace ridgeline {

Json error_json(const ConfigError& error) {
  Json json = error_json("bad_input", error.what());
  json["file"] = error.where().source;
  json["line"] = error.where().line;
  json["column"] = error.where().column;
  json["key"] = error.key_path();
  json["value"] = error.value();
  json["rule"] = error.rule();
  json["fix"] = error.fix();
  return json;
}

Json error_json(std::string_view kind, const std::string& message) {
  Json json;
  json["error"] = kind;
  json["message"] = message;
  return json;
}

std::string error_line(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace ridgeline
