#pragma once
// Degree counting through the mailbox (paper 001, Algorithm 1): vertices are owned round robin
// (v mod P); for every edge (u, v) a rank sends u to u's owner and v to v's owner, and the owner's
// callback counts. So a vertex's count is its in- plus out-degree, self loops counting twice.
// DegreeCount::out sends only u: the out-degree, as the other engines' `degree` counts.
#include <cstdint>
#include <span>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/core/fast_divide.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/stats.hpp"

namespace courier::algo {

struct MailboxDegrees {
  std::vector<std::uint64_t> counts;  // counts[i]: degree of vertex i * P + rank
  mailbox::Stats stats;                // this rank's mailbox
  double seconds = 0;                  // from the first send to the end of wait_empty
};

enum class DegreeCount {
  in_and_out,  // Algorithm 1: a message per edge end (delegate thresholds, the bench)
  out,         // a message per edge, to its source's owner
};

// Collective: every rank passes its own share of the edges (any split). Builds one mailbox (one
// endpoint) on `runtime`.
MailboxDegrees mailbox_degrees(comm::Runtime& runtime, std::span<const graph::Edge> my_edges,
                               graph::vertex_t num_vertices, const mailbox::Config& config,
                               DegreeCount count = DegreeCount::in_and_out);

// The owner and local index of a vertex under Algorithm 1's round-robin ownership.
inline int degree_owner(graph::vertex_t v, int ranks) { return static_cast<int>(v % static_cast<graph::vertex_t>(ranks)); }
// The same, by a FastDivisor of P: no hardware divide per message (the hot loops use these).
inline int degree_owner(graph::vertex_t v, const FastDivisor& ranks) { return static_cast<int>(ranks.remainder(v)); }
inline std::size_t degree_local_index(graph::vertex_t v, const FastDivisor& ranks) { return static_cast<std::size_t>(ranks.quotient(v)); }

}  // namespace courier::algo
