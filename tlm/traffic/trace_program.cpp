#include "traffic/trace_program.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "core/params.h"

namespace ccsim {

namespace {

int64_t parse_count(const std::string& word, const std::string& what, const std::string& where) {
  if (word.empty() || word.find_first_not_of("0123456789") != std::string::npos || word.size() > 15)
    throw ConfigError("traffic.trace",
                      fmt::format("{}: {} expects a non-negative integer, got \"{}\"", where, what, word));
  return std::stoll(word);
}

// Cycles, or a time with a unit (ns, us, ms).
Cycle parse_time(const std::string& word, double clock_ghz, const std::string& where) {
  for (auto [unit, ns] : {std::pair<const char*, double>{"ns", 1.0}, {"us", 1e3}, {"ms", 1e6}}) {
    const size_t n = std::string(unit).size();
    if (word.size() > n && word.compare(word.size() - n, n, unit) == 0) {
      std::istringstream in(word.substr(0, word.size() - n));
      double v = -1;
      if (in >> v && v >= 0 && in.eof()) return static_cast<Cycle>(std::llround(v * ns * clock_ghz));
      break;
    }
  }
  return parse_count(word, "compute", where);
}

}  // namespace

TraceProgram read_trace(const std::string& path, int flit_bytes, double clock_ghz) {
  std::ifstream f(path);
  if (!f) throw ConfigError("traffic.trace", fmt::format("cannot read \"{}\"", path));
  using Kind = MotifOp::Kind;
  std::map<int, RankProgram> ops;
  std::map<std::pair<int, int>, int64_t> sends, recvs;  // (from, to) -> messages
  std::string line;
  for (int no = 1; std::getline(f, line); ++no) {
    const std::string where = fmt::format("{}:{}", path, no);
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string word; in >> word;) w.push_back(word);
    if (w.empty()) continue;
    const int rank = static_cast<int>(parse_count(w[0], "the rank", where));
    auto want = [&](size_t n, const char* form) {
      if (w.size() != n) throw ConfigError("traffic.trace", fmt::format("{}: expects \"{}\"", where, form));
    };
    if (w.size() < 2) want(2, "RANK send|recv|compute|iteration ...");
    const std::string& op = w[1];
    if (op == "send") {
      want(4, "RANK send DEST BYTES");
      const int to = static_cast<int>(parse_count(w[2], "the destination", where));
      if (to == rank) throw ConfigError("traffic.trace", fmt::format("{}: rank {} sends to itself", where, rank));
      const int64_t bytes = parse_count(w[3], "the size", where);
      ops[rank].push_back({Kind::Send, to, std::max<int64_t>(1, (bytes + flit_bytes - 1) / flit_bytes)});
      ++sends[{rank, to}];
    } else if (op == "recv") {
      want(3, "RANK recv SOURCE");
      const int from = static_cast<int>(parse_count(w[2], "the source", where));
      ops[rank].push_back({Kind::Recv, from, 0});
      ++recvs[{from, rank}];
    } else if (op == "compute") {
      want(3, "RANK compute CYCLES|TIME");
      if (Cycle t = parse_time(w[2], clock_ghz, where); t > 0) ops[rank].push_back({Kind::Compute, -1, t});
    } else if (op == "iteration") {
      want(2, "RANK iteration");
      ops[rank].push_back({Kind::EndStep, -1, 0});
    } else {
      throw ConfigError(
          "traffic.trace",
          fmt::format("{}: unknown operation \"{}\"; allowed: send, recv, compute, iteration", where, op));
    }
  }
  if (ops.empty()) throw ConfigError("traffic.trace", fmt::format("\"{}\" holds no operation", path));
  TraceProgram t;
  t.ranks.resize(static_cast<size_t>(ops.rbegin()->first) + 1);
  for (auto& [rank, prog] : ops) t.ranks[rank] = std::move(prog);
  // A receive without its send would wait forever; a send without its receive is a broken trace.
  for (auto& [pair, n] : recvs)
    if (sends[pair] != n)
      throw ConfigError("traffic.trace", fmt::format("{}: rank {} receives {} messages from rank {}, which sends it {}",
                                                     path, pair.second, n, pair.first, sends[pair]));
  for (auto& [pair, n] : sends) {
    if (pair.second >= static_cast<int>(t.ranks.size()))
      throw ConfigError("traffic.trace", fmt::format("{}: rank {} sends to rank {}, which has no operation", path,
                                                     pair.first, pair.second));
    if (recvs[pair] != n)
      throw ConfigError("traffic.trace", fmt::format("{}: rank {} sends {} messages to rank {}, which receives {}",
                                                     path, pair.first, n, pair.second, recvs[pair]));
  }
  int marks = 0;
  for (auto& op : t.ranks[0]) marks += op.kind == Kind::EndStep;
  t.iterations = std::max(1, marks);
  return t;
}

}  // namespace ccsim
