#include "atomic_file.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace ccsim {

bool write_atomically(const std::string& path, const std::string& text) {
  const std::string part = path + ".part" + std::to_string(getpid());
  std::ofstream f(part);
  f << text;
  f.close();
  if (f && std::rename(part.c_str(), path.c_str()) == 0) return true;
  std::remove(part.c_str());
  return false;
}

}  // namespace ccsim
