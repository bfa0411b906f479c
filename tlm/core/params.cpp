#include "core/params.h"

#include <fmt/format.h>

namespace ccsim {

const char* to_string(ParamType t) {
  switch (t) {
    case ParamType::Int:
      return "int";
    case ParamType::Float:
      return "float";
    case ParamType::Bool:
      return "bool";
    case ParamType::String:
      return "string";
  }
  return "?";
}

std::string value_to_string(const Value& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&v)) return fmt::format("{}", *d);
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return fmt::format("\"{}\"", std::get<std::string>(v));
}

ParamSpec int_param(std::string key, int64_t def, std::string doc, std::optional<double> min,
                    std::optional<double> max) {
  return {std::move(key), ParamType::Int, Value{def}, std::move(doc), {}, min, max};
}
ParamSpec float_param(std::string key, double def, std::string doc, std::optional<double> min,
                      std::optional<double> max) {
  return {std::move(key), ParamType::Float, Value{def}, std::move(doc), {}, min, max};
}
ParamSpec bool_param(std::string key, bool def, std::string doc) {
  return {std::move(key), ParamType::Bool, Value{def}, std::move(doc), {}, std::nullopt, std::nullopt};
}
ParamSpec string_param(std::string key, std::string def, std::string doc, std::vector<std::string> choices) {
  return {std::move(key),     ParamType::String, Value{std::move(def)}, std::move(doc),
          std::move(choices), std::nullopt,      std::nullopt};
}

const Value& Config::raw(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw ConfigError(key, "internal: key not declared by any component");
  return it->second;
}

int64_t Config::get_int(const std::string& key) const {
  const Value& v = raw(key);
  if (auto* i = std::get_if<int64_t>(&v)) return *i;
  throw ConfigError(key, "internal: not an integer");
}

double Config::get_float(const std::string& key) const {
  const Value& v = raw(key);
  if (auto* d = std::get_if<double>(&v)) return *d;
  if (auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  throw ConfigError(key, "internal: not a number");
}

bool Config::get_bool(const std::string& key) const {
  const Value& v = raw(key);
  if (auto* b = std::get_if<bool>(&v)) return *b;
  throw ConfigError(key, "internal: not a bool");
}

const std::string& Config::get_string(const std::string& key) const {
  const Value& v = raw(key);
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  throw ConfigError(key, "internal: not a string");
}

}  // namespace ccsim
