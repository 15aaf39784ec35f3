#pragma once
// PartitionPlan: where every vertex's master lives and which rank stores every edge. Masters are
// contiguous ranges of global ids, balanced by edges (Gemini's rule: each range carries about
// (edges + alpha * vertices) / ranks); the policy decides where edges go. A plan is a few numbers
// per rank, so every rank holds the same plan and answers any lookup alone.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "courier/core/rank.hpp"
#include "courier/graph/types.hpp"

namespace courier::dist {

using graph::edge_t;
using graph::vertex_t;

enum class Policy : std::uint8_t {
  oec,   // outgoing edge cut: an edge lives with its source's master
  iec,   // incoming edge cut: an edge lives with its destination's master
  cvc,   // Cartesian vertex cut: 2D blocks of the adjacency matrix over a near-square rank grid
  hash,  // hash vertex cut: an edge lives on a rank chosen by hashing its endpoints
};

const char* to_string(Policy policy);
// "oec", "iec", "cvc" or "hash"; InputError naming the choices otherwise.
Policy parse_policy(std::string_view name);

class PartitionPlan {
 public:
  // `degree[v]` is v's out-degree (iec: in-degree); masters are cut to balance
  // degree + alpha per vertex, alpha = 8 * (ranks - 1) as in Gemini.
  PartitionPlan(Policy policy, rank_t ranks, std::span<const edge_t> degree);
  // The same cut from a CSR's row offsets (n + 1 entries, offsets[v + 1] - offsets[v] = v's
  // out-degree), by binary search: no pass over the vertices (the weight before a vertex is its
  // offset plus alpha per vertex before it).
  static PartitionPlan by_row_offsets(Policy policy, rank_t ranks, std::span<const edge_t> offsets);
  // The same cut made by ranks that each hold one block of the degrees (iec's in-degrees, summed
  // where no rank holds them all): `degree` is vertices [first, first + degree.size()), `before`
  // the block_weight of every block before it and `total` of all. Gives (r, bounds[r]) for each
  // cut, 0 < r < ranks, falling in this block: each falls in one block, so every block's together
  // are the plan's bounds, the same as from the whole degree array.
  template <class C>
  static double block_weight(rank_t ranks, std::span<const C> degree);
  template <class C>
  static std::vector<std::pair<rank_t, vertex_t>> cuts_in_block(rank_t ranks, vertex_t first,
                                                                 std::span<const C> degree, double before,
                                                                 double total);
  // Equal vertex ranges, for when degrees are not known.
  PartitionPlan(Policy policy, rank_t ranks, vertex_t vertices);
  // Rank r masters [bounds[r], bounds[r+1]) (a plan written down: a partitioned .csr's). Throws
  // Error unless the bounds start at 0 and never decrease.
  PartitionPlan(Policy policy, std::vector<vertex_t> bounds);

  Policy policy() const { return policy_; }
  rank_t ranks() const { return static_cast<rank_t>(bounds_.size() - 1); }
  vertex_t vertices() const { return bounds_.back(); }

  // Inline: the shuffles ask one of these for every edge (out of line, master_of alone was 19% of
  // the instructions of an iec run on kron:17).
  rank_t master_of(vertex_t v) const {
    // The last rank whose range starts at or before v (empty ranges are skipped by upper_bound).
    return static_cast<rank_t>(std::upper_bound(bounds_.begin(), bounds_.end() - 1, v) - bounds_.begin() - 1);
  }
  vertex_t masters_begin(rank_t r) const { return bounds_[r]; }
  vertex_t masters_end(rank_t r) const { return bounds_[r + 1]; }
  rank_t edge_owner(vertex_t src, vertex_t dst) const {
    switch (policy_) {
      case Policy::oec:
        return master_of(src);
      case Policy::iec:
        return master_of(dst);
      case Policy::cvc: {
        const rank_t columns = grid_columns();
        return (master_of(src) / columns) * columns + master_of(dst) % columns;
      }
      case Policy::hash:
        return static_cast<rank_t>(mix(src * 0x9e3779b97f4a7c15ULL ^ dst) % static_cast<std::uint64_t>(ranks()));
    }
    return 0;
  }
  std::span<const vertex_t> bounds() const { return bounds_; }

  // The rank grid of cvc: rows x columns = ranks, rows <= columns, as square as possible.
  rank_t grid_rows() const { return grid_rows_; }
  rank_t grid_columns() const { return ranks() / grid_rows_; }

 private:
  static std::uint64_t mix(std::uint64_t x) {  // a strong 64-bit finaliser: spreads edges evenly
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }

  Policy policy_;
  std::vector<vertex_t> bounds_;  // ranks + 1 entries: rank r masters [bounds_[r], bounds_[r+1])
  rank_t grid_rows_ = 1;
};

}  // namespace courier::dist
