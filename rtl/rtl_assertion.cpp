// Verilator's $stop (a failed assertion under --assert) recorded for hw::VModel, which throws
// RtlAssertionFailure once eval() has returned: see rtl_assertion.h. It must not throw from
// here: a multithreaded model calls it from the end of its eval, with Verilator's locks held.
#include "rtl_assertion.h"

#include <verilated.h>

#include <mutex>

namespace ccsim::hw {

std::mutex g_mutex;
std::string g_failure;  // the first failed assertion not yet taken

std::string take_rtl_assertion_failure() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::string f;
  f.swap(g_failure);
  return f;
}

}  // namespace ccsim::hw

void vl_stop(const char* filename, int linenum, const char* hier) {
  std::lock_guard<std::mutex> lock(ccsim::hw::g_mutex);
  if (ccsim::hw::g_failure.empty())
    ccsim::hw::g_failure = std::string(filename ? filename : "?") + ":" + std::to_string(linenum) +
                           (hier && hier[0] ? std::string(" in ") + hier : std::string());
}
