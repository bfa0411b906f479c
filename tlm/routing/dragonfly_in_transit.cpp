#include "routing/dragonfly_in_transit.h"

namespace ccsim {

RouteResult DragonflyInTransit::route(RouterContext& ctx, int in_port, Packet& p) {
  const int r = ctx.router_id();
  if (p.phase == kLeaveGroup) return leave_group(ctx, p);
  const int min_out = min_port(r, p);
  const PortKind min_kind = df_.port_kind(r, min_out);
  if (min_kind == PortKind::Terminal) return take(r, min_out, p);
  const bool in_source_group = p.global_hops == 0 && df_.group_of(r) != df_.group_of_node(p.dst);
  Stage stage;
  PortKind kind;  // of the ports the packet may misroute to
  if (in_source_group && p.local_hops_in_group == 0) {
    stage = Stage::Injection;
    kind = PortKind::Global;
  } else if (in_source_group && p.local_hops_in_group == 1) {
    stage = Stage::SourceTransit;
    kind = PortKind::Local;
  } else if (!in_source_group && p.local_hops_in_group == 0 && min_kind == PortKind::Local) {
    stage = Stage::GroupEntry;
    kind = PortKind::Local;
  } else {
    return take(r, min_out, p);
  }
  if (!misroute(ctx, p, min_out, stage)) return take(r, min_out, p);
  const int first = kind == PortKind::Global ? df_.first_global_port() : df_.p();
  const int count = kind == PortKind::Global ? df_.h() : df_.a() - 1;
  const int chosen = random_port(ctx, first, count, min_out, in_port, [&](int o) {
    return ctx.vc_available(o, slot_of_hop(r, o, p), p) && accepts(ctx, p, min_out, stage, o);
  });
  if (chosen < 0) return take(r, min_out, p);
  if (stage == Stage::Injection) p.misrouted = df_.group_of(df_.peer(r, chosen).id) != df_.group_of_node(p.dst);
  if (stage == Stage::SourceTransit) p.phase = kLeaveGroup;
  return take(r, chosen, p);
}

RouteResult DragonflyInTransit::leave_group(RouterContext& ctx, Packet& p) {
  const int r = ctx.router_id();
  const int first = df_.first_global_port();
  int port = random_port(ctx, first, df_.h(), -1, -1, [&](int o) { return ctx.vc_available(o, p.global_hops, p); });
  if (port < 0) port = first + static_cast<int>(ctx.rng().below(static_cast<uint32_t>(df_.h())));
  p.phase = 0;
  p.misrouted = df_.group_of(df_.peer(r, port).id) != df_.group_of_node(p.dst);
  return take(r, port, p);
}

int DragonflyInTransit::slot_of_hop(int router, int port, const Packet& p) const {
  switch (df_.port_kind(router, port)) {
    case PortKind::Local:
      return base_[p.global_hops] + p.local_hops_in_group;
    case PortKind::Global:
      return p.global_hops;
    default:
      return 0;
  }
}

bool DragonflyInTransit::minimal_blocked(RouterContext& ctx, const Packet& p, int min_out) const {
  return ctx.vc_room(min_out, slot_of_hop(ctx.router_id(), min_out, p), p) < p.size;
}

bool DragonflyInTransit::much_less_occupied(RouterContext& ctx, const Packet& p, int port, int min_out,
                                            int percent) const {
  const int r = ctx.router_id();
  const int depth = ctx.vc_depth(port), min_depth = ctx.vc_depth(min_out);
  const int occupied = depth - ctx.vc_room(port, slot_of_hop(r, port, p), p);
  const int min_occupied = min_depth - ctx.vc_room(min_out, slot_of_hop(r, min_out, p), p);
  // occupied/depth <= percent/100 * min_occupied/min_depth, in integers.
  return int64_t{100} * occupied * min_depth <= int64_t{percent} * min_occupied * depth;
}

}  // namespace ccsim
