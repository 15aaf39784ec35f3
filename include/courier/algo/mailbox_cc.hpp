#pragma once
// Connected components through the mailbox (paper 001, section V-B): asynchronous min-label
// propagation with delegates. Every vertex starts with its own id as label; when a vertex's label
// drops, it offers the new label to its neighbours -- in place when the neighbour lives on this
// rank, by async_send to the owner otherwise. Callbacks only lower labels and queue their
// vertices; the rank's own loop offers what is queued and calls test_empty when nothing is left
// (a work queue of its own, as YGM's applications keep). Delegates (high-degree vertices,
// replicated on every rank) take labels from their local edges and, when a rank lowers one, it
// tells every rank with one async_bcast.
// The result equals graph::reference::connected_components: edge directions are ignored and
// every vertex ends with the smallest vertex id of its component.
#include <cstdint>
#include <span>
#include <vector>

#include "courier/algo/mailbox_delegates.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/stats.hpp"

namespace courier::algo {

struct MailboxCcOptions {
  mailbox::Config mailbox;  // the propagation's mailbox (the set-up uses the same, without echo)
  DelegatePolicy delegates;
};

struct MailboxComponents {
  std::vector<graph::vertex_t> labels;  // labels[i]: label of vertex i * P + rank (RoundRobin)
  std::uint64_t delegates = 0;          // how many vertices were delegated (same on every rank)
  std::uint64_t delegate_threshold = 0;
  std::uint64_t label_changes = 0;      // labels this rank lowered, delegate copies included
  mailbox::Stats stats;                 // this rank's propagation mailbox
  mailbox::Stats setup_stats;           // this rank's degree count, announcements and edge moves
  double setup_seconds = 0;             // delegates found and edges moved to where they live
  double seconds = 0;                   // propagation: first offer to the end of test_empty
};

// Collective: every rank passes its own share of the edges (any split). Builds four mailboxes
// (four endpoints) on `runtime`, in the same order on every rank.
MailboxComponents mailbox_cc(comm::Runtime& runtime, std::span<const graph::Edge> my_edges,
                             graph::vertex_t num_vertices, const MailboxCcOptions& options);

}  // namespace courier::algo
