#include "simulate.h"

#include <string>

#include "core/network.h"

namespace ccsim {

nlohmann::json simulate(const Config& cfg) {
  // SystemC object names must be unique while they live; one network at a time.
  static int instance = 0;
  Network net(("network" + std::to_string(instance++)).c_str(), cfg);
  return net.run();
}

}  // namespace ccsim
