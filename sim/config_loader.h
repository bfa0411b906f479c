// TOML config files and -s overrides -> a validated, complete Config. Unknown
// keys, wrong types and out-of-range values raise ConfigError with one line
// naming the key and what is allowed.
#pragma once
#include <string>
#include <vector>

#include "core/params.h"

namespace ccsim {

struct Override {
  std::string key, value;  // value as typed on the command line
};

Override parse_override(const std::string& text);  // "key=value"
Config load_config(const std::string& path, const std::vector<Override>& overrides);
Config load_config_string(const std::string& toml_text, const std::vector<Override>& overrides);
// The effective config as TOML, every key with its doc as a comment.
std::string config_to_toml(const Config& cfg);

}  // namespace ccsim
