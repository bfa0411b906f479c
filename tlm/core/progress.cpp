#include "core/progress.h"

#include <unistd.h>

#include <cstdio>

namespace ccsim {

Progress::Progress(Cycle end)
    : enabled_(isatty(STDERR_FILENO) != 0), end_(end), start_(Clock::now()), next_(start_ + std::chrono::seconds(2)) {}

Progress::~Progress() {
  if (shown_) std::fprintf(stderr, "\r\033[K");
}

void Progress::show(Cycle now) {
  const auto t = Clock::now();
  if (t < next_) return;
  next_ = t + std::chrono::milliseconds(500);
  const double seconds = std::chrono::duration<double>(t - start_).count();
  const double rate = static_cast<double>(now) / seconds;
  if (now < end_) {
    const double eta = rate > 0 ? static_cast<double>(end_ - now) / rate : 0;
    std::fprintf(stderr, "\r\033[Kccsim: cycle %lld of %lld (%.0f%%), %.0f cycles/s, window ends in %.0f s",
                 static_cast<long long>(now), static_cast<long long>(end_),
                 100.0 * static_cast<double>(now) / static_cast<double>(end_), rate, eta);
  } else {
    std::fprintf(stderr, "\r\033[Kccsim: cycle %lld, draining the window's packets, %.0f cycles/s",
                 static_cast<long long>(now), rate);
  }
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace ccsim
