// Runs the application classes of a run (traffic.motif, traffic.trace): each
// rank, on its node, runs its program (motif_program.h); its messages go to
// its NIC like synthetic ones, with a tag that the network hands back when the
// message's last packet has arrived. A rank notices an arrival in the next
// cycle (its NIC hands the message up), so a dependency costs the message's
// latency plus one cycle. Results per class: completion time, time per
// iteration, message latencies.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/message.h"
#include "core/types.h"
#include "traffic/motif_program.h"

namespace ccsim {

class MotifEngine {
 public:
  using Send = std::function<void(int node, const MessageRequest& req)>;
  explicit MotifEngine(Send send) : send_(std::move(send)) {}

  struct ClassSetup {
    int traffic_class = 0;
    std::vector<int> nodes;  // node of each rank
    std::vector<RankProgram> programs;
    nlohmann::json describe;  // what the results say of the program (motif name, grid, ...)
    int iterations = 1;       // step ends per rank, for cycles_per_iteration
    Cycle start = 0;
    int packets = 1, packet_size = 1;  // a message of `amount` 0; otherwise amount flits in such packets
  };
  void add(ClassSetup setup);

  void generate(Cycle now);  // ranks due now run until they wait or compute
  Cycle next_event() const { return heap_.empty() ? INT64_MAX : heap_.top().at; }
  void arrived(int64_t tag, Cycle now);  // the message's last packet arrived
  bool all_finished() const { return unfinished_ == 0; }
  // Per class (by traffic class index): classes.<name>.motif of the results.
  std::map<int, nlohmann::json> json() const;

  // Every step a rank starts and ends (for tests): cycle, class, rank, step, started.
  struct LogEntry {
    Cycle at;
    int cls, rank, step;
    bool started;
  };
  void keep_log() { logging_ = true; }
  const std::vector<LogEntry>& log() const { return log_; }

 private:
  struct Rank {
    size_t pc = 0;  // the next operation
    int step = 0;
    bool in_step = false;    // its current step has started
    bool computing = false;  // until the compute's event
    bool done = false;
    std::unordered_map<int, int64_t> arrived, taken;  // per source rank: messages arrived, received
  };
  struct Class {
    ClassSetup setup;
    std::vector<Rank> ranks;
    int done = 0;
    Cycle finished_at = -1;
    int64_t sent = 0, arrived = 0, ops = 0;
    std::vector<Cycle> latencies;
  };
  struct InFlight {
    int cls, to, from;
    Cycle sent;
  };
  struct Event {
    Cycle at;
    int cls, rank;
    int64_t compute_pc;  // >= 0: the compute at this operation ends; -1: look again (start, arrival)
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : cls != o.cls ? cls > o.cls : rank > o.rank; }
  };
  void advance(int cls, int rank, Cycle now);
  void send(int cls, int rank, const MotifOp& op, Cycle now);

  Send send_;
  std::vector<Class> classes_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> heap_;
  std::unordered_map<int64_t, InFlight> in_flight_;
  int64_t next_tag_ = 0;
  int unfinished_ = 0;
  bool logging_ = false;
  std::vector<LogEntry> log_;
};

}  // namespace ccsim
