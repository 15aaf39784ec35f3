#include "courier/la/grid.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "courier/core/error.hpp"

namespace courier::la {

std::pair<unsigned, unsigned> factorize(unsigned n) {
  if (n == 0) throw Error("la: factorize(0)");
  unsigned r = 1;
  for (unsigned d = 1; static_cast<std::uint64_t>(d) * d <= n; ++d)
    if (n % d == 0) r = d;
  return {r, n / r};
}

Grid::Grid(rank_t ranks, unsigned threads, graph::vertex_t vertices, Placement placement)
    : p_(ranks), t_(threads), n_(static_cast<unsigned>(ranks) * threads), placement_(placement), vertices_(vertices) {
  if (ranks < 1 || threads < 1) throw Error("la grid: at least one rank of one thread");
  std::tie(p_r_, p_c_) = factorize(static_cast<unsigned>(p_));
  t_r_ = p_r_;                     // Table 1: threads per row group
  t_c_ = n_ / t_r_;                // threads per column group
  const unsigned r_t = n_ / t_c_;  // row groups per thread: the shift of each block of t_c rows
  width_ = std::max<graph::vertex_t>(1, (vertices + n_ - 1) / n_);
  // For v < 2^32, v * reciprocal / 2^64 = v / width + an error below v / 2^64 <= 2^-32 <= 1 / width,
  // too small to reach the next integer: exact.
  if (width_ >= 2 && width_ <= (std::uint64_t{1} << 32))
    reciprocal_ = static_cast<std::uint64_t>(~std::uint64_t{0} / width_) + 1;
  owner_.resize(static_cast<std::size_t>(n_) * n_);
  if (placement == Placement::cyclic) {
    const auto [r, c] = factorize(n_);
    for (unsigned i = 0; i < n_; ++i)
      for (unsigned j = 0; j < n_; ++j) owner_[static_cast<std::size_t>(i) * n_ + j] = (i % r) * c + j % c;
    return;
  }
  for (unsigned i = 0; i < n_; ++i)
    for (unsigned j = 0; j < n_; ++j)
      owner_[static_cast<std::size_t>(i) * n_ + j] = ((i % t_c_) * t_r_ + j % t_r_ + (i / t_c_) * r_t) % n_;
  if (!diagonal_is_a_permutation()) {
    // Algorithm 1 as printed repeats diagonal owners when t_c is no multiple of t_r (p = 6:
    // t_r = 2, t_c = 3t). Row i still takes the chunk of t_r ids that Algorithm 1 gives it
    // (r_t = t_r, so the shift moves whole chunks), dealt cyclically along the row, but rotated so
    // that the rows sharing a chunk put their diagonal at distinct places: block b at place b.
    for (unsigned i = 0; i < n_; ++i) {
      const unsigned chunk = (i % t_c_ + i / t_c_) % t_c_, block = i / t_c_;
      for (unsigned j = 0; j < n_; ++j)
        owner_[static_cast<std::size_t>(i) * n_ + j] = chunk * t_r_ + (j % t_r_ + block + t_r_ - i % t_r_) % t_r_;
    }
  }
}

bool Grid::diagonal_is_a_permutation() const {
  std::vector<bool> seen(n_, false);
  for (unsigned i = 0; i < n_; ++i) {
    if (seen[leader(i)]) return false;
    seen[leader(i)] = true;
  }
  return true;
}

std::vector<double> Grid::exchange() const {
  const std::size_t units = n_;
  std::vector<double> out(units * units, 0.0);
  const auto unit = [&](unsigned g) { return static_cast<std::size_t>(rank_of(g)) * t_ + local_of(g); };
  const auto add = [&](unsigned from, unsigned to) {
    if (from != to) out[unit(from) * units + unit(to)] += 1;
  };
  for (unsigned k = 0; k < n_; ++k) {
    const unsigned leader = this->leader(k);
    std::vector<bool> seen(n_, false);
    for (unsigned j = 0; j < n_; ++j) {  // row group k: one partial from each follower
      const unsigned h = owner(k, j);
      if (!seen[h]) seen[h] = true, add(h, leader);
    }
    std::fill(seen.begin(), seen.end(), false);
    std::vector<int> receiver(static_cast<std::size_t>(p_), -1);  // column group k: x_k's taker by rank
    for (unsigned i = 0; i < n_; ++i) {
      const unsigned h = owner(i, k);
      if (h == leader || seen[h]) continue;
      seen[h] = true;
      const auto r = static_cast<std::size_t>(rank_of(h));
      if (rank_of(h) == rank_of(leader)) {
        add(leader, h);
      } else if (receiver[r] < 0) {
        receiver[r] = static_cast<int>(h);
        add(leader, h);
      } else {
        add(static_cast<unsigned>(receiver[r]), h);
      }
    }
  }
  return out;
}

std::string Grid::map() const {
  std::string out = fmt::format(
      "la tile map ({}): {} ranks x {} units, {} x {} tiles of {} vertices ('*': a diagonal tile, whose owner "
      "leads its row and column group)\n",
      placement_ == Placement::cyclic ? "2D-Cyclic"
      : t_ > 1                        ? "2DT-Staggered"
                                      : "2D-Staggered",
      p_, t_, n_, n_, width_);
  for (unsigned i = 0; i < n_; ++i) {
    for (unsigned j = 0; j < n_; ++j) {
      const unsigned g = owner(i, j);
      out += fmt::format(" P{}T{}{}", rank_of(g), local_of(g), i == j ? '*' : ' ');
    }
    out += '\n';
  }
  return out;
}

}  // namespace courier::la
