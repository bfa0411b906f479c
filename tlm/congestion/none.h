// congestion.protocol = "none": no congestion control; one data class.
#pragma once
#include "congestion/congestion_control.h"

namespace ccsim {

class NoCongestionControl : public CongestionControl {};

}  // namespace ccsim
