#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "core/params.h"
#include "traffic/motif_program.h"

namespace ccsim {

const std::vector<MotifInfo>& motifs() {
  static const std::vector<MotifInfo> v = {
      {"halo2d", 2,
       "nearest-neighbour exchange on a periodic 2D rank grid: each iteration every rank sends one message to each "
       "of its 4 face neighbours, waits for theirs, then computes"},
      {"halo3d", 3, "halo2d on a periodic 3D rank grid: 6 face neighbours"},
      {"halo3d26", 3, "halo3d with edges and corners: 26 neighbours"},
      {"sweep3d", 2,
       "KBA wavefront on a 2D rank grid: per iteration a sweep from each of the 4 corners, kslices blocks each; a "
       "rank waits for its upstream neighbours' block, computes, and sends downstream"},
      {"fft3d", 2,
       "3D FFT with a pencil decomposition: per iteration an all-to-all within each row of the 2D rank grid, then "
       "within each column (pairwise exchanges, one partner per step), then compute"},
      {"allreduce", 0,
       "binary-tree reduce to rank 0, then broadcast back down (any rank count), compute between iterations"},
      {"alltoall", 0, "pairwise all-to-all: in step k rank r sends to r+k and receives from r-k (mod ranks)"},
      {"incast", 0, "many-to-one: every rank but 0 sends to rank 0, which waits for all of them, each iteration"},
      {"pingpong", 0, "ranks 2i and 2i+1 bounce a message: 2i sends, 2i+1 waits, computes and answers"},
  };
  return v;
}

const MotifInfo& find_motif(const std::string& name) {
  std::string allowed;
  for (auto& m : motifs()) {
    if (name == m.name) return m;
    allowed += (allowed.empty() ? "" : ", ") + std::string(m.name);
  }
  throw ConfigError("traffic.motif", fmt::format("unknown \"{}\"; allowed: {}", name, allowed));
}

std::vector<int> balanced_grid(int n, int dims) {
  std::vector<int> best;
  // Every factorisation n = f0 * f1 * ... with f0 >= f1 >= ...; the most balanced has the smallest largest factor.
  std::function<void(int, int, int, std::vector<int>&)> go = [&](int rest, int left, int max_f, std::vector<int>& cur) {
    if (left == 1) {
      if (rest > max_f) return;
      cur.push_back(rest);
      // Ties of the largest factor: the larger smallest factor (16 in 3: 4x2x2, not 4x4x1).
      if (best.empty() || cur.front() < best.front() || (cur.front() == best.front() && cur.back() > best.back()))
        best = cur;
      cur.pop_back();
      return;
    }
    for (int f = std::min(rest, max_f); f >= 1; --f)
      if (rest % f == 0) {
        cur.push_back(f);
        go(rest / f, left - 1, f, cur);
        cur.pop_back();
      }
  };
  std::vector<int> cur;
  go(n, dims, n, cur);
  return best;
}

namespace {

int product(const std::vector<int>& g) {
  int p = 1;
  for (int x : g) p *= x;
  return p;
}

// Rank <-> coordinates, first dimension fastest.
std::vector<int> coords(int rank, const std::vector<int>& grid) {
  std::vector<int> c;
  for (int d : grid) c.push_back(rank % d), rank /= d;
  return c;
}

int rank_of(const std::vector<int>& c, const std::vector<int>& grid) {
  int r = 0;
  for (size_t i = grid.size(); i-- > 0;) r = r * grid[i] + c[i];
  return r;
}

void halo(std::vector<std::vector<MotifStep>>& prog, const MotifParams& p, bool diagonals) {
  const int dims = static_cast<int>(p.grid.size());
  std::vector<std::vector<int>> offsets;
  std::vector<int> o(dims, -1);
  for (;;) {  // every offset in {-1,0,1}^dims but zero; faces only without diagonals
    int nonzero = 0;
    for (int x : o) nonzero += x != 0;
    if (nonzero == 1 || (diagonals && nonzero > 0)) offsets.push_back(o);
    int d = 0;
    while (d < dims && o[d] == 1) o[d++] = -1;
    if (d == dims) break;
    ++o[d];
  }
  for (int r = 0; r < p.ranks; ++r) {
    MotifStep s;
    const std::vector<int> c = coords(r, p.grid);
    for (auto& off : offsets) {
      std::vector<int> n = c;
      for (int d = 0; d < dims; ++d) n[d] = (n[d] + off[d] + p.grid[d]) % p.grid[d];
      const int peer = rank_of(n, p.grid);
      if (peer == r) continue;  // a dimension of size 1 wraps onto the rank itself
      s.send_before.push_back(peer);
      // The neighbour at the opposite offset sends one the same way; over all offsets, the same ranks.
      s.recv_from.push_back(peer);
    }
    s.compute = p.compute;
    for (int i = 0; i < p.iterations; ++i) prog[r].push_back(s);
  }
}

void sweep3d(std::vector<std::vector<MotifStep>>& prog, const MotifParams& p) {
  const int nx = p.grid[0], ny = p.grid[1];
  for (int it = 0; it < p.iterations; ++it)
    for (int corner = 0; corner < 4; ++corner) {
      const int dx = corner & 1 ? -1 : 1, dy = corner & 2 ? -1 : 1;  // the sweep's direction
      for (int k = 0; k < p.kslices; ++k)
        for (int r = 0; r < p.ranks; ++r) {
          const int x = r % nx, y = r / nx;
          MotifStep s;
          s.compute = p.compute;
          if (x - dx >= 0 && x - dx < nx) s.recv_from.push_back(y * nx + x - dx);
          if (y - dy >= 0 && y - dy < ny) s.recv_from.push_back((y - dy) * nx + x);
          if (x + dx >= 0 && x + dx < nx) s.send_after.push_back(y * nx + x + dx);
          if (y + dy >= 0 && y + dy < ny) s.send_after.push_back((y + dy) * nx + x);
          prog[r].push_back(s);
        }
    }
}

// Pairwise exchanges among `members` (rank ids): in step k, member i sends to member i+k.
void exchange(std::vector<std::vector<MotifStep>>& prog, const std::vector<std::vector<int>>& groups) {
  const size_t size = groups.front().size();
  for (size_t k = 1; k < size; ++k)
    for (auto& g : groups)
      for (size_t i = 0; i < size; ++i) {
        MotifStep s;
        s.send_before.push_back(g[(i + k) % size]);
        s.recv_from.push_back(g[(i + size - k) % size]);
        prog[g[i]].push_back(s);
      }
}

// Adds an iteration's compute to each rank's last step (an empty step when the
// iteration had none: a motif of one rank).
void end_iteration(std::vector<std::vector<MotifStep>>& prog, size_t steps_before, Cycle compute) {
  for (auto& rp : prog) {
    if (rp.size() == steps_before) rp.push_back(MotifStep{});
    rp.back().compute += compute;
  }
}

void fft3d(std::vector<std::vector<MotifStep>>& prog, const MotifParams& p) {
  const int nx = p.grid[0], ny = p.grid[1];
  std::vector<std::vector<int>> rows(ny), cols(nx);
  for (int r = 0; r < p.ranks; ++r) rows[r / nx].push_back(r), cols[r % nx].push_back(r);
  for (int it = 0; it < p.iterations; ++it) {
    const size_t before = prog[0].size();
    exchange(prog, rows);
    exchange(prog, cols);
    end_iteration(prog, before, p.compute);
  }
}

void allreduce(std::vector<std::vector<MotifStep>>& prog, const MotifParams& p) {
  int levels = 0;
  while ((1 << levels) < p.ranks) ++levels;
  for (int it = 0; it < p.iterations; ++it) {
    const size_t before = prog[0].size();
    for (int l = 0; l < levels; ++l)  // reduce: at level l, rank r + 2^l sends to r (r a multiple of 2^(l+1))
      for (int r = 0; r < p.ranks; ++r) {
        MotifStep s;
        const int span = 1 << l;
        if (r % (2 * span) == span) s.send_before.push_back(r - span);
        if (r % (2 * span) == 0 && r + span < p.ranks) s.recv_from.push_back(r + span);
        prog[r].push_back(s);
      }
    for (int l = levels; l-- > 0;)  // broadcast: the same tree downwards
      for (int r = 0; r < p.ranks; ++r) {
        MotifStep s;
        const int span = 1 << l;
        if (r % (2 * span) == 0 && r + span < p.ranks) s.send_before.push_back(r + span);
        if (r % (2 * span) == span) s.recv_from.push_back(r - span);
        prog[r].push_back(s);
      }
    end_iteration(prog, before, p.compute);
  }
}

void alltoall(std::vector<std::vector<MotifStep>>& prog, const MotifParams& p) {
  std::vector<int> all(p.ranks);
  for (int r = 0; r < p.ranks; ++r) all[r] = r;
  for (int it = 0; it < p.iterations; ++it) {
    const size_t before = prog[0].size();
    exchange(prog, {all});
    end_iteration(prog, before, p.compute);
  }
}

void incast(std::vector<std::vector<MotifStep>>& prog, const MotifParams& p) {
  for (int it = 0; it < p.iterations; ++it)
    for (int r = 0; r < p.ranks; ++r) {
      MotifStep s;
      s.compute = p.compute;
      if (r == 0)
        for (int from = 1; from < p.ranks; ++from) s.recv_from.push_back(from);
      else
        s.send_before.push_back(0);
      prog[r].push_back(s);
    }
}

void pingpong(std::vector<std::vector<MotifStep>>& prog, const MotifParams& p) {
  for (int it = 0; it < p.iterations; ++it)
    for (int r = 0; r < p.ranks; ++r) {
      MotifStep s;
      const int peer = r ^ 1;
      if (peer < p.ranks) {
        s.recv_from.push_back(peer);
        if (r % 2 == 0) {
          s.send_before.push_back(peer);
        } else {
          s.compute = p.compute;
          s.send_after.push_back(peer);
        }
      }
      prog[r].push_back(s);
    }
}

}  // namespace

std::vector<std::vector<MotifStep>> motif_steps(MotifParams& p) {
  const MotifInfo& info = find_motif(p.name);
  if (info.dims > 0) {
    if (p.grid.empty()) p.grid = balanced_grid(p.ranks, info.dims);
    if (static_cast<int>(p.grid.size()) != info.dims || product(p.grid) != p.ranks)
      throw ConfigError("traffic.grid", fmt::format("{} needs a {}-dimensional grid of the class's {} nodes, got {}",
                                                    p.name, info.dims, p.ranks, fmt::join(p.grid, "x")));
  }
  std::vector<std::vector<MotifStep>> prog(p.ranks);
  const std::string& n = p.name;
  if (n == "halo2d" || n == "halo3d" || n == "halo3d26")
    halo(prog, p, n == "halo3d26");
  else if (n == "sweep3d")
    sweep3d(prog, p);
  else if (n == "fft3d")
    fft3d(prog, p);
  else if (n == "allreduce")
    allreduce(prog, p);
  else if (n == "alltoall")
    alltoall(prog, p);
  else if (n == "incast")
    incast(prog, p);
  else
    pingpong(prog, p);
  return prog;
}

std::vector<RankProgram> compile(const std::vector<std::vector<MotifStep>>& steps) {
  using Kind = MotifOp::Kind;
  std::vector<RankProgram> out(steps.size());
  for (size_t r = 0; r < steps.size(); ++r)
    for (const MotifStep& s : steps[r]) {
      for (int to : s.send_before) out[r].push_back({Kind::Send, to, 0});
      for (int from : s.recv_from) out[r].push_back({Kind::Recv, from, 0});
      if (s.compute > 0) out[r].push_back({Kind::Compute, -1, s.compute});
      for (int to : s.send_after) out[r].push_back({Kind::Send, to, 0});
      out[r].push_back({Kind::EndStep, -1, 0});
    }
  return out;
}

}  // namespace ccsim
