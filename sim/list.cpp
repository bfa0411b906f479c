// ccsim list: every component with its parameters, read from the declarations.
#include <fmt/format.h>

#include "commands.h"
#include "registry.h"

namespace ccsim {

namespace {

void print_params(std::ostream& out, const std::vector<ParamSpec>& ps, const char* indent) {
  for (auto& p : ps) {
    std::string extra;
    if (!p.choices.empty()) {
      for (auto& c : p.choices) extra += (extra.empty() ? " {" : "|") + c;
      extra += "}";
    }
    if (p.min || p.max)
      extra += fmt::format(" [{}..{}]", p.min ? fmt::format("{}", *p.min) : "", p.max ? fmt::format("{}", *p.max) : "");
    out << fmt::format("{}{:<28} {:<6} = {:<12} {}{}\n", indent, p.key, to_string(p.type), value_to_string(p.default_value),
                       p.doc, extra);
  }
}

}  // namespace

int command_list(std::ostream& out) {
  out << "Core parameters ([topology] [router] [links] [routing] [traffic] [congestion] [sim]):\n";
  print_params(out, core_params(), "  ");
  out << "\nTopologies (topology.kind):\n";
  for (auto& e : topologies()) {
    out << fmt::format("  {:<14} {}\n", e.name, e.doc);
    print_params(out, e.params, "      ");
  }
  out << "\nRouting algorithms (routing.algorithm), per topology:\n";
  for (auto& e : routings()) {
    out << fmt::format("  {:<14} [{}] {}\n", e.name, e.topology, e.doc);
    print_params(out, e.params, "      ");
  }
  out << "\nCongestion-control protocols (congestion.protocol):\n";
  for (auto& e : protocols()) {
    out << fmt::format("  {:<14} {}\n", e.name, e.doc);
    print_params(out, e.params, "      ");
  }
  out << "\nTraffic patterns (traffic.pattern):\n";
  for (auto& e : patterns()) {
    out << fmt::format("  {:<14} {}\n", e.name, e.doc);
    print_params(out, e.params, "      ");
  }
  return 0;
}

}  // namespace ccsim
