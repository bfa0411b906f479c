// ccsim run CONFIG [-s key=value]... [-o out.json] [--print-config]
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "commands.h"
#include "config_loader.h"
#include "simulate.h"

namespace ccsim {

int command_run(const RunOptions& opt, const char*) {
  std::vector<Override> ov;
  for (auto& s : opt.overrides) ov.push_back(parse_override(s));
  const Config cfg = load_config(opt.config, ov);
  if (opt.print_config) {
    std::cout << config_to_toml(cfg);
    return 0;
  }
  nlohmann::json result = simulate(cfg);
  const std::string text = result.dump(2) + "\n";
  if (opt.output.empty()) {
    std::cout << text;
  } else {
    std::ofstream f(opt.output);
    if (!f) throw std::runtime_error(fmt::format("cannot write {}", opt.output));
    f << text;
  }
  if (result.value("deadlock", false))
    std::cerr << "warning: deadlock detected: " << result["deadlock_info"].dump() << "\n";
  return 0;
}

}  // namespace ccsim
