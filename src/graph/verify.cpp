#include "courier/graph/verify.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <fmt/format.h>

namespace courier::graph::verify {

namespace {

// Collects the first few problems and counts the rest.
class Findings {
 public:
  template <class... Args>
  void add(fmt::format_string<Args...> format, Args&&... args) {
    if (count_++ < kShown) text_ += fmt::format(format, std::forward<Args>(args)...) + "\n";
  }
  std::string result() const {
    if (count_ <= kShown) return text_;
    return text_ + fmt::format("... and {} more\n", count_ - kShown);
  }

 private:
  static constexpr std::uint64_t kShown = 5;
  std::uint64_t count_ = 0;
  std::string text_;
};

std::string size_mismatch(const char* what, std::size_t expected, std::size_t got) {
  return fmt::format("{}: {} values for {} vertices\n", what, got, expected);
}

// The shared shape of the bfs and sssp checks: distances with an edge length function.
template <class Dist, class Length>
std::string check_distances(const Csr& graph, vertex_t source, std::span<const Dist> dist,
                            Dist unreached, Length length, const char* what) {
  const vertex_t n = graph.num_vertices();
  if (dist.size() != n) return size_mismatch(what, n, dist.size());
  Findings findings;
  if (source < n && dist[source] != Dist{0}) findings.add("{} of the source {} is {}, not 0", what, source, dist[source]);
  std::vector<bool> justified(n, false);
  if (source < n) justified[source] = true;
  for (vertex_t u = 0; u < n; ++u) {
    if (dist[u] == unreached) continue;
    const auto row = graph.neighbors(u);
    for (std::size_t i = 0; i < row.size(); ++i) {
      const vertex_t v = row[i];
      const Dist through_u = dist[u] + length(u, i);
      if (dist[v] == unreached || dist[v] > through_u)
        findings.add("{} of {} is {}, but the edge from {} ({} {}) gives {}", what, v,
                     dist[v] == unreached ? std::string("unreached") : fmt::format("{}", dist[v]),
                     u, what, dist[u], through_u);
      else if (dist[v] == through_u)
        justified[v] = true;
    }
  }
  for (vertex_t v = 0; v < n; ++v)
    if (dist[v] != unreached && !justified[v])
      findings.add("{} of {} is {}, but no in-edge leads to it with that {}", what, v, dist[v], what);
  return findings.result();
}

vertex_t find_root(std::vector<vertex_t>& parent, vertex_t v) {
  while (parent[v] != v) v = parent[v] = parent[parent[v]];
  return v;
}

}  // namespace

std::string bfs_levels(const Csr& graph, vertex_t source, std::span<const std::uint64_t> level) {
  return check_distances<std::uint64_t>(graph, source, level, reference::kUnreached,
                                        [](vertex_t, std::size_t) { return std::uint64_t{1}; }, "level");
}

std::string sssp(const Csr& graph, vertex_t source, const reference::SsspResult& result) {
  if (result.weight_type == WeightType::u32) {
    const auto weights = graph.weights_as<std::uint32_t>();
    const auto offsets = graph.offsets();
    return check_distances<std::uint64_t>(
        graph, source, result.dist_int, reference::kUnreached,
        [&](vertex_t u, std::size_t i) { return std::uint64_t{weights[offsets[u] + i]}; }, "distance");
  }
  // Float weights: distances are sums in double, so compare exactly what the same sums give.
  const auto weights = graph.weights_as<float>();
  const auto offsets = graph.offsets();
  return check_distances<double>(
      graph, source, result.dist_real, std::numeric_limits<double>::infinity(),
      [&](vertex_t u, std::size_t i) { return static_cast<double>(weights[offsets[u] + i]); }, "distance");
}

std::string components(const Csr& graph, std::span<const vertex_t> label) {
  const vertex_t n = graph.num_vertices();
  if (label.size() != n) return size_mismatch("component label", n, label.size());
  Findings findings;
  std::vector<vertex_t> parent(n);
  std::iota(parent.begin(), parent.end(), vertex_t{0});
  for (vertex_t u = 0; u < n; ++u) {
    for (vertex_t v : graph.neighbors(u)) {
      if (label[u] != label[v])
        findings.add("edge {} -> {} joins labels {} and {}", u, v, label[u], label[v]);
      const vertex_t a = find_root(parent, u), b = find_root(parent, v);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  vertex_t labels = 0, components = 0;
  for (vertex_t v = 0; v < n; ++v) {
    if (label[v] >= n || label[v] > v || label[label[v]] != label[v])
      findings.add("vertex {} has label {}, not the smallest id of its component", v, label[v]);
    labels += label[v] == v;
    components += find_root(parent, v) == v;
  }
  if (labels != components)
    findings.add("{} labels, but the graph has {} weakly connected components", labels, components);
  return findings.result();
}

std::string pagerank(const Csr& graph, std::span<const double> rank, double damping,
                     double l1_tolerance) {
  const vertex_t n = graph.num_vertices();
  if (rank.size() != n) return size_mismatch("rank", n, rank.size());
  if (n == 0) return {};
  Findings findings;
  const double sum = std::accumulate(rank.begin(), rank.end(), 0.0);
  if (std::abs(sum - 1.0) > 1e-6) findings.add("ranks sum to {}, not 1", sum);

  // One step of the same definition: what the ranks are if they are its fixed point.
  double dangling = 0;
  std::vector<double> next(n, 0.0);
  for (vertex_t u = 0; u < n; ++u) {
    const edge_t degree = graph.degree(u);
    if (degree == 0) {
      dangling += rank[u];
      continue;
    }
    const double share = rank[u] / static_cast<double>(degree);
    for (vertex_t v : graph.neighbors(u)) next[v] += share;
  }
  const double base = (1.0 - damping) / static_cast<double>(n) + damping * dangling / static_cast<double>(n);
  double change = 0;
  for (vertex_t v = 0; v < n; ++v) change += std::abs(base + damping * next[v] - rank[v]);
  if (!(change <= l1_tolerance))
    findings.add("one more PageRank step changes the ranks by {:.3g} (L1), above {:.3g}", change, l1_tolerance);
  return findings.result();
}

std::string equal(std::span<const std::uint64_t> expected, std::span<const std::uint64_t> got,
                  const char* what) {
  if (expected.size() != got.size()) return size_mismatch(what, expected.size(), got.size());
  Findings findings;
  for (std::size_t v = 0; v < expected.size(); ++v)
    if (expected[v] != got[v]) findings.add("{} of {}: expected {}, got {}", what, v, expected[v], got[v]);
  return findings.result();
}

std::string close(std::span<const double> expected, std::span<const double> got, double tolerance,
                  const char* what) {
  if (expected.size() != got.size()) return size_mismatch(what, expected.size(), got.size());
  double l1 = 0;
  for (std::size_t v = 0; v < expected.size(); ++v) l1 += std::abs(expected[v] - got[v]);
  if (l1 <= tolerance) return {};
  return fmt::format("{}: L1 distance {:.3g} from the reference, above {:.3g}\n", what, l1, tolerance);
}

}  // namespace courier::graph::verify
