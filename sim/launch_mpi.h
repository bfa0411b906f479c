// The MPI launcher: `mpirun -np N ccsim sweep ... --launcher mpi` (or srun). The
// first rank hands out the jobs one at a time to whichever rank asks next, so
// that long and short runs balance; every rank, the first included, runs its
// jobs as child processes, `parallel` at a time.
#pragma once
#include <vector>

#include "jobs.h"

namespace ccsim {

struct MpiOutcome {
  bool first_rank = false;  // rank 0: it alone knows every status and writes the summary
  std::vector<int> status;  // per job of the list (rank 0 only); -1: not run
};

// Initializes and finalizes MPI around the run. Without MPI in this build: a
// ConfigError naming --launcher.
MpiOutcome launch_mpi(const JobList& list, const std::vector<size_t>& todo, int parallel);

}  // namespace ccsim
