// Writes a whole file or none: the text goes to PATH.part<pid>, then is renamed
// to PATH, so a process killed while writing leaves no partial file and
// several processes (MPI ranks) writing the same file do not interleave.
#pragma once
#include <string>

namespace ccsim {

// False (and no file) when it cannot be written.
bool write_atomically(const std::string& path, const std::string& text);

}  // namespace ccsim
