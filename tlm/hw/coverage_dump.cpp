// Coverage points of a verilated model (CCSIM_RTL_COVERAGE builds): written when the model is
// destroyed, one file per model, into $CCSIM_COVERAGE_DIR (nothing without it);
// scripts/rtl_coverage.py merges and reports them.
#ifdef CCSIM_RTL_COVERAGE
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "verilated.h"
#include "verilated_cov.h"

namespace ccsim::hw {

void write_coverage(VerilatedContext& ctx) {
  static std::atomic<int> files{0};
  const char* dir = std::getenv("CCSIM_COVERAGE_DIR");
  if (!dir || !*dir) return;
  const std::string path = std::string(dir) + "/" + std::to_string(getpid()) + "-" + std::to_string(files++) + ".dat";
  ctx.coveragep()->write(path.c_str());
}

}  // namespace ccsim::hw
#endif
