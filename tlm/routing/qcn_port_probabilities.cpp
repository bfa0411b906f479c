#include "routing/qcn_port_probabilities.h"

#include <algorithm>

namespace ccsim {

PortProbabilityTable::PortProbabilityTable(int first, int count, const QcnSwitchParams* p)
    : p_(p), first_(first), prob_(count, 100.0), sent_(count, 0), last_fb_(count, 0) {}

void PortProbabilityTable::increase(int i) { prob_[i] = std::min(100.0, prob_[i] + p_->pi); }

void PortProbabilityTable::on_transmit(int port) {
  const int i = port - first_;
  if (++sent_[i] >= p_->pc_limit) {
    sent_[i] = 0;
    increase(i);
  }
}

CnmOutcome PortProbabilityTable::on_cnm(int port, int fb) {
  if (!p_->fb_compare) {
    decrease(port, fb);
    return fb > 0 ? CnmOutcome::Decrease : CnmOutcome::Hold;
  }
  const int i = port - first_;
  sent_[i] = 0;
  fb_sum_ += fb - last_fb_[i];
  last_fb_[i] = fb;
  const double avg = fb_average();
  if (fb <= avg - p_->th1) {
    increase(i);
    return CnmOutcome::Increase;
  }
  if (fb > avg + p_->th2) {
    prob_[i] *= 1.0 - std::min(1.0, p_->lf * (fb - avg));
    return CnmOutcome::Decrease;
  }
  return CnmOutcome::Hold;
}

void PortProbabilityTable::decrease(int port, int fb) {
  const int i = port - first_;
  sent_[i] = 0;
  prob_[i] *= 1.0 - std::min(1.0, p_->lf * fb);
}

}  // namespace ccsim
