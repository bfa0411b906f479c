// traffic.trace: a text file of per-rank operations, for traces converted from
// other tools.
// One operation per line, "RANK OP ARGS"; "#" starts a comment:
//   R send D BYTES     rank R sends BYTES to rank D and goes on
//   R recv S           rank R waits for the next message from rank S
//   R compute T        rank R computes T cycles (or a time such as "2us")
//   R iteration        an iteration of rank R ends (optional: results per iteration)
// Each rank runs its lines in file order; ranks' lines may interleave.
#pragma once
#include <string>
#include <vector>

#include "traffic/motif_program.h"

namespace ccsim {

struct TraceProgram {
  std::vector<RankProgram> ranks;
  int iterations = 1;  // rank 0's iteration marks (1 without any)
};

// Sizes become flits of `flit_bytes` bytes; times are converted at `clock_ghz`.
// Every error is a ConfigError naming traffic.trace, with the file and line.
TraceProgram read_trace(const std::string& path, int flit_bytes, double clock_ghz);

}  // namespace ccsim
