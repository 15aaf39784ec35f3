#pragma once
// Delegates (paper 001 section V-B, after Pearce, Gokhale and Amato, SC'14): the vertices whose
// degree is above a threshold are replicated on every rank, and each of their edges is stored
// with the owner of its other endpoint, so no rank holds a hub's edges alone. The applications
// keep a delegate's copies equal with broadcasts (cc) or an all-reduce (spmv).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/stats.hpp"

namespace courier::algo {

// Which vertices become delegates: those whose degree (in + out, as Algorithm 1 counts it) is
// above `threshold`. Unset: automatic, 16 times the mean degree (paper 001 scales the threshold
// with the largest expected degree; this keeps it a fixed multiple of the typical one).
struct DelegatePolicy {
  std::optional<std::uint64_t> threshold;
  static DelegatePolicy none() { return {UINT64_MAX}; }
  static DelegatePolicy above(std::uint64_t degree) { return {degree}; }
};

// The delegates, the same list in the same order on every rank.
class Delegates {
 public:
  static constexpr std::uint32_t npos = UINT32_MAX;

  Delegates() = default;
  Delegates(std::vector<graph::vertex_t> ids, std::uint64_t threshold);  // sorts ids

  std::size_t size() const { return ids_.size(); }
  const std::vector<graph::vertex_t>& ids() const { return ids_; }
  graph::vertex_t id(std::uint32_t index) const { return ids_[index]; }
  // The delegate's index in ids(), or npos if v is not a delegate. Asked for every edge end, so
  // it is an open-addressing hash table at most a quarter full (about one probe).
  std::uint32_t index_of(graph::vertex_t v) const {
    if (ids_.empty()) return npos;
    for (std::size_t at = (v * 0x9E3779B97F4A7C15ull) >> table_shift_;; at = (at + 1) & (table_.size() - 1)) {
      const Entry& e = table_[at];
      if (e.id == v) return e.index;
      if (e.id == graph::kNoVertex) return npos;
    }
  }
  bool contains(graph::vertex_t v) const { return index_of(v) != npos; }
  std::uint64_t threshold() const { return threshold_; }

 private:
  struct Entry {
    graph::vertex_t id = graph::kNoVertex;  // kNoVertex: empty
    std::uint32_t index = npos;
  };

  std::vector<graph::vertex_t> ids_;
  std::uint64_t threshold_ = UINT64_MAX;
  std::vector<Entry> table_;
  int table_shift_ = 63;
};

// Collective: counts every vertex's degree over the edges of all ranks (mailbox_degrees), and
// every rank learns the vertices above the policy's threshold through broadcasts from their
// owners. Adds what its mailboxes did to `stats` when given. Build the mailboxes of the steps that
// follow before calling it (see mailbox_shuffle.hpp).
Delegates find_delegates(comm::Runtime& runtime, std::span<const graph::Edge> my_edges, graph::vertex_t num_vertices,
                         const DelegatePolicy& policy, const mailbox::Config& config, mailbox::Stats* stats = nullptr);

// The automatic threshold for `edges` edges over `vertices` vertices.
std::uint64_t automatic_delegate_threshold(std::uint64_t edges, graph::vertex_t vertices);

}  // namespace courier::algo
