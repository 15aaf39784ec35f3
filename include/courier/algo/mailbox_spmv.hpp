#pragma once
// Sparse matrix times dense vector through the mailbox, with delegates (paper 001, section V-C
// and Algorithm 2). The matrix is a graph's adjacency: A[u][v] is the weight of edge u -> v (1
// without weights; parallel edges add), so y = A x gives y[u] = sum over u's out-edges of
// weight * x[v]. x and y are spread round robin (RoundRobin), column v of A lives with x[v].
//
// An ordinary nonzero a_uv is kept by v's owner, which multiplies it by x[v] and sends the
// product to u's owner (one message per nonzero). Delegated indices (degree above the threshold)
// have a copy of x and a partial y on every rank: a nonzero in a delegated column is kept by the
// owner of its row, one in a delegated row by the owner of its column, and neither sends a
// message; at the end the partial y of the delegates are summed over the ranks (an all-reduce:
// partials to the delegate's owner, the total broadcast back).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "courier/algo/mailbox_delegates.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/stats.hpp"

namespace courier::algo {

struct MailboxSpmvOptions {
  mailbox::Config mailbox;  // the multiplication's mailbox (the set-up uses the same, without echo)
  DelegatePolicy delegates;
};

class MailboxMatrix {
 public:
  // Collective: every rank passes its own share of the edges (any split) and their weights
  // (empty: every weight is 1; otherwise one per edge). Moves each nonzero to the rank that keeps
  // it. Builds four mailboxes (four endpoints) on `runtime`, in the same order on every rank.
  MailboxMatrix(comm::Runtime& runtime, std::span<const graph::Edge> my_edges, std::span<const double> my_weights,
                graph::vertex_t num_vertices, const MailboxSpmvOptions& options);
  ~MailboxMatrix();
  MailboxMatrix(const MailboxMatrix&) = delete;
  MailboxMatrix& operator=(const MailboxMatrix&) = delete;

  // Collective: y = A x. my_x[i] is x[i * P + rank]; the result has the same layout, complete
  // (delegates included) on every rank. May be called any number of times.
  std::vector<double> multiply(std::span<const double> my_x);

  graph::vertex_t num_vertices() const;
  const Delegates& delegates() const;
  std::uint64_t local_nonzeros() const;  // nonzeros this rank keeps
  mailbox::Stats stats() const;          // this rank's multiplication mailbox, over every multiply
  const mailbox::Stats& setup_stats() const;  // degree count, announcements and nonzero moves
  double setup_seconds() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace courier::algo
