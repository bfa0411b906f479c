// Builds without the verilated RTL (CCSIM_BUILD_HW=OFF): no RTL blocks.
#include <stdexcept>

#include "hw/rtl_blocks.h"

namespace ccsim::hw {

bool rtl_available() { return false; }

namespace {
[[noreturn]] void unavailable() { throw std::logic_error("RTL blocks requested in a build without them"); }
}  // namespace

std::unique_ptr<ContentionDegree> rtl_contention_degree(const blocks::ContentionDegreeUnit::Config&, const Selection&,
                                                        const std::string&) {
  unavailable();
}
std::unique_ptr<ContentionCounters> rtl_contention_counters(const blocks::ContentionCounters::Config&, const Selection&,
                                                            const std::string&) {
  unavailable();
}
std::unique_ptr<TokenThrottler> rtl_token_throttler(const blocks::TokenThrottler::Config&, const Selection&,
                                                    const std::string&) {
  unavailable();
}
std::unique_ptr<LastHopScheduler> rtl_last_hop_scheduler(const blocks::LastHopScheduler::Config&, const Selection&,
                                                         const std::string&) {
  unavailable();
}

}  // namespace ccsim::hw
