// bc: betweenness centrality (Brandes) from a set of sources, following edge directions, counting
// shortest paths by edges (a repeated edge is another path). Run by the graph language's program
// (dsl/programs/bc.sp) on the dsl engine; the sequential reference is here, and a result is
// checked against it.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "courier/algo/algorithms.hpp"
#include "courier/core/error.hpp"
#include "courier/dsl/programs/bc.hpp"
#include "courier/engines/dsl.hpp"
#include "describe.hpp"

namespace courier::algo {

namespace {

// --sources: vertex ids separated by commas.
std::vector<graph::vertex_t> parse_sources(const std::string& text) {
  std::vector<graph::vertex_t> sources;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    const std::string item = text.substr(begin, end - begin);
    if (item.empty() || item.size() > 18 ||
        !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw InputError(fmt::format("--sources {}: expected vertex ids separated by commas, like 0,5,9", text));
    sources.push_back(std::stoull(item));
    begin = end + 1;
  }
  return sources;
}

// Brandes from each source: shortest-path counts level by level, then dependencies from the
// deepest level back. Sources beyond the graph contribute nothing, as in the program.
std::vector<double> reference(const graph::Csr& g, const std::vector<graph::vertex_t>& sources) {
  const graph::vertex_t n = g.num_vertices();
  std::vector<double> centrality(n, 0.0);
  std::vector<std::int64_t> level(n);
  std::vector<double> sigma(n), delta(n);
  std::vector<graph::vertex_t> order;
  for (const graph::vertex_t s : sources) {
    if (s >= n) continue;
    std::fill(level.begin(), level.end(), -1);
    std::fill(sigma.begin(), sigma.end(), 0.0);
    std::fill(delta.begin(), delta.end(), 0.0);
    order.assign(1, s);
    level[s] = 0;
    sigma[s] = 1;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const graph::vertex_t v = order[i];
      for (graph::vertex_t w : g.neighbors(v)) {
        if (level[w] < 0) {
          level[w] = level[v] + 1;
          order.push_back(w);
        }
        if (level[w] == level[v] + 1) sigma[w] += sigma[v];
      }
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const graph::vertex_t v = *it;
      for (graph::vertex_t w : g.neighbors(v))
        if (level[w] == level[v] + 1) delta[v] += sigma[v] / sigma[w] * (1 + delta[w]);
      if (v != s) centrality[v] += delta[v];
    }
  }
  return centrality;
}

harness::Summary top(const harness::Output& out, const harness::Request& r) {
  const auto& c = describe::reals(out);
  std::vector<graph::vertex_t> order(c.size());
  std::iota(order.begin(), order.end(), graph::vertex_t{0});
  const std::size_t shown = std::min<std::size_t>(5, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                    [&](graph::vertex_t a, graph::vertex_t b) { return c[a] > c[b] || (c[a] == c[b] && a < b); });
  harness::Summary summary;
  summary.lines.emplace_back("Sources", r.options.text("sources"));
  nlohmann::json best = nlohmann::json::array();
  for (std::size_t i = 0; i < shown; ++i) {
    summary.lines.emplace_back(fmt::format("Top {}", i + 1),
                               fmt::format("vertex {} centrality {:.6g}", order[i], c[order[i]]));
    best.push_back({{"vertex", order[i]}, {"centrality", c[order[i]]}});
  }
  summary.json = {{"sources", parse_sources(r.options.text("sources"))}, {"top", best}};
  return summary;
}

}  // namespace

harness::Algorithm bc_algorithm() {
  harness::Algorithm a;
  a.name = "bc";
  a.about = "betweenness centrality (Brandes) from a set of sources";
  a.options = {{.name = "sources",
                .help = "the vertices the shortest paths start from, separated by commas (ids beyond the graph are "
                        "left out)",
                .fallback = "0,1,2,3",
                .check = [](const std::string& text) { parse_sources(text); }}};
  a.reference = [](const graph::Csr& g, const harness::Request& r) {
    return harness::Output{reference(g, parse_sources(r.options.text("sources"))), {}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request& r, const harness::Output& out, bool is_reference) {
    if (is_reference) return describe::by_itself("bc");
    const std::vector<double> want = reference(g, parse_sources(r.options.text("sources")));
    const auto& got = describe::reals(out);
    std::string mismatch;
    if (got.size() != want.size()) mismatch = fmt::format("{} values for {} vertices", got.size(), want.size());
    for (std::size_t v = 0; mismatch.empty() && v < got.size(); ++v)
      if (std::abs(got[v] - want[v]) > 1e-9 * std::max(1.0, std::abs(want[v])))
        mismatch = fmt::format("vertex {}: centrality {} where the reference has {}", v, got[v], want[v]);
    return harness::Verdict{"the sequential reference (relative 1e-9)", mismatch};
  };
  a.summarise = [](const harness::Output& out, const harness::Request& r, std::uint64_t) { return top(out, r); };
  a.kernels["dsl"] =
      std::make_shared<engines::DslKernel>(dsl::programs::bc_needs, [](dsl::rt::Graph& g, const harness::Request& r) {
        const std::vector<graph::vertex_t> sources = parse_sources(r.options.text("sources"));
        dsl::rt::NodeProperty<double> centrality(g);
        (g.naive() ? dsl::programs::naive::bc : dsl::programs::bc)(g, centrality, sources);
        return harness::Output{dsl::rt::masters_as_reals(g, centrality), {}};
      });
  return a;
}

}  // namespace courier::algo
