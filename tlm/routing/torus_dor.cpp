// routing.algorithm = "dor" on the torus and the mesh: dimension-order routing,
// the shorter way round each ring, dateline VC slots on the torus
// (tlm/routing/torus_routing.h). Oblivious, and the escape layer of "duato".
#include "registry.h"
#include "routing/torus_routing.h"

namespace ccsim {
namespace {

class TorusDor : public TorusRouting {
 public:
  using TorusRouting::TorusRouting;
  int vc_slots() const override { return dor_slots(); }
  bool reads_only_its_router() const override { return true; }
  RouteResult route(RouterContext& ctx, int, Packet& p) override {
    const int r = ctx.router_id();
    if (at_destination(r, p)) return {eject_port(p), 0};
    ++p.hops;
    return dor(r, p);
  }
};

}  // namespace

static RoutingEntry dor_variant(const std::string& topology) {
  const bool torus = topology == "torus";
  return {"dor",
          topology,
          torus ? "dimension-order routing, shorter way round (k/2 ties split by coordinate parity), dateline "
                  "VCs; 2 VC slots"
                : "dimension-order routing; 1 VC slot",
          {},
          [](const Config&, const Topology& t) { return std::make_unique<TorusDor>(dynamic_cast<const Torus&>(t)); }};
}

RoutingEntry torus_dor_entry() { return dor_variant("torus"); }
RoutingEntry mesh_dor_entry() { return dor_variant("mesh"); }

}  // namespace ccsim
