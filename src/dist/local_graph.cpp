#include "courier/dist/local_graph.hpp"

#include <algorithm>
#include <bit>
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

// Rows from (source, target) local pairs by counting sort; rows sorted by (target, weight).
LocalCsr rows_of(local_t proxies, const std::vector<local_t>& from, const std::vector<local_t>& to,
                 const graph::EdgeWeights& weights) {
  LocalCsr csr;
  csr.offsets.assign(static_cast<std::size_t>(proxies) + 1, 0);
  for (local_t s : from) ++csr.offsets[s + 1];
  std::partial_sum(csr.offsets.begin(), csr.offsets.end(), csr.offsets.begin());
  std::vector<edge_t> order(from.size());
  {
    std::vector<edge_t> next(csr.offsets.begin(), csr.offsets.end() - 1);
    for (edge_t i = 0; i < from.size(); ++i) order[next[from[i]]++] = i;
  }
  const std::vector<std::uint32_t> keys = weight_keys(weights);
  for (local_t v = 0; v < proxies; ++v)
    std::sort(order.begin() + static_cast<std::ptrdiff_t>(csr.offsets[v]),
              order.begin() + static_cast<std::ptrdiff_t>(csr.offsets[v + 1]), [&](edge_t a, edge_t b) {
                if (to[a] != to[b]) return to[a] < to[b];
                return !keys.empty() && keys[a] < keys[b];
              });
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

LocalGraph::LocalGraph(const PartitionPlan& plan, rank_t rank, const graph::EdgeList& edges, bool with_in_edges)
    : plan_(plan),
      rank_(rank),
      first_master_(plan.masters_begin(rank)),
      masters_(static_cast<local_t>(plan.masters_end(rank) - plan.masters_begin(rank))),
      masters_on_(static_cast<std::size_t>(plan.ranks())) {
  const vertex_t first = first_master_, last = plan.masters_end(rank);
  auto mine = [&](vertex_t g) { return g >= first && g < last; };
  for (const graph::Edge& e : edges.edges) {
    if (e.src >= plan.vertices() || e.dst >= plan.vertices())
      throw Error(fmt::format("LocalGraph: edge {} -> {} outside {} vertices", e.src, e.dst, plan.vertices()));
    if (!mine(e.src)) mirror_ids_.push_back(e.src);
    if (!mine(e.dst)) mirror_ids_.push_back(e.dst);
  }
  std::sort(mirror_ids_.begin(), mirror_ids_.end());
  mirror_ids_.erase(std::unique(mirror_ids_.begin(), mirror_ids_.end()), mirror_ids_.end());
  if (static_cast<std::uint64_t>(masters_) + mirror_ids_.size() > std::numeric_limits<local_t>::max())
    throw Error(fmt::format("rank {} would hold {} proxies, beyond 32-bit local ids: use more ranks", rank,
                            static_cast<std::uint64_t>(masters_) + mirror_ids_.size()));

  mirror_locals_.resize(mirror_ids_.size());
  std::iota(mirror_locals_.begin(), mirror_locals_.end(), masters_);
  mirror_bounds_.assign(static_cast<std::size_t>(plan.ranks()) + 1, 0);
  for (vertex_t g : mirror_ids_) ++mirror_bounds_[static_cast<std::size_t>(plan.master_of(g)) + 1];
  std::partial_sum(mirror_bounds_.begin(), mirror_bounds_.end(), mirror_bounds_.begin());

  std::vector<local_t> from(edges.edges.size()), to(edges.edges.size());
  for (std::size_t i = 0; i < edges.edges.size(); ++i) {
    from[i] = *local_id(edges.edges[i].src);
    to[i] = *local_id(edges.edges[i].dst);
  }
  out_ = rows_of(proxies(), from, to, edges.weights);
  if (with_in_edges) in_ = rows_of(proxies(), to, from, edges.weights);
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
    parts.emplace_back(plan, r, shares[r], with_in_edges);
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

}  // namespace courier::dist
