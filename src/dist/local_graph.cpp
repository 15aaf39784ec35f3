#include "courier/dist/local_graph.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "courier/core/error.hpp"

namespace courier::dist {

namespace {

// A key per edge that orders like its weight (floats by their total order), or none: rows are
// sorted by (target, weight), so a partition does not depend on the order its edges arrived in.
std::vector<std::uint32_t> weight_keys(const graph::EdgeWeights& weights) {
  std::vector<std::uint32_t> keys;
  if (const auto* w = std::get_if<std::vector<std::uint32_t>>(&weights)) keys = *w;
  if (const auto* w = std::get_if<std::vector<float>>(&weights)) {
    keys.reserve(w->size());
    for (float x : *w) {
      const auto bits = std::bit_cast<std::uint32_t>(x);
      keys.push_back(bits & 0x80000000u ? ~bits : bits | 0x80000000u);
    }
  }
  return keys;
}

// Rows from (source, target) local pairs, sorted by (target, weight): two stable counting sorts
// (by target, then by source; linear, unlike sorting each row), then runs of one target, which only
// duplicate edges make, sorted by weight.
LocalCsr rows_of(local_t proxies, const std::vector<local_t>& from, const std::vector<local_t>& to,
                 const graph::EdgeWeights& weights) {
  const edge_t m = from.size();
  const auto counting_order = [&](const std::vector<local_t>& key, const std::vector<edge_t>* input,
                                  std::vector<edge_t>& start) {
    start.assign(static_cast<std::size_t>(proxies) + 1, 0);
    for (local_t k : key) ++start[k + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<edge_t> next(start.begin(), start.end() - 1), order(m);
    for (edge_t j = 0; j < m; ++j) {
      const edge_t i = input ? (*input)[j] : j;
      order[next[key[i]]++] = i;
    }
    return order;
  };
  LocalCsr csr;
  std::vector<edge_t> order;
  {
    std::vector<edge_t> by_target_start;
    const std::vector<edge_t> by_target = counting_order(to, nullptr, by_target_start);
    order = counting_order(from, &by_target, csr.offsets);
  }
  const std::vector<std::uint32_t> keys = weight_keys(weights);
  if (!keys.empty())
    for (edge_t a = 0; a < m;) {
      edge_t b = a + 1;
      while (b < m && from[order[b]] == from[order[a]] && to[order[b]] == to[order[a]]) ++b;
      if (b - a > 1)
        std::sort(order.begin() + static_cast<std::ptrdiff_t>(a), order.begin() + static_cast<std::ptrdiff_t>(b),
                  [&](edge_t x, edge_t y) { return keys[x] < keys[y]; });
      a = b;
    }
  csr.targets.resize(from.size());
  for (edge_t i = 0; i < order.size(); ++i) csr.targets[i] = to[order[i]];
  std::visit(
      [&](const auto& w) {
        using W = std::decay_t<decltype(w)>;
        if constexpr (!std::is_same_v<W, std::monostate>) {
          W sorted(w.size());
          for (edge_t i = 0; i < order.size(); ++i) sorted[i] = w[order[i]];
          csr.weights = std::move(sorted);
        }
      },
      weights);
  return csr;
}

}  // namespace

LocalGraph::LocalGraph(const PartitionPlan& plan, rank_t rank, graph::EdgeList edges, bool with_in_edges)
    : plan_(plan),
      rank_(rank),
      first_master_(plan.masters_begin(rank)),
      masters_(static_cast<local_t>(plan.masters_end(rank) - plan.masters_begin(rank))),
      masters_on_(static_cast<std::size_t>(plan.ranks())) {
  const vertex_t first = first_master_, last = plan.masters_end(rank), n = plan.vertices();
  auto mine = [&](vertex_t g) { return g >= first && g < last; };
  // A vertex-sized map from global to local ids (as Gemini keeps): marking the mirrors there
  // lists them in order without sorting, and each endpoint then maps in O(1).
  constexpr local_t kNone = std::numeric_limits<local_t>::max();
  std::vector<local_t> local_of(n, kNone);
  for (const graph::Edge& e : edges.edges) {
    if (e.src >= n || e.dst >= n)
      throw Error(fmt::format("LocalGraph: edge {} -> {} outside {} vertices", e.src, e.dst, n));
    if (!mine(e.src)) local_of[e.src] = 0;
    if (!mine(e.dst)) local_of[e.dst] = 0;
  }
  for (vertex_t g = 0; g < n; ++g)
    if (local_of[g] != kNone) mirror_ids_.push_back(g);
  if (static_cast<std::uint64_t>(masters_) + mirror_ids_.size() >= kNone)
    throw Error(fmt::format("rank {} would hold {} proxies, beyond 32-bit local ids: use more ranks", rank,
                            static_cast<std::uint64_t>(masters_) + mirror_ids_.size()));
  for (std::size_t k = 0; k < mirror_ids_.size(); ++k) local_of[mirror_ids_[k]] = static_cast<local_t>(masters_ + k);
  for (vertex_t g = first; g < last; ++g) local_of[g] = static_cast<local_t>(g - first);

  mirror_locals_.resize(mirror_ids_.size());
  std::iota(mirror_locals_.begin(), mirror_locals_.end(), masters_);
  mirror_bounds_.assign(static_cast<std::size_t>(plan.ranks()) + 1, 0);
  for (vertex_t g : mirror_ids_) ++mirror_bounds_[static_cast<std::size_t>(plan.master_of(g)) + 1];
  std::partial_sum(mirror_bounds_.begin(), mirror_bounds_.end(), mirror_bounds_.begin());

  std::vector<local_t> from(edges.edges.size()), to(edges.edges.size());
  for (std::size_t i = 0; i < edges.edges.size(); ++i) {
    from[i] = local_of[edges.edges[i].src];
    to[i] = local_of[edges.edges[i].dst];
  }
  local_of = {};
  const graph::EdgeWeights weights = std::move(edges.weights);
  edges = {};
  out_ = rows_of(proxies(), from, to, weights);
  if (with_in_edges) in_ = rows_of(proxies(), to, from, weights);
}

std::optional<local_t> LocalGraph::local_id(vertex_t global) const {
  if (global >= first_master_ && global - first_master_ < masters_) return static_cast<local_t>(global - first_master_);
  const auto it = std::lower_bound(mirror_ids_.begin(), mirror_ids_.end(), global);
  if (it == mirror_ids_.end() || *it != global) return std::nullopt;
  return static_cast<local_t>(masters_ + (it - mirror_ids_.begin()));
}

std::vector<std::vector<vertex_t>> LocalGraph::mirror_requests() const {
  std::vector<std::vector<vertex_t>> requests(static_cast<std::size_t>(ranks()));
  for (rank_t r = 0; r < ranks(); ++r)
    requests[r].assign(mirror_ids_.begin() + static_cast<std::ptrdiff_t>(mirror_bounds_[r]),
                       mirror_ids_.begin() + static_cast<std::ptrdiff_t>(mirror_bounds_[r + 1]));
  return requests;
}

void LocalGraph::set_mirrors_requested_by(rank_t peer, std::span<const vertex_t> globals) {
  std::vector<local_t>& masters = masters_on_[peer];
  masters.clear();
  masters.reserve(globals.size());
  for (vertex_t g : globals) {
    if (g < first_master_ || g - first_master_ >= masters_)
      throw Error(fmt::format("rank {} asked rank {} for vertex {}, which it does not master", peer, rank_, g));
    masters.push_back(static_cast<local_t>(g - first_master_));
  }
}

std::vector<LocalGraph> partition_in_memory(const graph::EdgeList& edges, Policy policy, rank_t ranks,
                                            bool with_in_edges) {
  std::vector<edge_t> degree(edges.num_vertices, 0);
  for (const graph::Edge& e : edges.edges) ++degree[policy == Policy::iec ? e.dst : e.src];
  const PartitionPlan plan(policy, ranks, degree);

  std::vector<graph::EdgeList> shares(static_cast<std::size_t>(ranks));
  std::vector<std::vector<edge_t>> picked(static_cast<std::size_t>(ranks));
  for (edge_t i = 0; i < edges.edges.size(); ++i) {
    const rank_t r = plan.edge_owner(edges.edges[i].src, edges.edges[i].dst);
    shares[r].edges.push_back(edges.edges[i]);
    picked[r].push_back(i);
  }
  std::vector<LocalGraph> parts;
  parts.reserve(shares.size());
  for (rank_t r = 0; r < ranks; ++r) {
    shares[r].num_vertices = edges.num_vertices;
    std::visit(
        [&](const auto& w) {
          using W = std::decay_t<decltype(w)>;
          if constexpr (!std::is_same_v<W, std::monostate>) {
            W mine;
            mine.reserve(picked[r].size());
            for (edge_t i : picked[r]) mine.push_back(w[i]);
            shares[r].weights = std::move(mine);
          }
        },
        edges.weights);
    parts.emplace_back(plan, r, std::move(shares[r]), with_in_edges);
  }
  for (rank_t r = 0; r < ranks; ++r) {
    const auto requests = parts[r].mirror_requests();
    for (rank_t owner = 0; owner < ranks; ++owner) parts[owner].set_mirrors_requested_by(r, requests[owner]);
  }
  return parts;
}

PartitionQuality quality(const LocalGraph& mine, const Collective& collective) {
  PartitionQuality q;
  const std::uint64_t proxies = collective.sum(mine.proxies());
  const std::uint64_t edges = collective.sum(mine.edges());
  const std::uint64_t largest = collective.max(std::uint64_t{mine.edges()});
  if (mine.global_vertices() == 0) return q;
  q.replication = static_cast<double>(proxies) / static_cast<double>(mine.global_vertices());
  const double mean = static_cast<double>(edges) / static_cast<double>(mine.ranks());
  q.edge_imbalance = mean == 0 ? 1.0 : static_cast<double>(largest) / mean;
  return q;
}

PartitionQuality quality(std::span<const LocalGraph> parts) {
  PartitionQuality q;
  if (parts.empty() || parts[0].global_vertices() == 0) return q;
  std::uint64_t proxies = 0, edges = 0, largest = 0;
  for (const LocalGraph& part : parts) {
    proxies += part.proxies();
    edges += part.edges();
    largest = std::max<std::uint64_t>(largest, part.edges());
  }
  q.replication = static_cast<double>(proxies) / static_cast<double>(parts[0].global_vertices());
  const double mean = static_cast<double>(edges) / static_cast<double>(parts.size());
  q.edge_imbalance = mean == 0 ? 1.0 : static_cast<double>(largest) / mean;
  return q;
}

void connect_mirrors(LocalGraph& graph, const Collective& collective) {
  const auto requests = graph.mirror_requests();
  std::vector<Bytes> outgoing(requests.size());
  for (std::size_t r = 0; r < requests.size(); ++r) {
    outgoing[r].resize(requests[r].size() * sizeof(vertex_t));
    if (!requests[r].empty()) std::memcpy(outgoing[r].data(), requests[r].data(), outgoing[r].size());
  }
  const std::vector<Bytes> asked = collective.exchange(std::move(outgoing));
  for (std::size_t peer = 0; peer < asked.size(); ++peer) {
    if (asked[peer].size() % sizeof(vertex_t) != 0) throw Error("dist: a malformed mirror request");
    std::vector<vertex_t> globals(asked[peer].size() / sizeof(vertex_t));
    if (!globals.empty()) std::memcpy(globals.data(), asked[peer].data(), asked[peer].size());
    graph.set_mirrors_requested_by(static_cast<rank_t>(peer), globals);
  }
}

}  // namespace courier::dist
