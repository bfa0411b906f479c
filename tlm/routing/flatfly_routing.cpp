#include "routing/flatfly_routing.h"

namespace ccsim {

int FlatflyRouting::valiant_intermediate(RouterContext& ctx, int router, const Packet& p) const {
  const int dr = dst_router(p);
  if (dr == router || p.minimal_only) return -1;
  const int i = static_cast<int>(ctx.rng().below(static_cast<uint32_t>(fb_.num_routers())));
  return i == router || i == dr ? -1 : i;
}

void FlatflyRouting::start_path(Packet& p, int intermediate) const {
  p.decided = true;
  p.intermediate = intermediate;
  p.misrouted = intermediate >= 0;
  p.phase = intermediate >= 0 ? 0 : 1;
}

RouteResult FlatflyRouting::follow(RouterContext& ctx, Packet& p) const {
  const int r = ctx.router_id();
  if (p.phase == 0 && r == p.intermediate) p.phase = 1;
  return take(r, port_towards(r, p.phase == 0 ? p.intermediate : dst_router(p), p), p);
}

RouteResult FlatflyRouting::take(int router, int port, Packet& p) const {
  if (fb_.port_kind(router, port) != PortKind::Terminal) ++p.hops;
  return {port, p.phase};
}

}  // namespace ccsim
