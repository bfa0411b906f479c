// Subcommands written in Python (scripts/): ccsim plot and ccsim reproduce run
// them with Debian's python3, which has matplotlib.
#include <unistd.h>

#include <filesystem>
#include <fmt/format.h>
#include <stdexcept>

#include "commands.h"

namespace ccsim {

namespace {

std::string self_path() { return std::filesystem::canonical("/proc/self/exe").string(); }

[[noreturn]] void run_script(const std::string& name, std::vector<std::string> args) {
  std::string script = std::string(CCSIM_SOURCE_DIR) + "/scripts/" + name;
  if (!std::filesystem::exists(script)) {
    // Installed or moved binary: look beside it.
    script = std::filesystem::path(self_path()).parent_path().string() + "/../scripts/" + name;
  }
  if (!std::filesystem::exists(script)) throw std::runtime_error("cannot find scripts/" + name);
  const char* python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  args.insert(args.begin(), {python, script});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  execvp(python, argv.data());
  throw std::runtime_error(fmt::format("cannot run {}", python));
}

}  // namespace

int command_plot(const std::string& dir) { run_script("plot.py", {dir}); }

int command_reproduce(std::vector<std::string> args) {
  args.insert(args.end(), {"--ccsim", self_path()});
  run_script("reproduce.py", std::move(args));
}

}  // namespace ccsim
