// The setup of a class that runs a motif (traffic.motif) or a trace
// (traffic.trace): the ranks' nodes in the order traffic.rank_order asks for,
// and their programs.
#pragma once
#include <string>
#include <vector>

#include "core/params.h"
#include "topology/topology.h"
#include "traffic/motif_engine.h"

namespace ccsim {

// `where`: the class's config path for errors ("traffic" or "traffic.class[2]").
// A motif starts at the end of warm-up, or at traffic.start if that is later.
MotifEngine::ClassSetup motif_class_setup(const Config& c, int traffic_class, std::vector<int> nodes,
                                          const Topology& topo, uint64_t seed, Cycle warmup, const std::string& where);

}  // namespace ccsim
