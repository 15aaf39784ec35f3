#pragma once
// Grid: 2D thread-based partitioning and 2DT-Staggered placement (paper 003, section 4, Table 1,
// Algorithm 1). The adjacency matrix A has rows = destinations and columns = sources, so y = A x
// pulls along in-edges: y[v] combines x[u] over the edges u -> v. For p ranks of t threads it is
// cut into N x N tiles, N = p * t; tile (i, j) holds the edges from segment j to segment i, and
// each of the N global threads owns N tiles. Segment i is vertices [i * width, (i + 1) * width).
//
// 2DT-Staggered: thread ids are dealt cyclically over the tiles, t_r to a row, and each block of
// t_c rows is shifted by r_t more, so that every global thread owns exactly one diagonal tile. The
// owner of diagonal tile i leads row group i and column group i: it owns segments x_i, y_i, v_i,
// sends x_i to the followers of column group i and accumulates their partial y_i. Global thread g
// is local thread g / p of rank g mod p (Fig. 3b), so the leaders of one rank are t apart.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "courier/core/rank.hpp"
#include "courier/graph/types.hpp"

namespace courier::la {

// How tiles are dealt to the N units (global threads, or processes in the MPI+X mode):
//   staggered  Algorithm 1: 2DT-Staggered over threads, 2D-Staggered over processes (Fig. 1c):
//              every unit owns one diagonal tile and leads its row and column group;
//   cyclic     2D-Cyclic (Fig. 1b): unit (i mod r) * c + (j mod c) for the r x c factorisation
//              of N; a unit may lead several segments, or none.
enum class Placement { staggered, cyclic };

// Table 1's Factorize: {r, c} with r * c = n, r <= c and c - r as small as it can be.
std::pair<unsigned, unsigned> factorize(unsigned n);

class Grid {
 public:
  // p ranks of t units (threads) over `vertices` vertices.
  Grid(rank_t ranks, unsigned threads, graph::vertex_t vertices, Placement placement = Placement::staggered);

  unsigned size() const { return n_; }  // N = p * t: row (and column) groups
  rank_t ranks() const { return p_; }
  unsigned threads() const { return t_; }  // units per rank
  Placement placement() const { return placement_; }
  graph::vertex_t vertices() const { return vertices_; }

  // Segments: vertices [begin(i), end(i)).
  graph::vertex_t width() const { return width_; }
  graph::vertex_t begin(unsigned i) const { return std::min(vertices_, width_ * i); }
  graph::vertex_t end(unsigned i) const { return std::min(vertices_, width_ * (i + 1)); }
  // v / width, by a multiplication where that is exact (v below 2^32): loading asks it per edge.
  unsigned segment_of(graph::vertex_t v) const {
    if (reciprocal_ != 0 && v <= 0xffffffffu)
      return static_cast<unsigned>((static_cast<unsigned __int128>(v) * reciprocal_) >> 64);
    return static_cast<unsigned>(v / width_);
  }

  // The global thread that owns tile (i, j), and where a global thread lives.
  unsigned owner(unsigned i, unsigned j) const { return owner_[static_cast<std::size_t>(i) * n_ + j]; }
  unsigned leader(unsigned i) const { return owner(i, i); }
  rank_t rank_of(unsigned global) const { return static_cast<rank_t>(global % static_cast<unsigned>(p_)); }
  unsigned local_of(unsigned global) const { return global / static_cast<unsigned>(p_); }
  unsigned global(rank_t rank, unsigned local) const { return local * static_cast<unsigned>(p_) + rank; }

  // Table 1's counts: ranks and threads per row / column group.
  unsigned ranks_per_row() const { return p_r_; }
  unsigned ranks_per_column() const { return p_c_; }
  unsigned threads_per_row() const { return t_r_; }
  unsigned threads_per_column() const { return t_c_; }

  // How many segments each unit hands each other an iteration, for NUMA-aware placement
  // (core/placement.hpp's exchange; unit rank * threads + local): every follower's partial y_i to
  // the leader of row group i, and x_j from its leader to each follower on its rank and to the
  // first on every other rank, which the others there read in place.
  std::vector<double> exchange() const;

  // The tile map as Fig. 3b draws it: one line per row group, "P<rank>T<thread>" per tile, the
  // diagonal (leaders) marked with '*'.
  std::string map() const;

 private:
  bool diagonal_is_a_permutation() const;

  rank_t p_;
  unsigned t_, n_;
  Placement placement_;
  unsigned p_r_, p_c_, t_r_, t_c_;
  graph::vertex_t vertices_, width_;
  std::uint64_t reciprocal_ = 0;      // floor((2^64 - 1) / width) + 1 for 2 <= width <= 2^32, else 0
  std::vector<std::uint32_t> owner_;  // N x N, row-major
};

}  // namespace courier::la
