// routing.algorithm = "duato_bubble" on the torus: Duato's fully adaptive
// minimal routing with ONE escape VC, the split of ../shared/papers/004
// section 5.1 ("one escape virtual channel using oblivious dimension-order
// routing"): on 3 VCs, VC 0 is the escape and VCs 1 and 2 are adaptive
// ("duato" spends two dateline VCs on the escape and leaves one adaptive).
//
// One VC cannot cut a ring with a dateline, so each ring of escape channels
// (a dimension, a direction, a line of routers) is kept from filling up by
// admission, the idea of bubble flow control (Puente et al.) for wormhole
// packets: a packet enters a ring's escape VC (from injection, an adaptive VC,
// or the previous dimension's ring) only while the packets admitted to that
// ring need at most k - 1 of its k buffers, counting ceil(size / depth)
// buffers per packet. A packet inside a ring needs no admission to go on.
// The count is global per ring (as the critical-bubble and worm-bubble
// schemes keep it with local tokens); a packet's share is returned when its
// tail leaves the ring's last buffer it used.
//
// Why no deadlock: in a stuck state every packet's flits are packed behind its
// head, so the admitted packets fill at most k - 1 buffers of a ring and one
// is empty; the packet right behind it either moves into it or leaves the
// ring, for the next dimension's ring (which drains the same way, the last
// dimension into the ejection channels) or, once the dimension is done, for
// an adaptive VC. A packet that took a ring's escape VC stays on it until
// that dimension is done: leaving for an adaptive VC in the middle, it could
// need the same ring again while its tail still holds a share there.
// Adaptive packets can always ask for the escape, which never waits on them
// (Duato's condition). tests/test_deadlock_freedom.cpp checks the escape
// channel dependencies with each ring as one vertex; runs past saturation
// check the rest (tests/test_torus.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "registry.h"
#include "routing/torus_routing.h"

namespace ccsim {
namespace {

constexpr int kEscape = 0, kAdaptive = 1;

class TorusDuatoBubble : public TorusRouting {
 public:
  TorusDuatoBubble(const Torus& t, int buffer_depth, bool admission)
      : TorusRouting(t), depth_(buffer_depth), admission_(admission), share_(t.num_routers() * t.n() * 2, 0) {}
  int vc_slots() const override { return 2; }
  int escape_slots() const override { return 1; }
  uint32_t slot_vcs(int slot, int vcs_per_class) const override {
    const uint32_t all = vcs_per_class >= 32 ? ~0u : (1u << vcs_per_class) - 1;
    return slot == kEscape ? 1u : all & ~1u;
  }
  bool reroutes_when_blocked() const override { return true; }
  bool atomic_vc_allocation(int slot) const override { return slot == kAdaptive; }
  bool wants_queue_events() const override { return true; }
  bool wants_forward_events() const override { return true; }
  int escape_ring(int router, int port) const override { return port < t_.c() ? -1 : ring(router, port); }

  RouteResult route(RouterContext& ctx, int in_port, Packet& p) override {
    if (!at_destination(ctx.router_id(), p)) ++p.hops;
    return reroute(ctx, in_port, p);
  }

  RouteResult reroute(RouterContext& ctx, int, Packet& p) override {
    State& s = state_[p.id];
    withdraw(s);  // the last choice here was not allocated: choose again
    const int r = ctx.router_id();
    RouteResult choice;
    if (at_destination(r, p)) {
      choice = eject(ctx, p);
    } else {
      const int esc = dor(r, p).port;
      const int esc_ring = ring(r, esc);
      if (s.ring == esc_ring) {
        choice = {esc, kEscape};  // inside a ring until its dimension is done
      } else if (const int best = least_occupied_available(ctx, p, kAdaptive); best >= 0) {
        choice = {best, kAdaptive};
      } else if (admit(esc_ring, p)) {
        s.pending_ring = esc_ring;
        s.pending_need = need(p);
        choice = {esc, kEscape};
      } else {
        ++refused_;  // wait on an adaptive VC; choose again next cycle
        int ports[kMaxProductivePorts];
        productive_ports(r, p, ports);
        choice = {ports[0], kAdaptive};
      }
    }
    s.router = r;
    s.choice = choice;
    return choice;
  }

  // The head crossed the switch: the last choice was allocated.
  void on_forward(RouterContext& ctx, const Packet& p, int in_port, int out_port) override {
    State& s = state_[p.id];
    const int r = ctx.router_id();
    const bool on_escape = s.router == r && s.choice.port == out_port && s.choice.slot == kEscape;
    const int next_ring = on_escape && out_port >= t_.c() ? ring(r, out_port) : -1;
    if (s.ring >= 0 && next_ring != s.ring) {  // leaves its ring: the share returns with the tail
      s.exits.push_back({r, in_port, s.ring, s.need});
      s.ring = -1;
    }
    if (s.pending_ring >= 0) {
      if (next_ring == s.pending_ring) {
        s.ring = s.pending_ring;
        s.need = s.pending_need;
        s.pending_ring = -1;
      } else {
        withdraw(s);
      }
    }
    if (out_port < t_.c() && s.exits.empty()) state_.erase(p.id);  // ejected, nothing held
  }

  void on_tail_left(RouterContext& ctx, int in_port, const Packet& p) override {
    auto it = state_.find(p.id);
    if (it == state_.end()) return;
    State& s = it->second;
    const int r = ctx.router_id();
    for (size_t i = 0; i < s.exits.size(); ++i)
      if (s.exits[i].router == r && s.exits[i].in_port == in_port) {
        share_[s.exits[i].ring] -= s.exits[i].need;
        s.exits.erase(s.exits.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    if (s.exits.empty() && s.ring < 0 && s.pending_ring < 0 && s.choice.port >= 0 && s.choice.port < t_.c())
      state_.erase(it);
  }

  // Admissions refused, a ring's buffers, and the most any ring's admitted packets could fill (at most k - 1).
  nlohmann::json stats() const override {
    return {{"escape_refusals", refused_}, {"escape_ring_buffers", t_.k()}, {"escape_share_max", max_share_}};
  }

 private:
  struct Exit {
    int router, in_port, ring, need;
  };
  struct State {
    int ring = -1, need = 0;                  // the ring whose escape VC the packet is on, its share
    int pending_ring = -1, pending_need = 0;  // admitted by the last choice, not yet allocated
    int router = -1;
    RouteResult choice{-1, 0};  // the last choice, at `router`
    std::vector<Exit> exits;    // rings left, whose share returns when the tail leaves that input
  };

  int ring(int router, int port) const {
    const int d = (port - t_.c()) / 2, dir = (port - t_.c()) % 2;
    const int line = router - t_.coord(router, d) * t_.stride(d);
    return (line * t_.n() + d) * 2 + dir;
  }
  int need(const Packet& p) const { return (p.size + depth_ - 1) / depth_; }
  bool admit(int ring, const Packet& p) {
    if (admission_ && share_[ring] + need(p) > t_.k() - 1) return false;
    share_[ring] += need(p);
    max_share_ = std::max(max_share_, share_[ring]);
    return true;
  }
  void withdraw(State& s) {
    if (s.pending_ring < 0) return;
    share_[s.pending_ring] -= s.pending_need;
    s.pending_ring = -1;
  }
  // Ejection cannot close a cycle: any VC with room will do, adaptive first.
  RouteResult eject(RouterContext& ctx, const Packet& p) const {
    const int port = eject_port(p);
    if (ctx.vc_available(port, kAdaptive, p)) return {port, kAdaptive};
    if (ctx.vc_available(port, kEscape, p)) return {port, kEscape};
    return {port, kAdaptive};
  }

  int depth_;
  bool admission_;
  std::vector<int> share_;  // per ring: buffers the admitted packets may fill
  std::unordered_map<uint64_t, State> state_;
  int64_t refused_ = 0;
  int max_share_ = 0;
};

}  // namespace

RoutingEntry torus_duato_bubble_entry() {
  return {"duato_bubble",
          "torus",
          "Duato with one escape VC (004's split: VC 0 escape DOR, VCs 1 and up adaptive; needs 2 VCs): each ring's "
          "escape VC admits packets only while one of its buffers stays free; re-routes blocked packets (not with "
          "router.voq)",
          {bool_param("routing.escape_admission", true,
                      "duato_bubble: admit packets to an escape ring only while one buffer stays free; false shows "
                      "what the rule prevents (the escape rings deadlock)")},
          [](const Config& c, const Topology& t) {
            const auto& torus = dynamic_cast<const Torus&>(t);
            if (!torus.wrap())
              throw ConfigError("routing.algorithm",
                                "duato_bubble is for the torus; a mesh needs no bubble: use duato");
            const int64_t local = c.get_int("router.local_buffer_depth");
            const int depth = static_cast<int>(local > 0 ? local : c.get_int("router.buffer_depth"));
            const int64_t size = c.get_int("traffic.packet_size");
            if ((size + depth - 1) / depth > torus.k() - 1)
              throw ConfigError(
                  "traffic.packet_size",
                  fmt::format("duato_bubble: a packet must fit in k - 1 = {} escape buffers of {} flits, got {} flits",
                              torus.k() - 1, depth, size));
            return std::make_unique<TorusDuatoBubble>(torus, depth, c.get_bool("routing.escape_admission"));
          }};
}

}  // namespace ccsim
