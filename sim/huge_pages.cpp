#include "huge_pages.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ccsim {

void use_huge_pages() {
#if defined(__linux__) && defined(__GLIBC__)
  const char* env = std::getenv("CCSIM_HUGE_PAGES");
  if (env && std::strcmp(env, "0") == 0) return;
  // Address space, not memory: pages are faulted in when first used.
  constexpr size_t kReserve = size_t{1} << 30;
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  // Allocations up to 32 MiB come from the heap (not mmaps of their own), which never shrinks.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  const auto before = reinterpret_cast<uintptr_t>(sbrk(0));
  if (before == ~uintptr_t{0}) return;  // no brk heap here
  mallopt(M_TOP_PAD, static_cast<int>(kReserve));
  void* volatile grow = malloc(16 << 20);  // grows the heap by the pad (volatile: not elided)
  free(grow);
  mallopt(M_TOP_PAD, 128 << 10);
  const auto after = reinterpret_cast<uintptr_t>(sbrk(0));
  const uintptr_t lo = (before + kHuge - 1) & ~(kHuge - 1), hi = after & ~(kHuge - 1);
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);  // a refusal costs only speed
#endif
}

}  // namespace ccsim
