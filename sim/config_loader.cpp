#include "config_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <toml++/toml.h>

#include "registry.h"

namespace ccsim {

namespace {

const char* kSections[] = {"topology", "router", "links", "routing", "traffic", "congestion", "sim"};

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "bool";
    case toml::node_type::array: return "array";
    case toml::node_type::table: return "table";
    default: return "other";
  }
}

// Raw values before validation: from the file or the command line.
struct RawValue {
  Value value;
  std::string origin;  // for messages
};

Value from_node(const std::string& key, const toml::node& n) {
  if (auto v = n.value_exact<int64_t>()) return *v;
  if (auto v = n.value_exact<double>()) return *v;
  if (auto v = n.value_exact<bool>()) return *v;
  if (auto v = n.value_exact<std::string>()) return *v;
  throw ConfigError(key, fmt::format("unsupported value of type {}", type_name(n)));
}

Value from_text(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  try {
    size_t pos = 0;
    long long i = std::stoll(text, &pos);
    if (pos == text.size()) return static_cast<int64_t>(i);
  } catch (...) {
  }
  try {
    size_t pos = 0;
    double d = std::stod(text, &pos);
    if (pos == text.size()) return d;
  } catch (...) {
  }
  std::string s = text;
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

const char* value_type(const Value& v) {
  if (std::holds_alternative<int64_t>(v)) return "integer";
  if (std::holds_alternative<double>(v)) return "float";
  if (std::holds_alternative<bool>(v)) return "bool";
  return "string";
}

// Latencies may be written "50ns" or "1us" (converted with sim.clock_ghz).
bool is_time_key(const std::string& key) { return key.rfind("links.", 0) == 0 && key.find("latency") != std::string::npos; }

Value checked(const ParamSpec& spec, const Value& v, double clock_ghz) {
  Value out = v;
  if (spec.type == ParamType::Int && is_time_key(spec.key) && std::holds_alternative<std::string>(v)) {
    const std::string& s = std::get<std::string>(v);
    double scale = 0;
    std::string num;
    if (s.size() > 2 && s.substr(s.size() - 2) == "ns") scale = clock_ghz, num = s.substr(0, s.size() - 2);
    else if (s.size() > 2 && s.substr(s.size() - 2) == "us") scale = 1000 * clock_ghz, num = s.substr(0, s.size() - 2);
    double x = 0;
    try {
      x = std::stod(num);
    } catch (...) {
      scale = 0;
    }
    if (scale == 0)
      throw ConfigError(spec.key, fmt::format("expected cycles (integer) or a time like \"50ns\"/\"1us\", got \"{}\"", s));
    out = static_cast<int64_t>(std::llround(x * scale));
  }
  switch (spec.type) {
    case ParamType::Int:
      if (!std::holds_alternative<int64_t>(out))
        throw ConfigError(spec.key, fmt::format("must be an integer, got {} {}", value_type(out), value_to_string(out)));
      break;
    case ParamType::Float:
      if (std::holds_alternative<int64_t>(out)) out = static_cast<double>(std::get<int64_t>(out));
      if (!std::holds_alternative<double>(out))
        throw ConfigError(spec.key, fmt::format("must be a number, got {} {}", value_type(out), value_to_string(out)));
      break;
    case ParamType::Bool:
      if (!std::holds_alternative<bool>(out))
        throw ConfigError(spec.key, fmt::format("must be true or false, got {} {}", value_type(out), value_to_string(out)));
      break;
    case ParamType::String:
      if (!std::holds_alternative<std::string>(out))
        throw ConfigError(spec.key, fmt::format("must be a string, got {} {}", value_type(out), value_to_string(out)));
      if (!spec.choices.empty() &&
          std::find(spec.choices.begin(), spec.choices.end(), std::get<std::string>(out)) == spec.choices.end()) {
        std::string allowed;
        for (auto& c : spec.choices) allowed += (allowed.empty() ? "" : ", ") + c;
        throw ConfigError(spec.key, fmt::format("unknown \"{}\"; allowed: {}", std::get<std::string>(out), allowed));
      }
      break;
  }
  if (spec.type == ParamType::Int || spec.type == ParamType::Float) {
    const double x = std::holds_alternative<int64_t>(out) ? static_cast<double>(std::get<int64_t>(out))
                                                           : std::get<double>(out);
    if ((spec.min && x < *spec.min) || (spec.max && x > *spec.max)) {
      std::string range = spec.min && spec.max ? fmt::format("between {} and {}", *spec.min, *spec.max)
                          : spec.min           ? fmt::format(">= {}", *spec.min)
                                               : fmt::format("<= {}", *spec.max);
      throw ConfigError(spec.key, fmt::format("must be {}, got {}", range, value_to_string(out)));
    }
  }
  return out;
}

Config build(std::map<std::string, RawValue> raw) {
  auto pick = [&](const std::string& key) {
    for (auto& s : core_params())
      if (s.key == key) {
        auto it = raw.find(key);
        return std::get<std::string>(checked(s, it == raw.end() ? s.default_value : it->second.value, 1.0));
      }
    return std::string();
  };
  const std::string topo = pick("topology.kind"), routing = pick("routing.algorithm"),
                    pattern = pick("traffic.pattern"), protocol = pick("congestion.protocol");
  const std::vector<ParamSpec> specs = applicable_params(topo, routing, pattern, protocol);
  double clock = 1.0;
  if (auto it = raw.find("sim.clock_ghz"); it != raw.end())
    for (auto& s : specs)
      if (s.key == "sim.clock_ghz") clock = std::get<double>(checked(s, it->second.value, 1.0));

  Config cfg;
  for (auto& [key, rv] : raw) {
    auto it = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.key == key; });
    if (it == specs.end()) {
      const std::string section = key.substr(0, key.find('.'));
      std::string allowed;
      for (auto& s : specs)
        if (s.key.rfind(section + ".", 0) == 0) allowed += (allowed.empty() ? "" : ", ") + s.key.substr(section.size() + 1);
      if (allowed.empty()) {
        std::string secs;
        for (auto* s : kSections) secs += (secs.empty() ? "" : ", ") + std::string(s);
        throw ConfigError(key, fmt::format("unknown section [{}] ({}); allowed sections: {}", section, rv.origin, secs));
      }
      throw ConfigError(key, fmt::format("unknown key ({}); allowed in [{}] with this topology/routing/pattern/"
                                         "protocol: {}",
                                         rv.origin, section, allowed));
    }
    cfg.set(key, checked(*it, rv.value, clock));
  }
  for (auto& s : specs)
    if (!cfg.has(s.key)) cfg.set(s.key, s.default_value);
  return cfg;
}

void flatten(const toml::table& t, const std::string& prefix, std::map<std::string, RawValue>& out,
             const std::string& origin) {
  for (auto&& [k, node] : t) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (auto* sub = node.as_table()) {
      if (!prefix.empty()) throw ConfigError(key, "nested tables are not allowed here");
      flatten(*sub, key, out, origin);
    } else if (prefix.empty()) {
      throw ConfigError(key, "top-level keys are not allowed; put it in a section such as [sim]");
    } else {
      out[key] = {from_node(key, node), origin};
    }
  }
}

Config from_table(const toml::table& t, const std::string& origin, const std::vector<Override>& overrides) {
  std::map<std::string, RawValue> raw;
  flatten(t, "", raw, origin);
  for (auto& o : overrides) raw[o.key] = {from_text(o.value), "-s " + o.key};
  return build(std::move(raw));
}

}  // namespace

Override parse_override(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || text.find('.') > eq)
    throw ConfigError("", fmt::format("-s expects section.key=value, got \"{}\"", text));
  return {text.substr(0, eq), text.substr(eq + 1)};
}

Config load_config(const std::string& path, const std::vector<Override>& overrides) {
  toml::table t;
  try {
    t = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    throw ConfigError("", fmt::format("{}:{}:{}: {}", path, e.source().begin.line, e.source().begin.column,
                                      std::string(e.description())));
  }
  return from_table(t, path, overrides);
}

Config load_config_string(const std::string& text, const std::vector<Override>& overrides) {
  toml::table t;
  try {
    t = toml::parse(text);
  } catch (const toml::parse_error& e) {
    throw ConfigError("", fmt::format("config:{}:{}: {}", e.source().begin.line, e.source().begin.column,
                                      std::string(e.description())));
  }
  return from_table(t, "config", overrides);
}

std::string config_to_toml(const Config& cfg) {
  const std::vector<ParamSpec> specs =
      applicable_params(cfg.get_string("topology.kind"), cfg.get_string("routing.algorithm"),
                        cfg.get_string("traffic.pattern"), cfg.get_string("congestion.protocol"));
  std::string out;
  for (auto* section : kSections) {
    out += fmt::format("[{}]\n", section);
    for (auto& s : specs) {
      if (s.key.rfind(std::string(section) + ".", 0) != 0) continue;
      out += fmt::format("{} = {}  # {}\n", s.key.substr(std::string(section).size() + 1),
                         value_to_string(cfg.raw(s.key)), s.doc);
    }
    out += "\n";
  }
  return out;
}

}  // namespace ccsim
