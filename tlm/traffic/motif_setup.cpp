#include "traffic/motif_setup.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/rng.h"
#include "traffic/trace_program.h"

namespace ccsim {

namespace {

std::vector<int> parse_grid(const std::string& text, const std::string& where) {
  std::vector<int> grid;
  if (text.empty()) return grid;
  size_t start = 0;
  for (;;) {
    const size_t x = text.find('x', start);
    const std::string part = text.substr(start, x - start);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || std::stoll(part) < 1 ||
        std::stoll(part) > 1 << 20)
      throw ConfigError(where + ".grid", fmt::format("expects sizes like \"4x4x2\", got \"{}\"", text));
    grid.push_back(std::stoi(part));
    if (x == std::string::npos) return grid;
    start = x + 1;
  }
}

// router: consecutive ranks on different routers (round robin over the routers of the set).
std::vector<int> by_router(const std::vector<int>& nodes, const Topology& topo) {
  std::map<int, std::vector<int>> at;
  for (int n : nodes) at[topo.node_router(n)].push_back(n);
  std::vector<int> out;
  for (size_t k = 0; out.size() < nodes.size(); ++k)
    for (auto& [router, ns] : at)
      if (k < ns.size()) out.push_back(ns[k]);
  return out;
}

}  // namespace

MotifEngine::ClassSetup motif_class_setup(const Config& c, int traffic_class, std::vector<int> nodes,
                                          const Topology& topo, uint64_t seed, Cycle warmup, const std::string& where) {
  MotifEngine::ClassSetup s;
  s.traffic_class = traffic_class;
  const std::string order = c.get_string("traffic.rank_order");
  if (order == "random") {
    Rng rng(Rng::derive(seed, 700, static_cast<uint64_t>(traffic_class)));
    for (size_t i = nodes.size(); i > 1; --i) std::swap(nodes[i - 1], nodes[rng.below(static_cast<uint32_t>(i))]);
  } else if (order == "router") {
    nodes = by_router(nodes, topo);
  }
  const std::string motif = c.get_string("traffic.motif"), trace = c.get_string("traffic.trace");
  if (!motif.empty() && !trace.empty())
    throw ConfigError(where + ".trace", "a class runs a motif or a trace, not both (traffic.motif is set too)");
  if (nodes.size() < 2)
    throw ConfigError(where + ".nodes", fmt::format("a motif or trace needs 2 or more nodes, got {}", nodes.size()));
  if (!trace.empty()) {
    TraceProgram t = read_trace(trace, static_cast<int>(c.get_int("traffic.flit_bytes")), c.get_float("sim.clock_ghz"));
    if (t.ranks.size() > nodes.size())
      throw ConfigError(where + ".nodes",
                        fmt::format("the trace has {} ranks, the class {} nodes", t.ranks.size(), nodes.size()));
    nodes.resize(t.ranks.size());
    s.programs = std::move(t.ranks);
    s.iterations = t.iterations;
    s.describe = {{"trace", trace}};
  } else {
    MotifParams p;
    p.name = motif;
    p.ranks = static_cast<int>(nodes.size());
    p.iterations = static_cast<int>(c.get_int("traffic.iterations"));
    p.compute = c.get_int("traffic.compute");
    p.kslices = static_cast<int>(c.get_int("traffic.kslices"));
    p.grid = parse_grid(c.get_string("traffic.grid"), where);
    s.programs = compile(motif_steps(p));
    s.iterations = p.iterations;
    s.describe = {{"name", motif}, {"grid", p.grid}};
  }
  s.nodes = std::move(nodes);
  s.start = std::max<Cycle>(warmup, c.get_int("traffic.start"));
  s.packets = static_cast<int>(c.get_int("traffic.message_size"));
  s.packet_size = static_cast<int>(c.get_int("traffic.packet_size"));
  return s;
}

}  // namespace ccsim
