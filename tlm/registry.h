// Every selectable component, by its config name, with its parameters. Adding a
// topology, routing algorithm, traffic pattern or congestion-control protocol
// is a new file plus one line in registry.cpp.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "congestion/congestion_control.h"
#include "core/params.h"
#include "routing/routing.h"
#include "topology/topology.h"
#include "traffic/traffic_pattern.h"

namespace ccsim {

struct TopologyEntry {
  std::string name, doc;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Topology>(const Config&)> make;
};

struct RoutingEntry {
  std::string name, topology, doc;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<RoutingFunction>(const Config&, const Topology&)> make;
};

struct PatternEntry {
  std::string name, doc;
  std::vector<ParamSpec> params;  // keys of the traffic section, e.g. "traffic.offset"
  // `nodes`: the traffic class's node set (sorted); patterns that pick
  // destinations among a set (uniform, hotspot) use it.
  std::function<std::unique_ptr<TrafficPattern>(const Config&, const Topology&, uint64_t seed,
                                                const std::vector<int>& nodes)>
      make;
};

struct ProtocolEntry {
  std::string name, doc;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<CongestionControl>(const Config&)> make;
};

const std::vector<TopologyEntry>& topologies();
const std::vector<RoutingEntry>& routings();
const std::vector<PatternEntry>& patterns();
const std::vector<ProtocolEntry>& protocols();

// Core keys of [topology] [router] [links] [traffic] [congestion] [sim] that do
// not belong to a selectable component.
const std::vector<ParamSpec>& core_params();

const TopologyEntry& find_topology(const std::string& name);
const RoutingEntry& find_routing(const std::string& topology, const std::string& name);
const PatternEntry& find_pattern(const std::string& name);
const ProtocolEntry& find_protocol(const std::string& name);

// All keys that apply to a config with these selections.
std::vector<ParamSpec> applicable_params(const std::string& topology, const std::string& routing,
                                         const std::string& pattern, const std::string& protocol);

}  // namespace ccsim
