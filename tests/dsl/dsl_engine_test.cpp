// The dsl engine runs every shipped program (bfs, sssp, cc, pagerank, tc, bc), in both generations,
// to the sequential reference of its algorithm's descriptor (run by the seq engine): on Kronecker and uniform random
// graphs of scales 8 to 12, a path, a star and pieces with isolated vertices (weighted for sssp; the others also on
// a weighted kron:10), on 1 to 4 ranks as threads, each through the lci channel (its progress modes alike); and the
// same generated functions on the loopback test channel. MPI's channels run under mpirun (CMakeLists.txt).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "algo/algo_graphs.hpp"
#include "courier/algo/builtin.hpp"
#include "courier/dsl/programs/bfs.hpp"
#include "courier/dsl/programs/sssp.hpp"
#include "courier/dsl/test_programs/hoisting.hpp"
#include "courier/engines/dsl.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/io.hpp"
#include "courier/graph/reference/sssp.hpp"
#include "courier/harness/run.hpp"
#include "courier/vertex/gather.hpp"
#include "support/ranks.hpp"
#include "support/sanitized.hpp"

namespace dsl_engine_test {

namespace {

using namespace courier;

struct Shape {
  int ranks;
  unsigned threads;
  std::string progress;
};
const std::vector<Shape> kShapes{{1, 2, "auto"},   {2, 1, "explicit"}, {2, 2, "auto"},
                                 {3, 2, "thread"}, {4, 1, "auto"},     {4, 2, "explicit"}};

// A graph of the matrix: a generator's spec or a .csr file, weighted or not, and the shapes it runs at.
struct Input {
  std::string graph;
  bool weights = false;
  std::vector<Shape> shapes = kShapes;
};

// Every other shape from `first` (0 or 1): half of them, at ranks 1, 2 and 4 or at 2, 3 and 4.
std::vector<Shape> half_of_the_shapes(std::size_t first) {
  std::vector<Shape> half;
  for (std::size_t i = first; i < kShapes.size(); i += 2) half.push_back(kShapes[i]);
  return half;
}

// Scales 8, 10 and 12 at every shape, 9 and 11 at half of them (the halves alternate, so each scale
// and generator meet every shape); the small graphs as .csr files (so isolated vertices at the end
// stay). `weights`: the program needs them. The others also run on a weighted graph, whose weights
// they leave alone.
std::vector<Input> graphs(bool weights) {
  std::vector<Input> all;
  for (const char* spec : {"kron:8", "kron:10", "kron:12", "urand:8", "urand:10", "urand:12"})
    all.push_back({spec, weights});
  all.push_back({"kron:9", weights, half_of_the_shapes(0)});
  all.push_back({"kron:11", weights, half_of_the_shapes(1)});
  all.push_back({"urand:9", weights, half_of_the_shapes(1)});
  all.push_back({"urand:11", weights, half_of_the_shapes(0)});
  const std::vector<test_support::NamedGraph> small = test_support::test_graphs(weights);
  for (std::size_t i = 2; i < small.size(); ++i) {  // path, star, pieces
    std::string name = small[i].name;
    for (char& c : name) c = c == ':' ? '_' : c;
    const std::string path = std::string(COURIER_TEST_TMPDIR) + "/dsl_" + name + (weights ? "_w" : "") + ".csr";
    graph::write_csr(path, graph::build_csr(small[i].edges));
    all.push_back({path, weights});
  }
  if (!weights) all.push_back({"kron:10", true});
  return all;
}

harness::RunResult run(const std::string& algorithm, const std::string& graph, const std::string& engine,
                       const Shape& shape, const std::string& generation, bool weights,
                       const harness::Options& options) {
  harness::RunSpec spec;
  spec.algorithm = algorithm;
  spec.graph = graph;
  spec.engine = engine;
  spec.ranks = shape.ranks;
  spec.threads = shape.threads;
  spec.options = options;
  spec.load.weights = weights;
  if (engine == "dsl") {
    spec.options.set("generation", generation);
    spec.options.set("comm-progress", shape.progress);
  }
  return harness::run(builtin_registry(), spec);
}

void expect_equal_to_reference(const std::string& algorithm, bool weights, harness::Options options = {}) {
  if (algorithm == "bfs" || algorithm == "sssp") options.set("source", "1");
  const std::vector<Input> inputs = graphs(weights);
  for (std::size_t g = 0; g < inputs.size(); ++g) {
    const Input& input = inputs[g];
    const std::string& graph = input.graph;
    const harness::RunResult reference = run(algorithm, graph, "seq", {1, 1, "auto"}, "", input.weights, options);
    for (std::size_t s = 0; s < input.shapes.size(); ++s) {
      const Shape& shape = input.shapes[s];
      for (const std::string generation : {"optimised", "naive"}) {
        // Under a sanitizer each graph at each of its shapes once, the generations in turn.
        if (!test_support::walks(g + s, generation == "optimised" ? 0 : 1, 2)) continue;
        const harness::RunResult dsl = run(algorithm, graph, "dsl", shape, generation, input.weights, options);
        const std::string where = algorithm + " on " + graph + (input.weights ? " (weighted)" : "") + " at " +
                                  std::to_string(shape.ranks) + "x" + std::to_string(shape.threads) + " (progress " +
                                  shape.progress + "), " + generation;
        if (const auto* reals = std::get_if<std::vector<double>>(&reference.values)) {
          const auto& got = std::get<std::vector<double>>(dsl.values);
          ASSERT_EQ(got.size(), reals->size()) << where;
          double l1 = 0;
          for (std::size_t v = 0; v < got.size(); ++v) l1 += std::abs(got[v] - (*reals)[v]);
          EXPECT_LT(l1, 1e-6) << where;
          if (algorithm == "pagerank") {
            EXPECT_EQ(dsl.summary.json["iterations"], reference.summary.json["iterations"]) << where;
            EXPECT_EQ(dsl.summary.json["converged"], reference.summary.json["converged"]) << where;
          }
        } else {
          ASSERT_EQ(dsl.values, reference.values) << where;
          EXPECT_EQ(dsl.summary.json, reference.summary.json) << where;  // counts, components, triangles
        }
      }
    }
  }
}

TEST(DslEngine, BfsEqualsTheReference) { expect_equal_to_reference("bfs", false); }
TEST(DslEngine, SsspEqualsTheReference) { expect_equal_to_reference("sssp", true); }
TEST(DslEngine, CcEqualsTheReference) { expect_equal_to_reference("cc", false); }
TEST(DslEngine, TcEqualsTheReference) { expect_equal_to_reference("tc", false); }
TEST(DslEngine, BcEqualsTheReference) {
  harness::Options sources;
  sources.set("sources", "0,1,2,3,5,300,1000");
  expect_equal_to_reference("bc", false, sources);
}
TEST(DslEngine, PagerankEqualsTheReference) {
  harness::Options tight;
  tight.set("tolerance", "1e-10");
  expect_equal_to_reference("pagerank", false, tight);
}
// A fixed number of steps (no tolerance to hold): the program with float shares, as the vertex
// engine reads float shares then; the rounding keeps it within the reference's 1e-6.
TEST(DslEngine, PagerankWithFloatSharesEqualsTheReference) {
  harness::Options steps;
  steps.set("tolerance", "0");
  steps.set("iterations", "30");
  expect_equal_to_reference("pagerank", false, steps);
}

// --verify, --json and the statistics, as every engine has them.
TEST(DslEngine, VerifiesAndReportsItsPhases) {
  harness::Options options;
  options.set("source", "1");
  for (const std::string generation : {"optimised", "naive"}) {
    harness::RunSpec spec{.algorithm = "sssp", .graph = "kron:9", .engine = "dsl", .ranks = 3, .threads = 2};
    spec.load.weights = true;
    spec.options = options;
    spec.options.set("generation", generation);
    spec.verify = true;
    const harness::RunResult result = harness::run(builtin_registry(), spec);
    ASSERT_TRUE(result.verification.has_value());
    EXPECT_TRUE(result.passed()) << result.verification->mismatch;
    const auto& stats = dynamic_cast<const engines::DslStats&>(*result.stats);
    EXPECT_EQ(dsl::rt::to_string(stats.generation), generation);
    EXPECT_EQ(stats.layout, dsl::rt::Layout::out);
    EXPECT_GT(stats.run.rounds.size(), 2u);
    EXPECT_GT(stats.phases.reductions, 0u);
    // The naive generation accumulates every relaxation into its node's owner, one-sided; the
    // optimised one reduces in place.
    EXPECT_EQ(stats.phases.accumulates > 0, generation == "naive");
    EXPECT_EQ(stats.phases.accumulates, stats.phases.edge_searches);  // one a relaxed edge
    EXPECT_EQ(stats.phases.queued, 0u);
    const nlohmann::json json = result.to_json();
    EXPECT_EQ(json["engine"], "dsl") << json.dump();
    EXPECT_EQ(json["engine_stats"]["generation"], generation) << json.dump();
    EXPECT_TRUE(json["engine_stats"].contains("reduction_seconds")) << json.dump();
    // Paper 004's phases: the naive generation searches each relaxed edge and reads only its own
    // nodes (dist of v); the optimised one makes neither call.
    EXPECT_EQ(stats.phases.edge_searches > 0, generation == "naive");
    EXPECT_EQ(stats.phases.local_gets > 0, generation == "naive");
    EXPECT_EQ(stats.phases.remote_gets, 0u);
    EXPECT_EQ(json["engine_stats"]["edge_searches"], stats.phases.edge_searches) << json.dump();
    EXPECT_TRUE(json["engine_stats"].contains("traversal_seconds")) << json.dump();
    EXPECT_TRUE(json["engine_stats"].contains("local_read_seconds")) << json.dump();
  }
}

// Naive pagerank reads its in-neighbours' ranks: another rank's by a one-sided get each, counted
// and timed as remote reads; the optimised generation reads masters' split sums and gets nothing.
TEST(DslEngine, NaiveRemoteReadsAreGetsFromTheOwner) {
  for (const std::string generation : {"optimised", "naive"}) {
    harness::RunSpec spec{.algorithm = "pagerank", .graph = "kron:9", .engine = "dsl", .ranks = 2, .threads = 2};
    spec.options.set("generation", generation);
    spec.verify = true;
    const harness::RunResult result = harness::run(builtin_registry(), spec);
    EXPECT_TRUE(result.passed()) << result.verification->mismatch;
    const auto& phases = dynamic_cast<const engines::DslStats&>(*result.stats).phases;
    if (generation == "optimised") {
      EXPECT_EQ(phases.remote_gets + phases.local_gets + phases.edge_searches, 0u);
      continue;
    }
    EXPECT_GT(phases.remote_gets, 0u);
    EXPECT_GT(phases.local_gets, phases.remote_gets / 10);  // each node's own rank, and local in-neighbours'
    EXPECT_EQ(phases.edge_searches, 0u);                    // nodes_to(v) needs no edge
    EXPECT_GT(phases.remote_read_seconds, 0.0);
    EXPECT_GT(phases.local_read_seconds, 0.0);
  }
}

// bfs's big rounds run bottom-up (rt::Direction): on kron:12 some round pulls at every shape, and
// the levels still equal the reference's (expect_equal_to_reference covers the small graphs,
// where the rule may never pull).
TEST(DslEngine, BfsPullsItsBigRounds) {
  harness::Options options;
  options.set("source", "0");
  const harness::RunResult reference = run("bfs", "kron:12", "seq", {1, 1, "auto"}, "", false, options);
  for (const Shape& shape : kShapes) {
    const harness::RunResult dsl = run("bfs", "kron:12", "dsl", shape, "optimised", false, options);
    const std::string where = std::to_string(shape.ranks) + "x" + std::to_string(shape.threads);
    EXPECT_EQ(std::get<std::vector<std::uint64_t>>(dsl.values), std::get<std::vector<std::uint64_t>>(reference.values))
        << where;
    const auto& stats = dynamic_cast<const engines::DslStats&>(*dsl.stats);
    EXPECT_GT(stats.phases.bottom_up, 0u) << where;
    EXPECT_LT(stats.phases.bottom_up, stats.run.rounds.size()) << where;  // the first round pushes
    EXPECT_EQ(dsl.to_json()["engine_stats"]["bottom_up_rounds"], stats.phases.bottom_up) << where;
  }
}

TEST(DslEngine, RefusesAnUnweightedGraphForSssp) {
  harness::RunSpec spec{.algorithm = "sssp", .graph = "kron:6", .engine = "dsl", .ranks = 2, .threads = 1};
  try {
    harness::run(builtin_registry(), spec);
    FAIL() << "ran sssp without weights";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs uint32 edge weights"), std::string::npos) << e.what();
  }
}

// sssp's dist is an int, as StarPlat declares it: a distance past 32 bits fails the call on every
// rank, naming the statement, instead of wrapping around (a path of three edges of 2^30).
TEST(DslEngine, SsspFailsWhereADistanceDoesNotFitAnInt) {
  graph::EdgeList edges = test_support::path(4);
  edges.weights = std::vector<std::uint32_t>(3, std::uint32_t{1} << 30);
  for (int ranks = 1; ranks <= 2; ++ranks) {
    const auto parts = dist::partition_in_memory(edges, dist::Policy::oec, ranks, false);
    for (bool naive : {false, true}) {
      std::vector<std::string> errors(static_cast<std::size_t>(ranks));
      test_support::on_every_rank(parts, 1, [&](vertex::Engine& e) {
        dsl::rt::Graph g(e, dsl::programs::sssp_needs.layout(dsl::rt::Generation::optimised),
                         naive ? dsl::rt::Generation::naive : dsl::rt::Generation::optimised);
        dsl::rt::NodeProperty<std::int32_t> dist(g);
        auto weight = dsl::rt::EdgeProperty<std::int32_t>::weights(g);
        try {
          (naive ? dsl::programs::naive::sssp : dsl::programs::sssp)(g, dist, weight, 0);
        } catch (const Error& error) {
          errors[static_cast<std::size_t>(e.rank())] = error.what();
        }
      });
      for (const std::string& error : errors) {
        EXPECT_NE(error.find("does not fit in 32 bits"), std::string::npos) << ranks << " ranks: '" << error << "'";
      }
      EXPECT_NE(errors[0].find("sssp.sp:16:"), std::string::npos) << errors[0];
    }
  }
}

// The generated functions themselves, on the loopback test channel (another Channel than lci).
TEST(DslEngine, GeneratedFunctionsOnTheLoopbackChannel) {
  const graph::EdgeList edges = test_support::generated(graph::Generator::uniform, 9, true);
  const graph::Csr csr = graph::build_csr(edges);
  const auto want_sssp = graph::reference::sssp(csr, 2).dist_int;
  for (int ranks = 1; ranks <= 4; ++ranks) {
    const auto parts = dist::partition_in_memory(edges, dist::Policy::oec, ranks, false);
    for (bool naive : {false, true}) {
      std::vector<std::uint64_t> got;
      test_support::on_every_rank(parts, 2, [&](vertex::Engine& e) {
        dsl::rt::Graph g(e, dsl::programs::sssp_needs.layout(dsl::rt::Generation::optimised),
                         naive ? dsl::rt::Generation::naive : dsl::rt::Generation::optimised);
        dsl::rt::NodeProperty<std::int32_t> dist(g);
        auto weight = dsl::rt::EdgeProperty<std::int32_t>::weights(g);
        (naive ? dsl::programs::naive::sssp : dsl::programs::sssp)(g, dist, weight, 2);
        // 32-bit distances stay 32-bit until the harness widens them.
        harness::Values mine = dsl::rt::masters_as_integers(g, dist);
        harness::Values all = vertex::gather_masters<std::uint32_t>(e, std::get<std::vector<std::uint32_t>>(mine));
        harness::widen(all);
        if (e.rank() == 0) got = std::get<std::vector<std::uint64_t>>(all);
      });
      EXPECT_EQ(got, want_sssp) << ranks << " ranks, naive " << naive;
    }
  }
}

// Hoisting's two kinds (tests/dsl/programs/hoisting.sp): the neighbour's share computed once per
// node and read through mirrors, the vertex's factor once before the loop; both generations (the
// naive one computes both on every edge) against the sum written out here, at 1-4 ranks.
TEST(DslEngine, HoistedExpressionsEqualTheirSumPerEdge) {
  const graph::EdgeList edges = test_support::generated(graph::Generator::kronecker, 9, false);
  const graph::Csr csr = graph::build_csr(edges);
  const std::size_t n = csr.num_vertices();
  std::vector<double> x(n, 1), want(n, 0);
  for (std::size_t u = 0; u < n; ++u)
    for (const auto w : csr.neighbors(u)) x[w] += 1;  // in-degree + 1
  for (std::size_t u = 0; u < n; ++u)
    for (const auto w : csr.neighbors(u)) want[w] += x[u] * 2 / static_cast<double>(csr.degree(u)) * (x[w] + 1);
  for (int ranks = 1; ranks <= 4; ++ranks) {
    const auto parts = dist::partition_in_memory(edges, dist::Policy::iec, ranks, true);
    for (bool naive : {false, true}) {
      std::vector<double> got;
      test_support::on_every_rank(parts, 2, [&](vertex::Engine& e) {
        dsl::rt::Graph g(e, dsl::test_programs::hoisting_needs.layout(dsl::rt::Generation::optimised),
                         naive ? dsl::rt::Generation::naive : dsl::rt::Generation::optimised);
        dsl::rt::NodeProperty<double> px(g), py(g);
        (naive ? dsl::test_programs::naive::hoisting : dsl::test_programs::hoisting)(g, px, py);
        auto all = vertex::gather_masters<double>(e, dsl::rt::masters_as_reals(g, py));
        if (e.rank() == 0) got = std::move(all);
      });
      ASSERT_EQ(got.size(), n) << ranks << " ranks";
      for (std::size_t v = 0; v < n; ++v)
        ASSERT_NEAR(got[v], want[v], 1e-9 * (1 + want[v]))
            << "node " << v << ", " << ranks << " ranks, naive " << naive;
    }
  }
}

}  // namespace

}  // namespace dsl_engine_test
