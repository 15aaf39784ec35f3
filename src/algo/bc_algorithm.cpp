// bc: betweenness centrality (Brandes) from a set of sources (given, sampled, or all), following
// edge directions, counting shortest paths by edges (a repeated edge is another path) or, with
// --weighted, by uint32 weights. Vertex engine: bc.cpp; dsl engine: the graph language's program
// (dsl/programs/bc.sp, by edges, from given sources). The sequential reference is here; a result is
// checked against it and, for a sample of vertices, against the definition (bc_check.cpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "bc_check.hpp"
#include "courier/algo/algorithms.hpp"
#include "courier/algo/bc.hpp"
#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"
#include "courier/dsl/programs/bc.hpp"
#include "courier/engines/dsl.hpp"
#include "courier/engines/vertex.hpp"
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

bool exact(const harness::Options& o) { return o.has("exact") && o.flag("exact"); }
bool weighted(const harness::Options& o) { return o.has("weighted") && o.flag("weighted"); }

// The sources a run asks for: every vertex (--exact, up to --exact-max-vertices), --samples drawn
// among the vertices with out-edges, or the --sources list.
std::vector<graph::vertex_t> sources_of(const harness::Options& o, graph::vertex_t n,
                                        const std::function<bool(graph::vertex_t)>& has_out_edges) {
  if (exact(o)) {
    if (o.has("samples")) throw InputError("bc: --exact takes every vertex as a source; drop --samples or --exact");
    const std::uint64_t limit = o.count("exact-max-vertices");
    if (n > limit)
      throw InputError(fmt::format("bc --exact on {} vertices: more than --exact-max-vertices {} (a shortest-path "
                                   "search from every vertex); raise --exact-max-vertices to run it anyway, or "
                                   "sample sources with --samples K",
                                   n, limit));
    std::vector<graph::vertex_t> all(n);
    std::iota(all.begin(), all.end(), graph::vertex_t{0});
    return all;
  }
  if (o.has("samples")) return sample_sources(n, has_out_edges, o.count("samples"), o.count("sample-seed"));
  return parse_sources(o.text("sources"));
}

// What the summary says of the sources: the sources themselves kept beside the values.
struct Sources {
  std::vector<graph::vertex_t> list;
};

// Brandes from each source: shortest-path counts level by level, then dependencies from the
// deepest level back. Sources beyond the graph contribute nothing, as in the program.
std::vector<double> reference(const graph::Csr& g, const std::vector<graph::vertex_t>& sources) {
  const graph::vertex_t n = g.num_vertices();
  std::vector<double> centrality(n, 0.0);
  std::vector<std::int64_t> level(n);
  std::vector<double> sigma(n), delta(n);
  std::vector<graph::vertex_t> order;
  for (const graph::vertex_t s : sources) {
    stop_if_cancelled();
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
  const auto* sources = std::any_cast<Sources>(&out.facts);
  const std::vector<graph::vertex_t> listed = sources != nullptr ? sources->list : parse_sources(r.options.text("sources"));
  std::string shown_sources = fmt::format("{}", fmt::join(listed, ","));
  if (exact(r.options))
    shown_sources = fmt::format("all {} vertices (exact)", c.size());
  else if (r.options.has("samples"))
    shown_sources = fmt::format("{} sampled with seed {}: {}", listed.size(), r.options.text("sample-seed"),
                                listed.size() <= 16 ? shown_sources : "(in the JSON)");
  if (weighted(r.options)) shown_sources += "; shortest paths by weight";
  summary.lines.emplace_back("Sources", shown_sources);
  nlohmann::json best = nlohmann::json::array();
  for (std::size_t i = 0; i < shown; ++i) {
    summary.lines.emplace_back(fmt::format("Top {}", i + 1),
                               fmt::format("vertex {} centrality {:.6g}", order[i], c[order[i]]));
    best.push_back({{"vertex", order[i]}, {"centrality", c[order[i]]}});
  }
  summary.json = {{"sources", exact(r.options) ? nlohmann::json("all") : nlohmann::json(listed)},
                  {"weighted", weighted(r.options)},
                  {"top", best}};
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
                .check = [](const std::string& text) { parse_sources(text); }},
               {.name = "samples",
                .help = "instead of --sources, this many distinct sources drawn among the vertices with out-edges",
                .check = harness::whole_number("samples", 1),
                .engines = {"vertex", "seq"}},
               {.name = "sample-seed",
                .help = "the seed the --samples are drawn with (--seed is the generated graph's)",
                .fallback = "27491095",
                .check = harness::whole_number("sample-seed"),
                .engines = {"vertex", "seq"}},
               {.name = "exact",
                .help = "every vertex a source (refused above --exact-max-vertices)",
                .kind = harness::OptionSpec::Kind::flag,
                .engines = {"vertex", "seq"}},
               {.name = "exact-max-vertices",
                .help = "the most vertices --exact runs on",
                .fallback = "65536",
                .check = harness::whole_number("exact-max-vertices"),
                .engines = {"vertex", "seq"}},
               {.name = "weighted",
                .help = "shortest paths by the uint32 edge weights (all positive), not by edges",
                .kind = harness::OptionSpec::Kind::flag,
                .engines = {"vertex", "seq"}}};
  a.reference = [](const graph::Csr& g, const harness::Request& r) {
    std::vector<graph::vertex_t> sources =
        sources_of(r.options, g.num_vertices(), [&](graph::vertex_t v) { return g.degree(v) != 0; });
    std::vector<double> c =
        weighted(r.options) ? bc_check::weighted_reference(g, sources) : reference(g, sources);
    return harness::Output{std::move(c), Sources{std::move(sources)}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request& r, const harness::Output& out, bool is_reference) {
    const std::vector<graph::vertex_t> sources =
        sources_of(r.options, g.num_vertices(), [&](graph::vertex_t v) { return g.degree(v) != 0; });
    const auto& got = describe::reals(out);
    std::string mismatch;
    std::string verifier;
    if (!is_reference) {
      const std::vector<double> want =
          weighted(r.options) ? bc_check::weighted_reference(g, sources) : reference(g, sources);
      verifier = "the sequential reference (relative 1e-9)";
      if (got.size() != want.size()) mismatch = fmt::format("{} values for {} vertices", got.size(), want.size());
      for (std::size_t v = 0; mismatch.empty() && v < got.size(); ++v)
        if (std::abs(got[v] - want[v]) > 1e-9 * std::max(1.0, std::abs(want[v])))
          mismatch = fmt::format("vertex {}: centrality {} where the reference has {}", v, got[v], want[v]);
    }
    const bc_check::DefinitionCheck by_definition = bc_check::by_definition(g, sources, weighted(r.options), got);
    if (by_definition.vertices > 0)
      verifier += fmt::format("{}pair dependencies from the definition for {} vertices (relative 1e-6)",
                              verifier.empty() ? "" : " and ", by_definition.vertices);
    if (mismatch.empty()) mismatch = by_definition.mismatch;
    if (verifier.empty()) return describe::by_itself("bc");
    return harness::Verdict{verifier, mismatch};
  };
  a.summarise = [](const harness::Output& out, const harness::Request& r, std::uint64_t) { return top(out, r); };
  a.kernels["vertex"] = std::make_shared<engines::VertexKernel>([](vertex::Engine& e, const harness::Request& r) {
    std::vector<bool> has_out_edges;
    if (exact(r.options) || r.options.has("samples")) has_out_edges = vertices_with_out_edges(e);
    const std::vector<graph::vertex_t> sources = sources_of(r.options, e.graph().global_vertices(),
                                                            [&](graph::vertex_t v) { return bool(has_out_edges[v]); });
    std::vector<graph::vertex_t> searched = sources;
    if (exact(r.options))  // a source without out-edges adds nothing: not searched from
      std::erase_if(searched, [&](graph::vertex_t v) { return !has_out_edges[v]; });
    std::vector<double> c = bc(e, {.sources = searched, .weighted = weighted(r.options)});
    return harness::Output{std::move(c), Sources{sources}};
  });
  a.kernels["dsl"] =
      std::make_shared<engines::DslKernel>(dsl::programs::bc_needs, [](dsl::rt::Graph& g, const harness::Request& r) {
        const std::vector<graph::vertex_t> sources = parse_sources(r.options.text("sources"));
        dsl::rt::NodeProperty<double> centrality(g);
        (g.naive() ? dsl::programs::naive::bc : dsl::programs::bc)(g, centrality, sources);
        return harness::Output{dsl::rt::masters_as_reals(g, centrality), Sources{sources}};
      });
  return a;
}

}  // namespace courier::algo
