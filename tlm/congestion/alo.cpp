#include "congestion/alo.h"

#include "congestion/protocol_context.h"
#include "core/params.h"
#include "registry.h"

namespace ccsim {

void Alo::attach(ProtocolContext& net) {
  CongestionControl::attach(net);
  const Topology& t = net.topology();
  neighbours_.resize(t.num_routers());
  state_.resize(t.num_routers());
  for (int r = 0; r < t.num_routers(); ++r)
    for (int o = 0; o < t.radix(r); ++o) {
      const PortPeer pp = t.peer(r, o);
      if (pp.id >= 0 && !pp.is_node) neighbours_[r].push_back({o, pp.id});
      if (neighbours_[r].size() > 32)
        throw ConfigError("congestion.protocol", "alo supports routers with at most 32 router-to-router ports");
    }
}

bool Alo::may_inject(NicView& nic, Packet& p, Cycle now) {
  const Topology& t = net_->topology();
  const int r = t.node_router(nic.id()), dr = t.node_router(p.dst);
  if (r == dr) return true;
  ++checks_;
  State& st = state_[r];
  if (st.at != now) {
    SwitchView& rt = net_->switch_at(r);
    const int vcs = net_->settings().vcs_per_class;  // the data class's
    st = {now, 0, 0};
    for (size_t i = 0; i < neighbours_[r].size(); ++i) {
      int free = 0;
      const int port = neighbours_[r][i].port;
      for (int v = 0; v < vcs; ++v)  // the data class
        free += drained_ ? rt.output_vc_free(port, v) : !rt.output_vc_held(port, v);
      if (free > 0) st.one_free |= 1u << i;
      if (free == vcs) st.all_free |= 1u << i;
    }
  }
  const int dist = t.min_hops(r, dr);
  uint32_t useful = 0;
  for (size_t i = 0; i < neighbours_[r].size(); ++i)
    if (t.min_hops(neighbours_[r][i].router, dr) == dist - 1) useful |= 1u << i;
  if ((useful & ~st.one_free) == 0 || (useful & st.all_free) != 0) return true;
  ++held_;
  return false;
}

nlohmann::json Alo::stats() const { return {{"checks", checks_}, {"held", held_}}; }

ProtocolEntry alo_protocol_entry() {
  return ProtocolEntry{
      "alo",
      "At-Least-One (Baydal et al., 004's comparison): a node injects only when every useful (minimal) "
      "output channel of its router has a free VC or some useful channel has all its VCs free",
      {string_param("congestion.alo_free_vc", "unheld",
                    "when a VC counts as free: unheld (ALO's \"not assigned to any message\": no packet holds it) "
                    "or drained (also its output queue and downstream buffer empty)",
                    {"unheld", "drained"})},
      [](const Config& c) { return std::make_unique<Alo>(c.get_string("congestion.alo_free_vc") == "drained"); }};
}

}  // namespace ccsim
