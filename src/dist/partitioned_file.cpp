#include "courier/dist/partitioned_file.hpp"

#include <vector>

#include "courier/dist/local_graph.hpp"
#include "courier/graph/partitioned_csr.hpp"

namespace courier::dist {

namespace {

std::variant<std::monostate, std::span<const std::uint32_t>, std::span<const float>> weights_view(
    const graph::EdgeWeights& weights) {
  return std::visit(
      [](const auto& w) -> std::variant<std::monostate, std::span<const std::uint32_t>, std::span<const float>> {
        if constexpr (std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          return std::monostate{};
        else
          return std::span<const typename std::decay_t<decltype(w)>::value_type>(w);
      },
      weights);
}

}  // namespace

void write_partitioned(const std::string& path, const graph::EdgeList& edges, Policy policy, rank_t ranks) {
  graph::PartitionedCsrHeader header;
  header.parts = static_cast<std::uint32_t>(ranks);
  header.policy = to_string(policy);
  header.num_vertices = edges.num_vertices;
  header.num_edges = edges.edges.size();
  header.weight_type = edges.weight_type();
  {  // the default source of a run: the most out-edges, the smallest id on ties
    std::vector<edge_t> degree(edges.num_vertices, 0);
    for (const graph::Edge& e : edges.edges) ++degree[e.src];
    for (vertex_t v = 1; v < degree.size(); ++v)
      if (degree[v] > degree[header.largest_out_degree]) header.largest_out_degree = v;
  }
  const std::vector<LocalGraph> parts = partition_in_memory(edges, policy, ranks, true);
  const std::span<const vertex_t> bounds = parts.front().plan().bounds();
  header.bounds.assign(bounds.begin(), bounds.end());

  // The masters each peer mirrors, flattened: peer q's are requested[b[q] .. b[q+1]).
  std::vector<std::vector<std::uint64_t>> request_bounds(parts.size());
  std::vector<std::vector<std::uint32_t>> requested(parts.size());
  std::vector<std::vector<graph::edge_t>> offsets(parts.size()), in_offsets(parts.size());  // 64-bit in the file
  std::vector<std::vector<vertex_t>> mirror_ids(parts.size());  // 64-bit in the file
  std::vector<graph::CsrPartView> views;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const LocalGraph& part = parts[p];
    request_bounds[p].push_back(0);
    for (rank_t q = 0; q < ranks; ++q) {
      const auto masters = part.masters_mirrored_on(q);
      requested[p].insert(requested[p].end(), masters.begin(), masters.end());
      request_bounds[p].push_back(requested[p].size());
    }
    mirror_ids[p] = part.mirror_ids();
    offsets[p] = part.out().offsets.widened();
    in_offsets[p] = part.in().offsets.widened();
    views.push_back({.mirror_ids = mirror_ids[p],
                     .request_bounds = request_bounds[p],
                     .requested = requested[p],
                     .offsets = offsets[p],
                     .targets = part.out().targets,
                     .weights = weights_view(part.out().weights),
                     .in_offsets = in_offsets[p],
                     .in_sources = part.in().targets,
                     .in_weights = weights_view(part.in().weights)});
  }
  graph::write_partitioned_csr(path, header, views);
}

}  // namespace courier::dist
