// router.va_arbiter = "round_robin": VC allocation with one round-robin arbiter per output
// port. Per class, highest priority first, the fronts waiting for an output VC are gathered,
// ordered by output port and, within a port, by their input's distance from the port's
// pointer, and offered a VC in that order; a grant moves the port's pointer past its input.
// "transit_priority" orders every injection input after the transit inputs (FOGSim's PrioLRS
// output arbiter): a switch's own nodes get only what transit traffic leaves of an output.
// With the rotating start of allocate_vcs(), one start for all outputs that moves every
// cycle, an input's share of a contended output depends on the inputs numbered before it,
// and on the cycle at which the output's credits come back: credits returning in step with
// the next router's own rotation hand every freed VC to the same input.
#include <algorithm>

#include "core/router.h"

namespace ccsim {

void Router::allocate_vcs_round_robin(Cycle now) {
  const uint64_t changed = changed_ports_;
  changed_ports_ = 0;
  for (int cls : class_order_) {
    va_requests_.clear();
    for (int p = 0; p < radix_; ++p) {
      InputPort& ip = in_[p];
      for (uint32_t m = ip.need_va & class_vcs(cls); m; m &= m - 1) {
        const int v = __builtin_ctz(m);
        InputVc& vc = ip.vcs[v];
        uint64_t blocked = 0;
        if (skip_blocked_) blocked = vc.blocked &= ~changed;
        if (!blocked) ip.need_va &= ~(1u << v);  // set again by a front that keeps waiting
        for (uint64_t qm = vc.nonempty & ~vc.has_vc & ~blocked; qm; qm &= qm - 1) {
          const int q = __builtin_ctzll(qm);
          InPacket& e = vc.queues[q].front();
          if (e.route == Route::Recovery) continue;
          if (e.ready > now) {  // not routed yet: it waits whatever the order
            if (front_waits(now, p, v, q)) ip.need_va |= 1u << v;
            continue;
          }
          route_front(p, e);
          const int o = e.out_port, ptr = out_[o].va_rr;
          int distance = p >= ptr ? p - ptr : p + radix_ - ptr;
          if (params_.va_transit_priority && out_[p].kind == PortKind::Terminal) distance += radix_;
          va_requests_.push_back({static_cast<uint32_t>(o << 24 | distance << 16 | v << 8 | q), static_cast<int16_t>(p),
                                  static_cast<uint8_t>(v), static_cast<uint8_t>(q)});
        }
      }
    }
    std::sort(va_requests_.begin(), va_requests_.end(),
              [](const VaRequest& a, const VaRequest& b) { return a.order < b.order; });
    for (const VaRequest& r : va_requests_) {
      InputPort& ip = in_[r.p];
      if (front_waits(now, r.p, r.v, r.q)) {
        ip.need_va |= 1u << r.v;
        continue;
      }
      if (ip.vcs[r.v].has_vc >> r.q & 1) {
        OutputPort& op = out_[r.order >> 24];
        op.va_rr = r.p + 1 == radix_ ? 0 : r.p + 1;
      }
    }
  }
}

}  // namespace ccsim
