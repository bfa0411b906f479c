// Transparent huge pages for the simulation's heap. A large network's state
// (routers, queues, links, packets) is touched all over in every cycle: with
// 4 KiB pages most of those touches also miss the TLB. Where the kernel gives
// huge pages only on request (transparent_hugepage = madvise, Debian's
// default), the heap is reserved ahead in one piece and advised. Where memory
// lies never changes a result.
#pragma once

namespace ccsim {

// Call first in main(), before the network is built; CCSIM_HUGE_PAGES=0 turns
// it off. Does nothing where the C library or the kernel cannot.
void use_huge_pages();

}  // namespace ccsim
