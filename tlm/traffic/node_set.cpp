#include "traffic/node_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/params.h"
#include "core/rng.h"

namespace ccsim {

namespace {

const char* kSyntax = "expected all, rest, random:N, range:A-B, router_index:A[-B] or list:A,B,...";
const char* kRouterSyntax = "expected range:A-B or list:A,B,...";

int parse_int(const std::string& key, const std::string& spec, const std::string& text, const char* syntax = kSyntax) {
  size_t pos = 0;
  int v = -1;
  try {
    v = std::stoi(text, &pos);
  } catch (...) {
    pos = 0;
  }
  if (pos == 0 || pos != text.size() || v < 0)
    throw ConfigError(key, fmt::format("bad number \"{}\" in \"{}\"; {}", text, spec, syntax));
  return v;
}

// "A" or "A-B" -> [A, B]
std::pair<int, int> parse_range(const std::string& key, const std::string& spec, const std::string& text,
                                const char* syntax = kSyntax) {
  const auto dash = text.find('-');
  const int a = parse_int(key, spec, text.substr(0, dash), syntax);
  const int b = dash == std::string::npos ? a : parse_int(key, spec, text.substr(dash + 1), syntax);
  if (b < a) throw ConfigError(key, fmt::format("empty range in \"{}\"", spec));
  return {a, b};
}

}  // namespace

std::vector<int> select_nodes(const std::string& key, const std::string& spec, const Topology& topo, uint64_t seed) {
  const int n = topo.num_nodes();
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : spec.substr(colon + 1);
  std::vector<int> out;
  if (kind == "all" && arg.empty()) {
    out.resize(n);
    std::iota(out.begin(), out.end(), 0);
  } else if (kind == "random" && !arg.empty()) {
    const int count = parse_int(key, spec, arg);
    if (count < 1 || count > n)
      throw ConfigError(key, fmt::format("random:N needs 1 <= N <= {} nodes, got {}", n, count));
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    Rng rng(seed);
    for (int i = 0; i < count; ++i) std::swap(order[i], order[i + rng.below(static_cast<uint32_t>(n - i))]);
    out.assign(order.begin(), order.begin() + count);
  } else if (kind == "range" && !arg.empty()) {
    auto [a, b] = parse_range(key, spec, arg);
    if (b >= n) throw ConfigError(key, fmt::format("range {}-{} exceeds the {} nodes", a, b, n));
    for (int i = a; i <= b; ++i) out.push_back(i);
  } else if (kind == "router_index" && !arg.empty()) {
    auto [a, b] = parse_range(key, spec, arg);
    std::vector<int> seen(topo.num_routers(), 0);  // nodes of each router met so far
    for (int i = 0; i < n; ++i) {
      const int index = seen[topo.node_router(i)]++;
      if (index >= a && index <= b) out.push_back(i);
    }
    if (out.empty()) throw ConfigError(key, fmt::format("\"{}\" selects no node", spec));
  } else if (kind == "list" && !arg.empty()) {
    size_t start = 0;
    for (;;) {
      const size_t comma = arg.find(',', start);
      const int v = parse_int(key, spec, arg.substr(start, comma - start));
      if (v >= n) throw ConfigError(key, fmt::format("node {} does not exist (the network has {})", v, n));
      out.push_back(v);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else {
    throw ConfigError(key, fmt::format("unknown node selection \"{}\"; {}", spec, kSyntax));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> select_routers(const std::string& key, const std::string& spec, const Topology& topo) {
  const int n = topo.num_routers();
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : spec.substr(colon + 1);
  std::vector<int> out;
  if (kind == "range" && !arg.empty()) {
    auto [a, b] = parse_range(key, spec, arg, kRouterSyntax);
    for (int i = a; i <= b; ++i) out.push_back(i);
  } else if (kind == "list" && !arg.empty()) {
    for (size_t start = 0;;) {
      const size_t comma = arg.find(',', start);
      out.push_back(parse_int(key, spec, arg.substr(start, comma - start), kRouterSyntax));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else {
    throw ConfigError(key, fmt::format("unknown router selection \"{}\"; {}", spec, kRouterSyntax));
  }
  for (int r : out)
    if (r >= n) throw ConfigError(key, fmt::format("router {} does not exist (the network has {})", r, n));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::vector<int>> select_class_nodes(const std::vector<std::string>& keys,
                                                 const std::vector<std::string>& specs, const Topology& topo,
                                                 uint64_t seed) {
  const int n = topo.num_nodes();
  std::vector<std::vector<int>> nodes(specs.size());
  std::vector<bool> taken(n, false);
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i] == "rest") continue;
    nodes[i] = select_nodes(keys[i], specs[i], topo, Rng::derive(seed, 300, i));
    for (int v : nodes[i]) taken[v] = true;
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i] != "rest") continue;
    for (int v = 0; v < n; ++v)
      if (!taken[v]) nodes[i].push_back(v);
    if (nodes[i].empty()) throw ConfigError(keys[i], "\"rest\" is empty: the other classes take every node");
  }
  return nodes;
}

}  // namespace ccsim
