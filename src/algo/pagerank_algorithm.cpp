// pagerank: the stationary distribution of a random walk with restarts. Vertex engine: pull
// (pagerank.cpp); checked as a fixed point to within what the stopping rule allows.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>

#include "courier/algo/algorithms.hpp"
#include "courier/algo/pagerank.hpp"
#include "courier/dsl/programs/pagerank.hpp"
#include "courier/dsl/programs/pagerank_float_shares.hpp"
#include "courier/engines/dsl.hpp"
#include "courier/engines/la.hpp"
#include "courier/engines/vertex.hpp"
#include "courier/graph/reference/pagerank.hpp"
#include "courier/graph/verify.hpp"
#include "describe.hpp"
#include "la_programs.hpp"

namespace courier::algo {

namespace {

struct Iterations {
  unsigned iterations = 0;
  bool converged = false;
  double last_change = 0;  // L1 over all vertices
};

PagerankOptions options_of(const harness::Request& r) {
  return {r.options.real("damping"), r.options.real("tolerance"), static_cast<unsigned>(r.options.count("iterations")),
          r.options.has("direction") ? parse_direction(r.options.text("direction")) : Direction::automatic,
          r.options.has("shares") && r.options.text("shares") == "double"};
}

harness::Summary ranks(const harness::Output& out, const harness::Request& r) {
  const auto& rank = describe::reals(out);
  const auto& facts = std::any_cast<const Iterations&>(out.facts);
  const PagerankOptions options = options_of(r);
  std::vector<graph::vertex_t> order(rank.size());
  std::iota(order.begin(), order.end(), graph::vertex_t{0});
  const std::size_t shown = std::min<std::size_t>(10, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                    [&](graph::vertex_t a, graph::vertex_t b) { return rank[a] > rank[b] || (rank[a] == rank[b] && a < b); });
  harness::Summary summary;
  summary.lines.emplace_back("Iterations",
                             fmt::format("{} ({}: L1 change {:.3g}, tolerance {:.3g}, at most {})", facts.iterations,
                                         facts.converged ? "converged" : "not converged", facts.last_change,
                                         options.tolerance, options.max_iterations));
  nlohmann::json top = nlohmann::json::array();
  for (std::size_t i = 0; i < shown; ++i) {
    summary.lines.emplace_back(fmt::format("Top {:2}", i + 1),
                               fmt::format("vertex {} rank {:.6e}", order[i], rank[order[i]]));
    top.push_back({{"vertex", order[i]}, {"rank", rank[order[i]]}});
  }
  summary.json = {{"iterations", facts.iterations},  {"converged", facts.converged},
                  {"last_change", facts.last_change}, {"tolerance", options.tolerance},
                  {"max_iterations", options.max_iterations}, {"top", top}};
  return summary;
}

}  // namespace

harness::Algorithm pagerank_algorithm() {
  harness::Algorithm a;
  a.name = "pagerank";
  a.about = "PageRank: each vertex's rank, to a tolerance or for a number of iterations";
  a.needs = {.in_edges = true};  // pull
  a.options = {
      {.name = "damping",
       .help = "the damping factor",
       .fallback = "0.85",
       .check = harness::real_number("damping", 0, 1)},
      {.name = "tolerance",
       .help = "stop below this L1 change",
       .fallback = "1e-09",
       .check = harness::real_number("tolerance", 0, std::numeric_limits<double>::infinity())},
      {.name = "iterations",
       .help = "at most this many iterations",
       .fallback = "1000",
       .check = harness::whole_number("iterations", 1, std::numeric_limits<unsigned>::max())},
      {.name = "direction",
       .help = "every vertex sums its in-neighbours' shares (pull), or scatters its own along its out-edges (push); "
               "auto is pull, as every vertex is active every step",
       .fallback = "auto",
       .choices = {"auto", "push", "pull"},
       .engines = {"vertex"}},
      {.name = "shares",
       .help = "the shares read at random (rank / out-degree) as float where the rounding keeps the ranks within "
               "half the 1e-6 (L1) they are held to (auto), or as double always",
       .fallback = "auto",
       .choices = {"auto", "double"},
       .engines = {"vertex", "la", "dsl"}},
  };
  a.reference = [](const graph::Csr& g, const harness::Request& r) {
    const PagerankOptions o = options_of(r);
    graph::reference::PagerankResult pr = graph::reference::pagerank(g, {o.damping, o.tolerance, o.max_iterations});
    return harness::Output{std::move(pr.rank), Iterations{pr.iterations, pr.converged, pr.last_change}};
  };
  a.verify = [](const graph::Csr& g, const harness::Request& r, const harness::Output& out, bool) {
    // A converged result is a fixed point to within what the stopping rule allows.
    const double last_change = std::any_cast<const Iterations&>(out.facts).last_change;
    return harness::Verdict{"PageRank fixed-point check",
                            graph::verify::pagerank(g, describe::reals(out), r.options.real("damping"),
                                                    std::max(1e-6, 2 * last_change))};
  };
  a.summarise = [](const harness::Output& out, const harness::Request& r, std::uint64_t) { return ranks(out, r); };
  a.kernels["vertex"] = std::make_shared<engines::VertexKernel>([](vertex::Engine& e, const harness::Request& r) {
    PagerankResult pr = pagerank(e, options_of(r));
    return harness::Output{std::move(pr.rank), Iterations{pr.iterations, pr.converged, pr.last_change}};
  });
  auto la = std::make_shared<engines::LaKernel>();
  la->filters_computation = true;
  la->sums_by_rows = true;
  la->run = [](const engines::LaContext& context, const harness::Request& r) {
    const PagerankOptions o = options_of(r);
    const auto run = [&](auto semiring) {
      const la_programs::Pagerank<decltype(semiring)> program{static_cast<double>(context.matrix.grid().vertices()),
                                                              o.damping, o.tolerance, o.max_iterations};
      return engines::run_program(context, program, [&](const auto& model) -> std::any {
        const double change = model.totals()[1];
        return Iterations{model.iterations(), model.iterations() > 0 && change < o.tolerance, change};
      });
    };
    return pagerank_float_shares(o) ? run(la::PlusSecondFloat{}) : run(la::PlusSecond{});
  };
  a.kernels["la"] = std::move(la);
  // The shipped program with float shares where the vertex engine would read float shares too.
  static_assert(dsl::programs::pagerank_needs == dsl::programs::pagerank_float_shares_needs);
  a.kernels["dsl"] = std::make_shared<engines::DslKernel>(
      dsl::programs::pagerank_needs, [](dsl::rt::Graph& g, const harness::Request& r) {
        const PagerankOptions o = options_of(r);
        dsl::rt::NodeProperty<double> rank(g);
        const auto program = pagerank_float_shares(o)
                                 ? (g.naive() ? dsl::programs::naive::pagerank_float_shares
                                              : dsl::programs::pagerank_float_shares)
                                 : (g.naive() ? dsl::programs::naive::pagerank : dsl::programs::pagerank);
        program(g, o.damping, o.tolerance, static_cast<std::int32_t>(o.max_iterations), rank);
        const Iterations facts{g.kept<unsigned>("iterations"), g.kept<bool>("converged"), g.kept<double>("change")};
        return harness::Output{dsl::rt::masters_as_reals(g, rank), facts};
      });
  return a;
}

}  // namespace courier::algo
