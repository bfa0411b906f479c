#include "launch_mpi.h"

#include "core/params.h"

#ifdef CCSIM_HAVE_MPI
#include <mpi.h>

#include <chrono>
#include <fmt/format.h>
#include <iostream>
#include <thread>

#include "launch_local.h"
#endif

namespace ccsim {

#ifndef CCSIM_HAVE_MPI

MpiOutcome launch_mpi(const JobList&, const std::vector<size_t>&, int) {
  throw ConfigError("--launcher",
                    "\"mpi\": this ccsim was built without MPI (install libopenmpi-dev and rebuild); "
                    "allowed here: local, slurm");
}

#else

namespace {

// A worker's message to rank 0: {wants another job (1/0), job that ended or -1, its status}.
constexpr int kTagReport = 1;
// Rank 0's answer to a request: the job to run, or -1: no more.
constexpr int kTagJob = 2;
constexpr int kNoJob = -1;

MpiOutcome serve(const JobList& list, const std::vector<size_t>& todo, int parallel, int ranks) {
  MpiOutcome out{true, std::vector<int>(list.jobs.size(), -1)};
  LocalPool pool(list, "mpi", 0);
  size_t next = 0, finished = 0;
  int stopped = 0;  // workers told that no job is left
  auto record = [&](int job, int status) {
    out.status[static_cast<size_t>(job)] = status;
    pool.report(static_cast<size_t>(job), status, ++finished, todo.size());
  };
  while (finished < todo.size() || stopped < ranks - 1) {
    bool busy = false;
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, kTagReport, MPI_COMM_WORLD, &flag, &st);
    if (flag) {
      busy = true;
      int msg[3];
      MPI_Recv(msg, 3, MPI_INT, st.MPI_SOURCE, kTagReport, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (msg[1] >= 0) record(msg[1], msg[2]);
      if (msg[0]) {
        int job = next < todo.size() ? static_cast<int>(todo[next++]) : kNoJob;
        stopped += job == kNoJob;
        MPI_Send(&job, 1, MPI_INT, st.MPI_SOURCE, kTagJob, MPI_COMM_WORLD);
      }
    }
    while (!interrupted() && pool.running() < static_cast<size_t>(parallel) && next < todo.size()) {
      pool.start(todo[next++]);
      busy = true;
    }
    if (auto ended = pool.reap(false)) {
      record(static_cast<int>(ended->first), ended->second);
      busy = true;
    }
    if (interrupted()) break;
    if (!busy) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (interrupted())
    std::cerr << fmt::format("interrupted: {} of {} runs finished; run the same command again to do the rest\n",
                             finished, todo.size());
  return out;  // the pool stops the children still running
}

void work(const JobList& list, int parallel, int rank) {
  LocalPool pool(list, "mpi", rank);
  bool more = true;
  int msg[3] = {1, -1, 0};
  while (more || pool.running() > 0) {
    if (more && pool.running() < static_cast<size_t>(parallel)) {
      msg[0] = 1;
      MPI_Send(msg, 3, MPI_INT, 0, kTagReport, MPI_COMM_WORLD);
      msg[1] = -1;
      int job = kNoJob;
      MPI_Recv(&job, 1, MPI_INT, 0, kTagJob, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (job == kNoJob)
        more = false;
      else
        pool.start(static_cast<size_t>(job));
      continue;
    }
    const auto ended = pool.reap(true);
    if (!ended) break;  // interrupted: the pool stops its children as it goes
    msg[1] = static_cast<int>(ended->first), msg[2] = ended->second;
    if (!more) {  // only the report: rank 0 sent its last job already
      msg[0] = 0;
      MPI_Send(msg, 3, MPI_INT, 0, kTagReport, MPI_COMM_WORLD);
      msg[1] = -1;
    }
  }
}

}  // namespace

MpiOutcome launch_mpi(const JobList& list, const std::vector<size_t>& todo, int parallel) {
  MPI_Init(nullptr, nullptr);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  catch_interrupts();
  MpiOutcome out;
  if (rank == 0) {
    std::cerr << fmt::format("mpi: {} ranks share {} runs ({} already done)\n", ranks, todo.size(),
                             list.jobs.size() - todo.size());
    out = serve(list, todo, parallel, ranks);
  } else {
    work(list, parallel, rank);
  }
  // An interrupted rank leaves messages unanswered: end every rank at once (results on disk are whole).
  if (interrupted()) MPI_Abort(MPI_COMM_WORLD, 130);
  MPI_Finalize();
  return out;
}

#endif

}  // namespace ccsim
