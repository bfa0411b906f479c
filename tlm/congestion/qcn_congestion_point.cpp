#include "congestion/qcn_congestion_point.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace ccsim {

QcnCpParams QcnCpParams::from_config(const Config& c, const std::string& section) {
  QcnCpParams p;
  p.w = static_cast<int>(c.get_int(section + ".qcn_w"));
  p.cpc = static_cast<int>(c.get_int(section + ".qcn_cpc"));
  p.cnm_percent = static_cast<int>(c.get_int(section + ".qcn_cnm_percent"));
  if (c.get_string(section + ".qcn_cpc_unit") == "packets_and_time")
    p.packet_cycles = static_cast<int>(c.get_int("traffic.packet_size"));
  return p;
}

std::vector<ParamSpec> qcn_congestion_point_params(const std::string& section, const std::string& owner,
                                                   const std::string& sampling_doc, std::vector<ParamSpec> more) {
  const std::string k = section + ".qcn_", o = owner + ": ";
  std::vector<ParamSpec> v{
      string_param(k + "sampling", "output", o + sampling_doc, {"output", "input"}),
      float_param(k + "qeq", 0.2,
                  o + "Q_eq as a share of one VC's sampled buffer (router.output_buffer or the "
                      "port's input depth) (001: 20%)",
                  0.0, 1.0),
      int_param(k + "w", 0, o + "weight w of Q_delta in Fb (001: 0; standard QCN: 2)", 0, 64),
      int_param(k + "cpc", 100, o + "congestion point cycle CPC, packets per sample (001: 100)", 1, 1 << 20),
      string_param(k + "cpc_unit", "packets_and_time",
                   o + "what CPC counts: packets through the buffer (001 "
                       "2.3's text) or packets and packet times (traffic.packet_size cycles), so a buffer is "
                       "sampled at least every CPC packet times (FOGSim, which made 001's curves; spec A.14-4; with "
                       "packets alone QCN-Switch's UN->ADV response is several times slower)",
                   {"packets", "packets_and_time"}),
      int_param(k + "cnm_percent", 30, o + "%CNMs, congested samples that send a CNM (001: 30; standard QCN: 10)", 0,
                100)};
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

int QcnCongestionPoint::quantize(int q, int q_old, int q_eq, int w) {
  const int64_t f = int64_t{q - q_eq} + int64_t{w} * (q - q_old);  // -Fb
  if (f <= 0 || q_eq <= 0) return 0;
  const int64_t fmax = int64_t{q_eq} * (2 * w + 1);  // saturates at 2 Q_eq when w = 0
  return static_cast<int>(63 * std::min(f, fmax) / fmax);
}

int QcnCongestionPoint::on_packet(int q, Rng& rng, Cycle now) {
  if (p_->packet_cycles > 0 && now > counted_) {
    const Cycle times = (now - counted_) / p_->packet_cycles;
    countdown_ -= static_cast<int>(std::min<Cycle>(times, p_->cpc));
    counted_ += times * p_->packet_cycles;
  }
  if (--countdown_ > 0) return 0;
  countdown_ = p_->cpc;
  ++samples_;
  const int fb = quantize(q, q_old_, p_->q_eq, p_->w);
  if (fb == 0 || static_cast<int>(rng.below(100)) >= p_->cnm_percent) return 0;
  q_old_ = q;
  return fb;
}

}  // namespace ccsim
