#include "routing/dragonfly_in_transit.h"

#include <cassert>

#include <fmt/format.h>

namespace ccsim {

RouteResult DragonflyInTransit::route(RouterContext& ctx, int in_port, Packet& p) {
  if (reevaluate_) p.save_route();
  return decide(ctx, in_port, p);
}

RouteResult DragonflyInTransit::reroute(RouterContext& ctx, int in_port, Packet& p) {
  p.restore_route();
  return decide(ctx, in_port, p);
}

RouteResult DragonflyInTransit::decide(RouterContext& ctx, int in_port, Packet& p) {
  const int r = ctx.router_id();
  if (p.phase == kLeaveGroup) return leave_group(ctx, p);
  const int min_out = min_port(r, p);
  const PortKind min_kind = df_.port_kind(r, min_out);
  if (min_kind == PortKind::Terminal) return hop(r, min_out, p, false);
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
    return hop(r, min_out, p, false);
  }
  if (!misroute(ctx, p, min_out, stage)) return hop(r, min_out, p, false);
  const int first = kind == PortKind::Global ? df_.first_global_port() : df_.p();
  const int count = kind == PortKind::Global ? df_.h() : df_.a() - 1;
  const int chosen = random_port(ctx, first, count, min_out, in_port,
                                 [&](int o) { return free_now(ctx, o, p) && accepts(ctx, p, min_out, stage, o); });
  if (chosen < 0) return hop(r, min_out, p, false);
  if (stage == Stage::Injection) p.misrouted = df_.group_of(df_.peer(r, chosen).id) != df_.group_of_node(p.dst);
  if (stage == Stage::SourceTransit) p.phase = kLeaveGroup;
  return hop(r, chosen, p, true);
}

RouteResult DragonflyInTransit::leave_group(RouterContext& ctx, Packet& p) {
  const int r = ctx.router_id();
  const int first = df_.first_global_port();
  int port = random_port(ctx, first, df_.h(), -1, -1,
                         [&](int o) { return ctx.vc_available(o, slot_of_hop(r, o, p, false), p); });
  if (port < 0) port = first + static_cast<int>(ctx.rng().below(static_cast<uint32_t>(df_.h())));
  p.phase = 0;
  p.misrouted = df_.group_of(df_.peer(r, port).id) != df_.group_of_node(p.dst);
  return hop(r, port, p, false);
}

bool DragonflyInTransit::free_now(RouterContext& ctx, int port, const Packet& p) const {
  const int slot = slot_of_hop(ctx.router_id(), port, p, true);
  return ladder_ ? ctx.vc_free_now(port, slot, p) : ctx.vc_available(port, slot, p);
}

int DragonflyInTransit::ladder_position(const Packet& p, PortKind kind, bool misroute) {
  const int next = p.vc_rung;  // the first position above the last hop's
  if (kind == PortKind::Global) return next % 2 ? next : next + 1;
  if (misroute) return next == 0 ? 0 : (next - 1) / 2 * 2;  // the latest local rung at or below the last hop
  return next % 2 ? next + 1 : next;
}

RouteResult DragonflyInTransit::hop(int router, int port, Packet& p, bool misroute) const {
  const PortKind kind = df_.port_kind(router, port);
  if (!ladder_ || kind == PortKind::Terminal) return take(router, port, p);
  const int position = ladder_position(p, kind, misroute);
  assert(position <= 4 && "path longer than OLM's ladder");
  RouteResult r = take(router, port, p);
  r.slot = position / 2;
  r.opportunistic = misroute;
  p.vc_rung = static_cast<uint8_t>(position + 1);
  return r;
}

int DragonflyInTransit::slot_of_hop(int router, int port, const Packet& p, bool misroute) const {
  const PortKind kind = df_.port_kind(router, port);
  if (kind == PortKind::Terminal) return 0;
  if (ladder_) return ladder_position(p, kind, misroute) / 2;
  return kind == PortKind::Local ? base_[p.global_hops] + p.local_hops_in_group : p.global_hops;
}

bool DragonflyInTransit::minimal_blocked(RouterContext& ctx, const Packet& p, int min_out) const {
  return ctx.vc_room(min_out, slot_of_hop(ctx.router_id(), min_out, p, false), p) < p.size;
}

bool DragonflyInTransit::much_less_occupied(RouterContext& ctx, const Packet& p, int port, int min_out,
                                            int percent) const {
  const int r = ctx.router_id();
  const int depth = ctx.vc_depth(port), min_depth = ctx.vc_depth(min_out);
  const int occupied = depth - ctx.vc_room(port, slot_of_hop(r, port, p, true), p);
  const int min_occupied = min_depth - ctx.vc_room(min_out, slot_of_hop(r, min_out, p, false), p);
  // occupied/depth <= percent/100 * min_occupied/min_depth, in integers.
  return int64_t{100} * occupied * min_depth <= int64_t{percent} * min_occupied * depth;
}

void DragonflyInTransit::configure(const Config& c) {
  reevaluate_ = c.get_bool("routing.reevaluate");
  if (reevaluate_ && c.get_bool("router.voq"))
    throw ConfigError("routing.reevaluate", "needs router.voq = false (a new route would move the packet's queue)");
  ladder_ = c.get_string("routing.vc_scheme") == "opportunistic";
  if (!ladder_) return;
  // Its deadlock freedom needs a misroute's VC allocated in the step that chose it, whole packets.
  auto need = [](bool ok, const char* what) {
    if (!ok) throw ConfigError("routing.vc_scheme", fmt::format("\"opportunistic\" needs {}", what));
  };
  need(c.get_int("router.vcs") == 3, "router.vcs = 3 (OLM's ladder: 3 local VCs, 2 of them on global ports)");
  need(!c.get_bool("router.voq"), "router.voq = false (the route is chosen where the VC is allocated)");
  need(c.get_string("router.switching") == "vct", "router.switching = \"vct\" (a misroute takes whole packets)");
  need(c.get_string("router.va_arbiter") == "rotating",
       "router.va_arbiter = \"rotating\" (round robin allocates after routing every input)");
}

ParamSpec vc_scheme_param() {
  return string_param("routing.vc_scheme", "acyclic",
                      "olm, base, hybrid, ectn: VCs of in-transit misrouting: acyclic (l l g l l g l l on 6 local / 2 "
                      "global slots) or opportunistic (OLM's ladder on 3 VCs, 002 Table I; misroutes only to VCs free "
                      "now)",
                      {"acyclic", "opportunistic"});
}

ParamSpec reevaluate_param() {
  return bool_param("routing.reevaluate", false,
                    "olm, base, hybrid, ectn: a packet waiting at the head of its input queue for the VC it chose is "
                    "routed again in every cycle (002: decisions at the head of the queue; FOGSim), not once per "
                    "router");
}

}  // namespace ccsim
