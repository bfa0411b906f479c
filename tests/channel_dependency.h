// Channel dependency graphs (Dally & Seitz) of a routing function on a small
// topology. Paths are explored hop by hop with random queue occupancies, so
// every adaptive choice is taken many times.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "routing/routing.h"
#include "topology/topology.h"

namespace ccsim::test {

// A router context whose queues and free VCs are random: adaptive algorithms
// take every branch.
class RandomContext : public RouterContext {
 public:
  explicit RandomContext(uint64_t seed) : rng_(seed) {}
  int router_id() const override { return router; }
  int occupancy(int) override { return static_cast<int>(rng_.below(200)); }
  int remote_occupancy(int, int) override { return static_cast<int>(rng_.below(200)); }
  bool vc_available(int, int, const Packet&) override { return rng_.below(2) == 0; }
  // Random too; the (router, port, slot) answered free are kept for the route being taken.
  bool vc_free_now(int port, int slot, const Packet&) override {
    const bool free = rng_.below(2) == 0;
    if (free) free_now.insert({router, port, slot});
    return free;
  }
  std::set<std::tuple<int, int, int>> free_now;
  int vc_room(int, int, const Packet&) override { return rng_.below(2) == 0 ? 0 : static_cast<int>(rng_.below(65)); }
  int vc_depth(int) override { return 64; }
  double vc_credit_occupancy(int, int, const Packet&) override { return static_cast<double>(rng_.below(101)) / 100; }
  int input_queue_flits(int) const override { return 0; }  // QCN sampling only, not routing
  int output_queue_flits(int) const override { return 0; }
  int input_packets(int) const override { return 0; }
  const Packet& input_packet(int, int) const override { throw std::logic_error("no queued packets"); }
  const Packet* output_head(int) const override { return nullptr; }
  Rng& rng() override { return rng_; }
  Cycle cycle() const override { return now; }
  int router = 0;
  Cycle now = 0;

 private:
  Rng rng_;
};

// Vertex: (router, output port, VC); VCs of one slot are interchangeable, so
// each hop depends on every VC of the next hop's slot.
using Vertex = std::tuple<int, int, int>;

// Which VC slots a dependency graph covers.
using SlotFilter = std::function<bool(int slot)>;

// Iterative DFS; every vertex is a key of g.
inline bool has_cycle(const std::map<Vertex, std::set<Vertex>>& g) {
  std::map<Vertex, int> state;  // 0 new, 1 on the stack, 2 done
  for (auto& entry : g) {
    if (state[entry.first]) continue;
    std::vector<std::pair<Vertex, std::set<Vertex>::const_iterator>> stack{{entry.first, entry.second.begin()}};
    state[entry.first] = 1;
    while (!stack.empty()) {
      auto& [v, it] = stack.back();
      if (it == g.at(v).end()) {
        state[v] = 2;
        stack.pop_back();
        continue;
      }
      const Vertex w = *it++;
      if (state[w] == 1) return true;
      if (state[w] == 0) {
        state[w] = 1;
        stack.push_back({w, g.at(w).begin()});
      }
    }
  }
  return false;
}

// Every route of every node pair, `trials` times. With a slot filter (Duato's
// escape VCs), hops on other slots are left out and the hops around them are
// joined: a packet that leaves the filtered VCs and comes back depends on the
// channel it comes back to (indirect dependency). With `waits_only`, the graph
// of waits: no edge into an opportunistic hop (RouteResult), which no packet
// waits for; each such hop must have been free now when chosen.
inline std::map<Vertex, std::set<Vertex>> dependency_graph(RoutingFunction& rf, const Topology& df, int vcs, int trials,
                                                           const SlotFilter& counted = nullptr,
                                                           bool waits_only = false) {
  std::map<Vertex, std::set<Vertex>> g;
  RandomContext ctx(7);
  // Algorithms that follow the input queues see the explored packets arrive
  // and, some routes later, leave, so their per-router state (contention
  // counters) varies and they take every branch too.
  struct Held {
    int router, in_port;
    Packet p;
  };
  std::vector<Held> held;
  constexpr size_t kHeld = 24;
  uint64_t packets = 0;
  for (int src = 0; src < df.num_nodes(); ++src) {
    for (int dst = 0; dst < df.num_nodes(); ++dst) {
      if (src == dst) continue;
      for (int t = 0; t < trials; ++t) {
        Packet p;
        p.id = ++packets;  // algorithms may keep state per packet
        p.src = src;
        p.dst = dst;
        int router = df.node_router(src), in_port = df.node_port(src);
        std::vector<Vertex> prev;
        for (int hop = 0;; ++hop) {
          if (hop >= 4 * df.diameter() + 8) throw std::runtime_error("routing loop");
          ctx.router = router;
          if (rf.wants_queue_events()) {
            ++ctx.now;
            rf.on_head_at_front(ctx, in_port, p);
            held.push_back({router, in_port, p});
          }
          ++ctx.now;
          ctx.free_now.clear();
          RouteResult r = rf.route(ctx, in_port, p);
          if (r.opportunistic) {
            EXPECT_TRUE(ctx.free_now.count({router, r.port, r.slot})) << "taken while not free";
          }
          if (held.size() > kHeld) {
            const size_t i = ctx.rng().below(static_cast<uint32_t>(held.size()));
            ctx.router = held[i].router;
            rf.on_tail_left(ctx, held[i].in_port, held[i].p);
            held.erase(held.begin() + static_cast<std::ptrdiff_t>(i));
          }
          // The router allocates the choice and the head crosses the switch.
          if (rf.wants_forward_events()) rf.on_forward(ctx, p, in_port, r.port);
          PortPeer pp = df.peer(router, r.port);
          if (pp.id < 0) throw std::runtime_error("routed to an unconnected port");
          if (!counted || counted(r.slot)) {
            std::vector<Vertex> cur;
            for (uint32_t m = rf.slot_vcs(r.slot, vcs); m; m &= m - 1)
              cur.emplace_back(router, r.port, __builtin_ctz(m));
            EXPECT_FALSE(cur.empty());
            if (!(waits_only && r.opportunistic))
              for (auto& a : prev)
                for (auto& b : cur) g[a].insert(b);
            for (auto& b : cur) g[b];
            prev = cur;
          }
          if (pp.is_node) {
            EXPECT_EQ(pp.id, dst);
            break;
          }
          router = pp.id;
          in_port = pp.port;
        }
      }
    }
  }
  return g;
}

}  // namespace ccsim::test

namespace ccsim::test {

// The graph with every escape ring (RoutingFunction::escape_ring) taken as one
// vertex and the dependencies within a ring left out: what must be acyclic
// when admission keeps each ring from filling up.
inline std::map<Vertex, std::set<Vertex>> contract_rings(const std::map<Vertex, std::set<Vertex>>& g,
                                                         const RoutingFunction& rf) {
  auto vertex = [&](const Vertex& v) {
    const int ring = rf.escape_ring(std::get<0>(v), std::get<1>(v));
    return ring < 0 ? v : Vertex(-1, ring, 0);
  };
  std::map<Vertex, std::set<Vertex>> out;
  for (auto& [a, succ] : g) {
    const Vertex ca = vertex(a);
    out[ca];
    for (auto& b : succ)
      if (vertex(b) != ca) out[ca].insert(vertex(b));
  }
  for (auto& [a, succ] : g)
    for (auto& b : succ) out[vertex(b)];
  return out;
}

}  // namespace ccsim::test
