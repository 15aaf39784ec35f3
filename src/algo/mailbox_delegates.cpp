#include "courier/algo/mailbox_delegates.hpp"

#include <algorithm>

#include "courier/algo/mailbox_degree.hpp"
#include "courier/mailbox/round_robin.hpp"
#include "courier/mailbox/mailbox.hpp"

namespace courier::algo {

Delegates::Delegates(std::vector<graph::vertex_t> ids, std::uint64_t threshold)
    : ids_(std::move(ids)), threshold_(threshold) {
  std::sort(ids_.begin(), ids_.end());
  int bits = 2;
  while ((std::size_t{1} << bits) < 4 * ids_.size()) ++bits;
  table_shift_ = 64 - bits;
  table_.assign(std::size_t{1} << bits, Entry{});
  for (std::uint32_t i = 0; i < ids_.size(); ++i) {
    std::size_t at = (ids_[i] * 0x9E3779B97F4A7C15ull) >> table_shift_;
    while (table_[at].id != graph::kNoVertex) at = (at + 1) & (table_.size() - 1);
    table_[at] = {ids_[i], i};
  }
}

std::uint64_t automatic_delegate_threshold(std::uint64_t edges, graph::vertex_t vertices) {
  if (vertices == 0) return UINT64_MAX;
  return 16 * (2 * edges / vertices);  // 16 times the mean of in + out degree
}

namespace {

// Either this rank's edge count (for the automatic threshold) or a delegate's id. The kind
// travels with the message: a rank that leaves wait_empty first may announce delegates while
// another still waits for the counts to be over.
struct Announcement {
  enum Kind : std::uint64_t { edge_count, delegate };
  std::uint64_t kind;
  std::uint64_t value;
};

}  // namespace

Delegates find_delegates(comm::Runtime& runtime, std::span<const graph::Edge> my_edges, graph::vertex_t num_vertices,
                         const DelegatePolicy& policy, const mailbox::Config& config, mailbox::Stats* stats) {
  std::uint64_t edges = 0;
  std::vector<graph::vertex_t> ids;
  // Built before the degree count's mailbox, so that it exists on every rank before any rank
  // leaves the count and announces (see mailbox_shuffle.hpp).
  mailbox::Mailbox<Announcement> box(
      runtime,
      [&](auto&, const Announcement& a) {
        if (a.kind == Announcement::edge_count)
          edges += a.value;
        else
          ids.push_back(a.value);
      },
      config);
  const MailboxDegrees degrees = mailbox_degrees(runtime, my_edges, num_vertices, config);
  if (stats) *stats += degrees.stats;
  std::uint64_t threshold = UINT64_MAX;
  if (policy.threshold) {
    threshold = *policy.threshold;
  } else {
    box.async_bcast({Announcement::edge_count, my_edges.size()});
    box.wait_empty();
    threshold = automatic_delegate_threshold(edges, num_vertices);
  }
  const mailbox::RoundRobin own(runtime.ranks(), runtime.rank(), num_vertices);
  for (std::size_t i = 0; i < degrees.counts.size(); ++i)
    if (degrees.counts[i] > threshold) box.async_bcast({Announcement::delegate, own.global(i)});
  box.wait_empty();
  if (stats) *stats += box.local_stats();
  return Delegates(std::move(ids), threshold);
}

}  // namespace courier::algo
