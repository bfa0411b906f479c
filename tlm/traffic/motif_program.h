// Application traffic with dependencies (traffic.motif, traffic.trace): one
// program per rank, a list of operations run in order. A send hands a message
// to the rank's NIC and goes on; a receive waits until the next message from
// that rank has fully arrived (messages between two ranks match in the order
// they were sent, as MPI's do); a compute takes its cycles; a step end marks an
// iteration boundary (for progress and tests). Motifs (after SST's Ember
// motifs) are built here as steps; traces are read by trace_program.h.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"

namespace ccsim {

struct MotifOp {
  enum class Kind : uint8_t { Send, Recv, Compute, EndStep };
  Kind kind;
  int32_t peer = -1;   // Send: destination rank; Recv: source rank
  int64_t amount = 0;  // Send: flits (0: the class's message size); Compute: cycles
};

using RankProgram = std::vector<MotifOp>;

// A motif step of one rank: send to `send_before`, receive one message from
// each of `recv_from`, compute, send to `send_after`.
struct MotifStep {
  std::vector<int> send_before, recv_from;
  Cycle compute = 0;
  std::vector<int> send_after;
};

struct MotifParams {
  std::string name;
  int ranks = 0;
  int iterations = 1;
  Cycle compute = 0;      // cycles between iterations (sweep3d: per block)
  std::vector<int> grid;  // rank grid; empty: the most balanced factorisation
  int kslices = 2;        // sweep3d: blocks per corner sweep
};

struct MotifInfo {
  const char* name;
  int dims;  // rank grid dimensions (0: none)
  const char* doc;
};
const std::vector<MotifInfo>& motifs();
const MotifInfo& find_motif(const std::string& name);  // ConfigError naming traffic.motif

// The most balanced factorisation of n into `dims` factors, largest first.
std::vector<int> balanced_grid(int n, int dims);
// Each rank's steps; checks the grid (ConfigError naming traffic.grid) and
// fills it in when it was empty.
std::vector<std::vector<MotifStep>> motif_steps(MotifParams& p);
// Steps as operations.
std::vector<RankProgram> compile(const std::vector<std::vector<MotifStep>>& steps);

}  // namespace ccsim
