// routing.algorithm = "min" on the dragonfly: minimal routing, at most
// local-global-local (papers 002 IV, 003 4).
#include "registry.h"
#include "routing/dragonfly_routing.h"

namespace ccsim {
namespace {

class DragonflyMin : public DragonflyRouting {
 public:
  DragonflyMin(const Dragonfly& df, bool vc_per_hop) : DragonflyRouting(df, {1, 1}), vc_per_hop_(vc_per_hop) {}
  bool honours_minimal_only() const override { return true; }
  bool reads_only_its_router() const override { return true; }
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    const int r = ctx.router_id();
    return take(r, min_port(r, p), p);
  }
  // routing.min_vc_per_hop: slot s is VC s alone (FOGSim's minimal routing: local VC 0, global VC 0,
  // local VC 1), the router's other VCs serving injection only; else every K-th VC from s.
  uint32_t slot_vcs(int slot, int vcs_per_class) const override {
    return vc_per_hop_ ? 1u << slot : DragonflyRouting::slot_vcs(slot, vcs_per_class);
  }

 private:
  bool vc_per_hop_;
};

}  // namespace

RoutingEntry dragonfly_min_entry() {
  return {"min",
          "dragonfly",
          "minimal routing (local, global, local); 2 VC slots",
          {bool_param("routing.min_vc_per_hop", false,
                      "min: one VC per hop (local VC 0, global VC 0, local VC 1, as FOGSim's minimal routing behind "
                      "001 and 002), the router's other VCs used at injection only; false: each hop may take every "
                      "2nd VC from its own")},
          [](const Config& c, const Topology& t) {
            return std::make_unique<DragonflyMin>(dynamic_cast<const Dragonfly&>(t),
                                                  c.get_bool("routing.min_vc_per_hop"));
          }};
}

}  // namespace ccsim
