#include "congestion/qcn.h"

#include <algorithm>
#include <cmath>

#include "congestion/protocol_context.h"
#include "registry.h"

namespace ccsim {

QcnParams QcnParams::from_config(const Config& c) {
  QcnParams p;
  p.output_sampling = c.get_string("congestion.qcn_sampling") == "output";
  p.q_eq = c.get_float("congestion.qcn_qeq");
  p.cp = QcnCpParams::from_config(c, "congestion");
  p.gd = c.get_float("congestion.qcn_gd");
  p.bc_limit = static_cast<int>(c.get_int("congestion.qcn_bc_limit"));
  p.fast_recovery = static_cast<int>(c.get_int("congestion.qcn_fast_recovery"));
  p.rai = c.get_float("congestion.qcn_rai");
  p.min_rate = c.get_float("congestion.qcn_min_rate");
  p.output_buffer = static_cast<int>(c.get_int("router.output_buffer"));
  return p;
}

void Qcn::attach(ProtocolContext& net) {
  CongestionControl::attach(net);
  rps_.assign(net.num_nodes(), {});
  cps_.clear();  // made on first use: the routers do not exist yet
}

void Qcn::make_congestion_points() {
  radix_ = 0;
  for (int r = 0; r < net_->num_routers(); ++r) radix_ = std::max(radix_, net_->switch_at(r).radix());
  cp_params_.assign(static_cast<size_t>(net_->num_routers()) * radix_, p_.cp);
  for (int r = 0; r < net_->num_routers(); ++r)
    for (int port = 0; port < net_->switch_at(r).radix(); ++port) {
      const int depth = p_.output_sampling ? p_.output_buffer : net_->switch_at(r).input_depth(port);
      cp_params_[static_cast<size_t>(r) * radix_ + port].q_eq = std::max(1, static_cast<int>(p_.q_eq * depth + 0.5));
    }
  for (auto& cp : cp_params_) cps_.emplace_back(&cp);  // cp_params_ no longer resizes
}

bool Qcn::may_inject(NicView& nic, Packet& p, Cycle now) {
  if (p.kind != kDataPacket) return true;
  const ReactionPoint& rp = rps_[nic.id()];
  if (!rp.limited || now >= rp.next_start) return true;
  ++gated_;
  return false;
}

void Qcn::on_inject(NicView& nic, Packet& p, Cycle now) {
  if (p.kind != kDataPacket) return;
  ReactionPoint& rp = rps_[nic.id()];
  if (!rp.limited) return;
  rp.next_start = now + static_cast<Cycle>(std::ceil(p.size / rp.cr));
  if (++rp.sent < p_.bc_limit) return;
  rp.sent = 0;
  if (++rp.cycles > p_.fast_recovery) rp.tr = std::min(1.0, rp.tr + p_.rai);
  rp.cr = (rp.cr + rp.tr) / 2;
  if (rp.cr >= 0.999) rp = ReactionPoint{};  // back to line rate: the limiter is released
}

void Qcn::on_switch_forward(SwitchView& r, Packet& p, int in_port, int, int out_port, Cycle now) {
  if (p.kind != kDataPacket) return;
  if (cps_.empty()) make_congestion_points();
  const int port = p_.output_sampling ? out_port : in_port;
  const int q = p_.output_sampling ? r.output_queue_flits(out_port) : r.input_queue_flits(in_port);
  const int fb = cps_[static_cast<size_t>(r.id()) * radix_ + port].on_packet(q, r.rng(), now);
  if (fb == 0) return;
  ++cnms_;
  NicView& via = net_->switch_nic(r.id());
  Packet* c = net_->new_control(kCnmPacket, via.id(), p.src, kCnmClass, p, now);
  c->cc_value = fb;
  via.send_control(c, now);
}

void Qcn::on_control(NicView& nic, Packet& c, Cycle) {
  if (c.kind != kCnmPacket) return;
  ++cnms_received_;
  ReactionPoint& rp = rps_[nic.id()];
  rp.tr = rp.cr;
  rp.cr = std::max(p_.min_rate, rp.cr * (1.0 - std::min(1.0, p_.gd * static_cast<double>(c.cc_value))));
  rp.sent = rp.cycles = 0;
  rp.limited = true;
}

nlohmann::json Qcn::stats() const {
  double sum = 0;
  int limited = 0;
  for (auto& rp : rps_) {
    sum += rp.cr;
    limited += rp.limited;
  }
  return {{"cnms", cnms_},
          {"cnms_received", cnms_received_},
          {"gated_injection_attempts", gated_},
          {"limited_nics", limited},
          {"mean_rate", rps_.empty() ? 1.0 : sum / static_cast<double>(rps_.size())}};
}

ProtocolEntry qcn_protocol_entry() {
  return ProtocolEntry{
      "qcn",
      "QCN (802.1Qau) as in 001 2.3: congestion points in switch queues send CNMs with a 6-bit feedback "
      "to the sampled packet's source, whose NIC rate limiter cuts its rate by 1 - G_d Fb and recovers every "
      "qcn_bc_limit packets",
      qcn_congestion_point_params(
          "congestion", "qcn",
          "buffers sampled: switch output queues (the "
          "standard) or input buffers, ejection queues included",
          {float_param("congestion.qcn_gd", 1.0 / 128, "qcn: rate decrease G_d per unit of Fb (standard 1/128)", 0, 1),
           int_param("congestion.qcn_bc_limit", 100, "qcn: packets sent per rate-increase cycle (001: 100 frames)", 1,
                     1 << 20),
           int_param("congestion.qcn_fast_recovery", 5, "qcn: fast-recovery cycles before active increase (standard 5)",
                     0, 1 << 20),
           float_param("congestion.qcn_rai", 0.000125,
                       "qcn: active increase of the target rate per rate-increase cycle "
                       "(qcn_bc_limit packets), fraction of line rate (standard 5 Mb/s of 40 Gb/s)",
                       0, 1),
           float_param("congestion.qcn_min_rate", 0.00025,
                       "qcn: lowest rate, fraction of line rate (standard 10 Mb/s "
                       "of 40 Gb/s)",
                       0, 1)}),
      [](const Config& c) { return std::make_unique<Qcn>(QcnParams::from_config(c)); }};
}

}  // namespace ccsim
