// The verilated blocks behind the network's block interfaces (RTL in the loop). Built only with
// the verilated RTL (CCSIM_BUILD_HW); otherwise these throw (Selection::from_config refuses
// "rtl" before they are reached).
#pragma once
#include "hw/blocks.h"

namespace ccsim::hw {

std::unique_ptr<ContentionDegree> rtl_contention_degree(const blocks::ContentionDegreeUnit::Config& c,
                                                        const Selection& s, const std::string& instance);
std::unique_ptr<ContentionCounters> rtl_contention_counters(const blocks::ContentionCounters::Config& c,
                                                            const Selection& s, const std::string& instance);
std::unique_ptr<TokenThrottler> rtl_token_throttler(const blocks::TokenThrottler::Config& c, const Selection& s,
                                                    const std::string& instance);
std::unique_ptr<LastHopScheduler> rtl_last_hop_scheduler(const blocks::LastHopScheduler::Config& c, const Selection& s,
                                                         const std::string& instance);

}  // namespace ccsim::hw
