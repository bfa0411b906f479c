#include "routing/torus_routing.h"

#include <cassert>

namespace ccsim {

RouteResult TorusRouting::dor(int router, const Packet& p) const {
  const int dst = t_.node_router(p.dst);
  for (int d = 0; d < t_.n(); ++d) {
    const int x = t_.coord(router, d), xd = t_.coord(dst, d);
    if (x == xd) continue;
    int dir = t_.direction(x, xd);
    if (dir == 0) dir = x % 2 == 0 ? 1 : -1;
    const bool wrap_ahead = t_.wrap() && (dir > 0 ? x > xd : x < xd);
    return {t_.port(d, dir), t_.wrap() && !wrap_ahead ? 1 : 0};
  }
  assert(false && "dor() called at the destination's router");
  return {};
}

int TorusRouting::productive_ports(int router, const Packet& p, int* ports) const {
  const int dst = t_.node_router(p.dst);
  int count = 0;
  for (int d = 0; d < t_.n(); ++d) {
    const int x = t_.coord(router, d), xd = t_.coord(dst, d);
    if (x == xd) continue;
    const int dir = t_.direction(x, xd);
    if (dir >= 0) ports[count++] = t_.port(d, 1);
    if (dir <= 0) ports[count++] = t_.port(d, -1);
  }
  return count;
}

int TorusRouting::least_occupied_available(RouterContext& ctx, const Packet& p, int slot) const {
  int ports[kMaxProductivePorts];
  const int n = productive_ports(ctx.router_id(), p, ports);
  int best = -1, best_occupancy = 0, ties = 0;
  for (int i = 0; i < n; ++i) {
    if (!ctx.vc_available(ports[i], slot, p)) continue;
    const int occ = ctx.occupancy(ports[i]);
    if (best < 0 || occ < best_occupancy) {
      best = ports[i];
      best_occupancy = occ;
      ties = 1;
    } else if (occ == best_occupancy && ctx.rng().below(static_cast<uint32_t>(++ties)) == 0) {
      best = ports[i];
    }
  }
  return best;
}

}  // namespace ccsim
