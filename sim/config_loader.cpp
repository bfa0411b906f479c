#include "config_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <toml++/toml.h>

#include "registry.h"

namespace ccsim {

namespace {

// The sections of the declared keys, in declaration order: [topology] ... [sim] [hardware].
std::vector<std::string> sections_of(const std::vector<ParamSpec>& specs) {
  std::vector<std::string> out;
  for (auto& s : specs) {
    const std::string section = s.key.substr(0, s.key.find('.'));
    if (std::find(out.begin(), out.end(), section) == out.end()) out.push_back(section);
  }
  return out;
}

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string:
      return "string";
    case toml::node_type::integer:
      return "integer";
    case toml::node_type::floating_point:
      return "float";
    case toml::node_type::boolean:
      return "bool";
    case toml::node_type::array:
      return "array";
    case toml::node_type::table:
      return "table";
    default:
      return "other";
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

// Latencies and traffic times may be written "50ns" or "1us" (converted with sim.clock_ghz).
bool is_time_key(const std::string& key) {
  return (key.rfind("links.", 0) == 0 && key.find("latency") != std::string::npos) || key == "traffic.start" ||
         key == "traffic.stop" || key == "traffic.compute" || key == "traffic.at" || key == "sim.series_window" ||
         key == "sim.trace_start" || key == "sim.trace_stop";
}

Value checked(const ParamSpec& spec, const Value& v, double clock_ghz) {
  Value out = v;
  if (spec.type == ParamType::Int && is_time_key(spec.key) && std::holds_alternative<std::string>(v)) {
    const std::string& s = std::get<std::string>(v);
    double scale = 0;
    std::string num;
    if (s.size() > 2 && s.substr(s.size() - 2) == "ns")
      scale = clock_ghz, num = s.substr(0, s.size() - 2);
    else if (s.size() > 2 && s.substr(s.size() - 2) == "us")
      scale = 1000 * clock_ghz, num = s.substr(0, s.size() - 2);
    double x = 0;
    try {
      x = std::stod(num);
    } catch (...) {
      scale = 0;
    }
    if (scale == 0)
      throw ConfigError(spec.key,
                        fmt::format("expected cycles (integer) or a time like \"50ns\"/\"1us\", got \"{}\"", s));
    // llround of a NaN or of more than int64 holds is undefined.
    if (!(std::fabs(x * scale) < 9e18))
      throw ConfigError(spec.key, fmt::format("time \"{}\" is not a number of cycles an integer can hold", s));
    out = static_cast<int64_t>(std::llround(x * scale));
  }
  switch (spec.type) {
    case ParamType::Int:
      if (!std::holds_alternative<int64_t>(out))
        throw ConfigError(spec.key,
                          fmt::format("must be an integer, got {} {}", value_type(out), value_to_string(out)));
      break;
    case ParamType::Float:
      if (std::holds_alternative<int64_t>(out)) out = static_cast<double>(std::get<int64_t>(out));
      if (!std::holds_alternative<double>(out))
        throw ConfigError(spec.key, fmt::format("must be a number, got {} {}", value_type(out), value_to_string(out)));
      break;
    case ParamType::Bool:
      if (!std::holds_alternative<bool>(out))
        throw ConfigError(spec.key,
                          fmt::format("must be true or false, got {} {}", value_type(out), value_to_string(out)));
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
    const double x =
        std::holds_alternative<int64_t>(out) ? static_cast<double>(std::get<int64_t>(out)) : std::get<double>(out);
    // NaN passes every comparison below; infinities make no sense for any key.
    if (!std::isfinite(x))
      throw ConfigError(spec.key, fmt::format("must be a finite number, got {}", value_to_string(out)));
    if ((spec.min && x < *spec.min) || (spec.max && x > *spec.max)) {
      std::string range = spec.min && spec.max ? fmt::format("between {} and {}", *spec.min, *spec.max)
                          : spec.min           ? fmt::format(">= {}", *spec.min)
                                               : fmt::format("<= {}", *spec.max);
      throw ConfigError(spec.key, fmt::format("must be {}, got {}", range, value_to_string(out)));
    }
  }
  return out;
}

using RawMap = std::map<std::string, RawValue>;

// The keys that apply to the topology/routing/pattern/protocol `raw` selects.
std::vector<ParamSpec> specs_for(const RawMap& raw) {
  auto pick = [&](const std::string& key) {
    for (auto& s : core_params())
      if (s.key == key) {
        auto it = raw.find(key);
        return std::get<std::string>(checked(s, it == raw.end() ? s.default_value : it->second.value, 1.0));
      }
    return std::string();
  };
  return applicable_params(pick("topology.kind"), pick("routing.algorithm"), pick("traffic.pattern"),
                           pick("congestion.protocol"));
}

double clock_of(const RawMap& raw, const std::vector<ParamSpec>& specs) {
  double clock = 1.0;
  if (auto it = raw.find("sim.clock_ghz"); it != raw.end())
    for (auto& s : specs)
      if (s.key == "sim.clock_ghz") clock = std::get<double>(checked(s, it->second.value, 1.0));
  return clock;
}

Config build(const RawMap& raw) {
  const std::vector<ParamSpec> specs = specs_for(raw);
  const double clock = clock_of(raw, specs);
  Config cfg;
  for (auto& [key, rv] : raw) {
    auto it = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.key == key; });
    if (it == specs.end()) {
      const std::string section = key.substr(0, key.find('.'));
      std::string allowed;
      for (auto& s : specs)
        if (s.key.rfind(section + ".", 0) == 0)
          allowed += (allowed.empty() ? "" : ", ") + s.key.substr(section.size() + 1);
      if (allowed.empty()) {
        std::string secs;
        for (auto& s : sections_of(specs)) secs += (secs.empty() ? "" : ", ") + s;
        throw ConfigError(key,
                          fmt::format("unknown section [{}] ({}); allowed sections: {}", section, rv.origin, secs));
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

// The keys of one [[traffic.class]] or [[traffic.phase]] table as traffic.* values.
RawMap traffic_keys(const toml::table& t, const std::string& where, const std::string& origin,
                    const toml::array** phases) {
  RawMap out;
  for (auto&& [k, node] : t) {
    const std::string name(k.str());
    if (name == "phase" && phases) {
      *phases = node.as_array();
      if (!*phases) throw ConfigError(where + ".phase", "must be an array of tables: [[traffic.class.phase]]");
      continue;
    }
    if (auto* a = node.as_array(); a && name == "nodes") {
      std::string list;
      for (auto&& e : *a) {
        auto v = e.value_exact<int64_t>();
        if (!v) throw ConfigError(where + ".nodes", "an array of nodes must hold integers only");
        list += (list.empty() ? "list:" : ",") + std::to_string(*v);
      }
      out["traffic.nodes"] = {list, origin};
      continue;
    }
    if (node.is_table() || node.is_array())
      throw ConfigError(where + "." + name, "nested tables and arrays are not allowed here");
    out["traffic." + name] = {from_node(where + "." + name, node), origin};
  }
  return out;
}

// Builds `overlay` on top of `base`: traffic keys of `base` that the overlay's
// pattern does not take are dropped; errors name the key as where.key.
Config build_traffic_overlay(RawMap base, const RawMap& overlay, const std::string& where) {
  for (auto& [k, v] : overlay) base[k] = v;
  const std::vector<ParamSpec> specs = specs_for(base);
  for (auto it = base.begin(); it != base.end();) {
    const bool known = std::any_of(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.key == it->first; });
    if (!known && it->first.rfind("traffic.", 0) == 0 && !overlay.count(it->first))
      it = base.erase(it);
    else
      ++it;
  }
  try {
    return build(base);
  } catch (const ConfigError& e) {
    if (e.key().rfind("traffic.", 0) != 0) throw;
    const std::string what = std::string(e.what()).substr(e.key().size() + 2);
    throw ConfigError(where + e.key().substr(7), what);
  }
}

// Phases of a class: each a config of its own with traffic.at set.
std::vector<Config> build_phases(const RawMap& base, const toml::array* phases, const std::string& where,
                                 const std::string& origin) {
  std::vector<Config> out;
  if (!phases) return out;
  const ParamSpec at_spec = int_param("traffic.at", 0, "cycle the phase begins", 0);
  const double clock = clock_of(base, specs_for(base));
  int j = 0;
  for (auto&& node : *phases) {
    const std::string pw = fmt::format("{}[{}]", where, j++);
    const toml::table* t = node.as_table();
    if (!t) throw ConfigError(pw, "must be a table");
    RawMap keys = traffic_keys(*t, pw, origin, nullptr);
    auto at = keys.find("traffic.at");
    if (at == keys.end()) throw ConfigError(pw + ".at", "missing: the cycle (or time such as \"20us\") it begins");
    Value at_value;
    try {
      at_value = checked(at_spec, at->second.value, clock);
    } catch (const ConfigError& e) {
      throw ConfigError(pw + ".at", std::string(e.what()).substr(e.key().size() + 2));
    }
    keys.erase(at);
    Config c = build_traffic_overlay(base, keys, pw);
    c.set("traffic.at", at_value);
    out.push_back(std::move(c));
  }
  return out;
}

[[noreturn]] void unknown_class(const std::map<std::string, RawMap>& sets, const std::vector<std::string>& names) {
  const auto& [name, keys] = *sets.begin();
  throw ConfigError(keys.begin()->second.origin.substr(3),
                    fmt::format("no [[traffic.class]] is named \"{}\"; classes: {}", name,
                                names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
}

Config from_table(toml::table t, const std::string& origin, const std::vector<Override>& overrides) {
  const toml::array *classes = nullptr, *phases = nullptr;
  toml::array class_copy, phase_copy;
  if (auto* traffic = t["traffic"].as_table()) {
    if (auto* c = traffic->get("class")) {
      if (!c->as_array()) throw ConfigError("traffic.class", "must be an array of tables: [[traffic.class]]");
      class_copy = *c->as_array();
      classes = &class_copy;
      traffic->erase("class");
    }
    if (auto* p = traffic->get("phase")) {
      if (!p->as_array()) throw ConfigError("traffic.phase", "must be an array of tables: [[traffic.phase]]");
      phase_copy = *p->as_array();
      phases = &phase_copy;
      traffic->erase("phase");
    }
  }
  RawMap raw;
  flatten(t, "", raw, origin);
  // -s traffic.class.NAME.KEY=V sets KEY of the class named NAME; every other -s sets the base.
  std::map<std::string, RawMap> class_sets;
  const std::string class_prefix = "traffic.class.";
  for (auto& o : overrides) {
    if (o.key.rfind(class_prefix, 0) != 0) {
      raw[o.key] = {from_text(o.value), "-s " + o.key};
      continue;
    }
    const std::string rest = o.key.substr(class_prefix.size());
    const auto dot = rest.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size())
      throw ConfigError(o.key, "a class override is traffic.class.NAME.KEY=VALUE (NAME: the class's traffic.name)");
    class_sets[rest.substr(0, dot)]["traffic." + rest.substr(dot + 1)] = {from_text(o.value), "-s " + o.key};
  }
  Config cfg = build(raw);
  if (classes && phases)
    throw ConfigError("traffic.phase", "with [[traffic.class]] tables, give each class its [[traffic.class.phase]]");
  cfg.phases = build_phases(raw, phases, "traffic.phase", origin);
  if (!classes) {
    if (!class_sets.empty()) unknown_class(class_sets, {});
    return cfg;
  }
  std::vector<std::string> names;
  int i = 0;
  for (auto&& node : *classes) {
    const std::string where = fmt::format("traffic.class[{}]", i);
    const toml::table* ct = node.as_table();
    if (!ct) throw ConfigError(where, "must be a table");
    const toml::array* class_phases = nullptr;
    RawMap keys = traffic_keys(*ct, where, origin, &class_phases);
    if (!keys.count("traffic.name")) keys["traffic.name"] = {std::string(fmt::format("class{}", i)), origin};
    const auto* name = std::get_if<std::string>(&keys["traffic.name"].value);
    names.push_back(name ? *name : "");
    if (auto it = class_sets.find(names.back()); it != class_sets.end()) {
      for (auto& [k, v] : it->second) keys[k] = v;
      class_sets.erase(it);
    }
    Config c = build_traffic_overlay(raw, keys, where);
    RawMap class_raw = raw;
    for (auto& [k, v] : keys) class_raw[k] = v;
    c.phases = build_phases(class_raw, class_phases, where + ".phase", origin);
    for (auto& other : cfg.classes)
      if (other.get_string("traffic.name") == c.get_string("traffic.name"))
        throw ConfigError(where + ".name",
                          fmt::format("\"{}\" is already the name of another class", c.get_string("traffic.name")));
    cfg.classes.push_back(std::move(c));
    ++i;
  }
  if (!class_sets.empty()) unknown_class(class_sets, names);
  return cfg;
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

namespace {

std::vector<ParamSpec> specs_of(const Config& cfg) {
  return applicable_params(cfg.get_string("topology.kind"), cfg.get_string("routing.algorithm"),
                           cfg.get_string("traffic.pattern"), cfg.get_string("congestion.protocol"));
}

// The traffic keys of a class or phase; with `parent`, only those that differ from it.
std::string traffic_table(const Config& cfg, const Config* parent) {
  std::string out;
  if (cfg.has("traffic.at")) out += fmt::format("at = {}\n", value_to_string(cfg.raw("traffic.at")));
  for (auto& s : specs_of(cfg)) {
    if (s.key.rfind("traffic.", 0) != 0) continue;
    if (parent && parent->has(s.key) && parent->raw(s.key) == cfg.raw(s.key)) continue;
    out += fmt::format("{} = {}\n", s.key.substr(8), value_to_string(cfg.raw(s.key)));
  }
  return out;
}

}  // namespace

std::string config_to_toml(const Config& cfg) {
  const std::vector<ParamSpec> specs = specs_of(cfg);
  std::string out;
  for (auto& section : sections_of(specs)) {
    out += fmt::format("[{}]\n", section);
    for (auto& s : specs) {
      if (s.key.rfind(section + ".", 0) != 0) continue;
      out += fmt::format("{} = {}  # {}\n", s.key.substr(section.size() + 1), value_to_string(cfg.raw(s.key)), s.doc);
    }
    out += "\n";
  }
  for (auto& ph : cfg.phases) out += "[[traffic.phase]]\n" + traffic_table(ph, &cfg) + "\n";
  for (auto& c : cfg.classes) {
    out += "[[traffic.class]]\n" + traffic_table(c, nullptr) + "\n";
    for (auto& ph : c.phases) out += "[[traffic.class.phase]]\n" + traffic_table(ph, &c) + "\n";
  }
  return out;
}

}  // namespace ccsim
