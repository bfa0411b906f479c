// Self-documenting parameters. Every registered component (topology, routing
// algorithm, traffic pattern, congestion-control protocol) and every core
// section declares its keys here, with type, default, allowed values and a
// one-line doc. `ccsim list`, `--print-config` and config validation all read
// the same declarations (the SST ELI idea).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace ccsim {

using Value = std::variant<int64_t, double, bool, std::string>;

enum class ParamType { Int, Float, Bool, String };

const char* to_string(ParamType t);
std::string value_to_string(const Value& v);

struct ParamSpec {
  std::string key;  // "section.name"
  ParamType type;
  Value default_value;
  std::string doc;
  std::vector<std::string> choices;  // allowed strings (String only), empty: any
  std::optional<double> min, max;    // inclusive numeric bounds
};

// Shorthands for declaring parameters.
ParamSpec int_param(std::string key, int64_t def, std::string doc, std::optional<double> min = std::nullopt,
                    std::optional<double> max = std::nullopt);
ParamSpec float_param(std::string key, double def, std::string doc, std::optional<double> min = std::nullopt,
                      std::optional<double> max = std::nullopt);
ParamSpec bool_param(std::string key, bool def, std::string doc);
ParamSpec string_param(std::string key, std::string def, std::string doc, std::vector<std::string> choices = {});

// One line naming the key and what is allowed; the program prints it and exits.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& key, const std::string& what)
      : std::runtime_error(key.empty() ? what : key + ": " + what), key_(key) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// Effective configuration: every declared key with its value (given or default).
class Config {
 public:
  void set(const std::string& key, Value v) { values_[key] = std::move(v); }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  const Value& raw(const std::string& key) const;

  int64_t get_int(const std::string& key) const;
  double get_float(const std::string& key) const;  // ints are accepted
  bool get_bool(const std::string& key) const;
  const std::string& get_string(const std::string& key) const;

  const std::map<std::string, Value>& values() const { return values_; }

  // [[traffic.class]] entries: each a complete config whose traffic.* keys are
  // the class's (inherited from [traffic] unless the class sets them).
  std::vector<Config> classes;
  // [[traffic.phase]] (or [[traffic.class.phase]] inside a class): the traffic
  // keys from cycle traffic.at on, inherited from the enclosing class.
  std::vector<Config> phases;

 private:
  std::map<std::string, Value> values_;
};

}  // namespace ccsim
