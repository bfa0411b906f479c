#include "traffic/motif_engine.h"

#include <algorithm>
#include <numeric>

namespace ccsim {

void MotifEngine::add(ClassSetup setup) {
  Class c;
  c.setup = std::move(setup);
  c.ranks.resize(c.setup.programs.size());
  for (auto& p : c.setup.programs) c.ops += static_cast<int64_t>(p.size());
  const int cls = static_cast<int>(classes_.size());
  for (int r = 0; r < static_cast<int>(c.ranks.size()); ++r) heap_.push({c.setup.start, cls, r, -1});
  ++unfinished_;
  classes_.push_back(std::move(c));
}

void MotifEngine::generate(Cycle now) {
  while (!heap_.empty() && heap_.top().at <= now) {
    const Event e = heap_.top();
    heap_.pop();
    Rank& r = classes_[e.cls].ranks[e.rank];
    if (e.compute_pc >= 0) {
      if (!r.computing || r.pc != static_cast<size_t>(e.compute_pc)) continue;
      r.computing = false, ++r.pc;
    } else if (r.computing) {
      continue;  // an arrival during a compute: the compute's end looks again
    }
    advance(e.cls, e.rank, now);
  }
}

void MotifEngine::send(int cls, int rank, const MotifOp& op, Cycle now) {
  Class& c = classes_[cls];
  const int64_t tag = next_tag_++;
  in_flight_[tag] = {cls, op.peer, rank, now};
  MessageRequest req;
  req.dst = c.setup.nodes[op.peer];
  req.packet_size = c.setup.packet_size;
  req.packets = op.amount > 0 ? static_cast<int32_t>((op.amount + c.setup.packet_size - 1) / c.setup.packet_size)
                              : c.setup.packets;
  req.traffic_class = static_cast<int16_t>(c.setup.traffic_class);
  req.tag = tag;
  ++c.sent;
  send_(c.setup.nodes[rank], req);
}

// Runs the rank from where it stopped until it waits for a message, computes, or ends.
void MotifEngine::advance(int cls, int rank, Cycle now) {
  using Kind = MotifOp::Kind;
  Class& c = classes_[cls];
  Rank& r = c.ranks[rank];
  const RankProgram& prog = c.setup.programs[rank];
  while (r.pc < prog.size()) {
    const MotifOp& op = prog[r.pc];
    if (!r.in_step) {
      r.in_step = true;
      if (logging_) log_.push_back({now, cls, rank, r.step, true});
    }
    switch (op.kind) {
      case Kind::Send:
        send(cls, rank, op, now);
        break;
      case Kind::Recv:
        if (r.arrived[op.peer] == r.taken[op.peer]) return;  // arrived() brings the rank back
        ++r.taken[op.peer];
        break;
      case Kind::Compute:
        r.computing = true;
        heap_.push({now + op.amount, cls, rank, static_cast<int64_t>(r.pc)});
        return;
      case Kind::EndStep:
        if (logging_) log_.push_back({now, cls, rank, r.step, false});
        ++r.step;
        r.in_step = false;
        break;
    }
    ++r.pc;
  }
  if (!r.done) {
    r.done = true;
    if (++c.done == static_cast<int>(c.ranks.size())) c.finished_at = now, --unfinished_;
  }
}

void MotifEngine::arrived(int64_t tag, Cycle now) {
  auto it = in_flight_.find(tag);
  if (it == in_flight_.end()) return;
  const InFlight m = it->second;
  in_flight_.erase(it);
  Class& c = classes_[m.cls];
  ++c.arrived;
  c.latencies.push_back(now - m.sent);
  Rank& r = c.ranks[m.to];
  ++r.arrived[m.from];
  // The rank sees it next cycle; only a rank waiting for a message from this source needs waking.
  const RankProgram& prog = c.setup.programs[m.to];
  if (!r.computing && r.pc < prog.size() && prog[r.pc].kind == MotifOp::Kind::Recv && prog[r.pc].peer == m.from)
    heap_.push({now + 1, m.cls, m.to, -1});
}

std::map<int, nlohmann::json> MotifEngine::json() const {
  std::map<int, nlohmann::json> out;
  for (const Class& c : classes_) {
    std::vector<Cycle> lat = c.latencies;
    std::sort(lat.begin(), lat.end());
    auto pct = [&](double q) { return lat.empty() ? 0 : lat[static_cast<size_t>(q * (lat.size() - 1))]; };
    const double mean =
        lat.empty() ? 0.0 : static_cast<double>(std::accumulate(lat.begin(), lat.end(), int64_t{0})) / lat.size();
    int64_t ops_done = 0;
    for (auto& r : c.ranks) ops_done += static_cast<int64_t>(r.pc);
    nlohmann::json j = c.setup.describe;
    j.update({{"ranks", c.ranks.size()},
              {"iterations", c.setup.iterations},
              {"start", c.setup.start},
              {"finished", c.finished_at >= 0},
              {"ranks_finished", c.done},
              {"messages_sent", c.sent},
              {"messages_arrived", c.arrived},
              {"message_latency",
               {{"mean", mean}, {"p50", pct(0.5)}, {"p99", pct(0.99)}, {"max", lat.empty() ? 0 : lat.back()}}}});
    if (c.finished_at >= 0) {
      j["completion_cycles"] = c.finished_at - c.setup.start;
      j["cycles_per_iteration"] = static_cast<double>(c.finished_at - c.setup.start) / c.setup.iterations;
    } else {
      j["progress"] =
          c.ops ? static_cast<double>(ops_done) / static_cast<double>(c.ops) : 1.0;  // share of operations done
    }
    out[c.setup.traffic_class] = j;
  }
  return out;
}

}  // namespace ccsim
