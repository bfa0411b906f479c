// ccsim_tb_waves <dir>: writes <dir>/<block>.vcd and <dir>/<block>.gtkw for every RTL block
// (target `waves`, `make waves`). Open with: gtkwave <dir>/<block>.gtkw
#include <cstdio>
#include <string>

#include "waves.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output-dir>\n", argv[0]);
    return 2;
  }
  int failures = 0;
  for (const auto& block : ccsim::tb::wave_blocks()) {
    std::string error;
    if (ccsim::tb::write_block_waves(argv[1], block, &error)) {
      std::printf("waves: %s/%s.vcd + %s.gtkw\n", argv[1], block.c_str(), block.c_str());
    } else {
      std::fprintf(stderr, "waves: %s FAILED: %s\n", block.c_str(), error.c_str());
      ++failures;
    }
  }
  return failures ? 1 : 0;
}
