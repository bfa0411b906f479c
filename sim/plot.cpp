// ccsim plot DIR: delegates to scripts/plot.py (matplotlib from Debian's python3).
#include <unistd.h>

#include <filesystem>
#include <fmt/format.h>
#include <stdexcept>

#include "commands.h"

namespace ccsim {

int command_plot(const std::string& dir) {
  std::string script = std::string(CCSIM_SOURCE_DIR) + "/scripts/plot.py";
  if (!std::filesystem::exists(script)) {
    // Installed or moved binary: look beside it.
    script = std::filesystem::canonical("/proc/self/exe").parent_path().string() + "/../scripts/plot.py";
  }
  if (!std::filesystem::exists(script)) throw std::runtime_error("cannot find scripts/plot.py");
  const char* python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  execlp(python, python, script.c_str(), dir.c_str(), static_cast<char*>(nullptr));
  throw std::runtime_error(fmt::format("cannot run {}", python));
}

}  // namespace ccsim
