// The la engine equals the sequential reference for every algorithm it runs, on Kronecker and
// uniform graphs of scales 8-12 (as .csr files and as generator specs), a path, a star, pieces
// with isolated vertices and a directed graph of sources, cycles, sinks and isolated vertices, at
// every (ranks, threads) in {1x1, 1x2, 2x1, 2x2, 3x1, 4x2}, in the MPI*X and MPI+X modes,
// staggered and cyclic, with activity filtering (pagerank in fixed steps: computation filtering)
// on and off.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "algo/algo_graphs.hpp"
#include "courier/algo/builtin.hpp"
#include "courier/engines/la.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/io.hpp"
#include "courier/harness/run.hpp"
#include "support/sanitized.hpp"

namespace la_engine_test {

namespace {

using namespace courier;

struct Shape {
  int ranks;
  unsigned threads;
};
#ifdef __SANITIZE_THREAD__
// ThreadSanitizer looks for races, which need threads and ranks together, not every shape: its
// 5-15x slowdown would take these tests past their timeout. The Release suite runs every shape.
const std::vector<Shape> kShapes{{1, 2}, {2, 2}, {3, 1}};
#else
const std::vector<Shape> kShapes{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {4, 2}};
#endif

// Sources (only out-edges), regular vertices on cycles, sinks (only in-edges) and isolated ones:
// what computation filtering tells apart (paper 003, section 7.6).
graph::EdgeList sources_and_sinks(bool weights) {
  graph::EdgeList list;
  list.num_vertices = 50;
  for (graph::vertex_t s = 0; s < 10; ++s) list.edges.push_back({s, 10 + (s * 7) % 20});
  for (graph::vertex_t r = 10; r < 30; ++r) {
    list.edges.push_back({r, 10 + (r + 1) % 20});
    list.edges.push_back({r, 30 + r % 15});
  }
  return weights ? test_support::weighted(std::move(list), 9) : list;
}

// The test graphs as .csr files (so isolated vertices at the end are kept).
std::string csr_file(const std::string& graph_name, const graph::EdgeList& edges, bool weights) {
  std::string name = graph_name;
  for (char& c : name) c = c == ':' ? '_' : c;
  const std::string path = std::string(COURIER_TEST_TMPDIR) + "/la_" + name + (weights ? "_w" : "") + ".csr";
  graph::write_csr(path, graph::build_csr(edges));
  return path;
}

std::vector<std::string> graph_files(bool weights) {
  std::vector<std::string> files;
  std::vector<test_support::NamedGraph> graphs = test_support::test_graphs(weights);
  graphs.push_back({"sources_and_sinks", sources_and_sinks(weights)});
  for (const test_support::NamedGraph& g : graphs) files.push_back(csr_file(g.name, g.edges, weights));
  return files;
}

// How the la engine is asked to run: its units and placement (MPI*X over threads, or MPI+X).
struct Mode {
  std::string units, placement;
};
const std::vector<Mode> kModes{
    {"threads", "staggered"}, {"threads", "cyclic"}, {"processes", "staggered"}, {"processes", "cyclic"}};

// `graph` is a file, or a generator spec the engine generates itself (each rank its share, sent to
// the tiles' owners), with weights when `generated_weights`. `filter` false turns `toggled` off.
harness::RunResult run(const std::string& algorithm, const std::string& graph, const std::string& engine, int ranks,
                       unsigned threads, bool filter, const harness::Options& options, const Mode* mode = nullptr,
                       const std::string& toggled = "activity-filter", bool generated_weights = false) {
  harness::RunSpec spec;
  spec.algorithm = algorithm;
  spec.graph = graph;
  spec.engine = engine;
  spec.ranks = ranks;
  spec.threads = threads;
  spec.options = options;
  spec.load.weights = generated_weights;
  if (engine == "la" && !filter) spec.options.set(toggled, "false");
  if (mode != nullptr) {
    spec.options.set("units", mode->units);
    spec.options.set("placement", mode->placement);
  }
  return harness::run(builtin_registry(), spec);
}

void expect_equal(const harness::RunResult& reference, const harness::RunResult& la, const std::string& where) {
  if (const auto* reals = std::get_if<std::vector<double>>(&reference.values)) {
    const auto& got = std::get<std::vector<double>>(la.values);
    ASSERT_EQ(got.size(), reals->size()) << where;
    double l1 = 0;
    for (std::size_t v = 0; v < got.size(); ++v) l1 += std::abs(got[v] - (*reals)[v]);
    EXPECT_LT(l1, 1e-6) << where;
  } else {
    EXPECT_EQ(std::get<std::vector<std::uint64_t>>(la.values), std::get<std::vector<std::uint64_t>>(reference.values))
        << where;
  }
}

// Whether some edge of the .csr file at `path` ends at a vertex without out-edges: an entry that
// computation filtering skips.
bool has_edges_into_sinks(const std::string& path) {
  const graph::Csr csr = graph::read_csr(path);
  for (const graph::vertex_t v : csr.targets())
    if (csr.degree(v) == 0) return true;
  return false;
}

// The entries out of vertices with out-edges and no in-edges in the .csr file at `path`: what
// computation filtering never multiplies.
std::uint64_t entries_out_of_sources(const std::string& path) {
  const graph::Csr csr = graph::read_csr(path);
  std::vector<std::uint32_t> in(csr.num_vertices(), 0);
  for (const graph::vertex_t v : csr.targets()) ++in[v];
  std::uint64_t entries = 0;
  for (graph::vertex_t u = 0; u < csr.num_vertices(); ++u)
    if (in[u] == 0) entries += csr.degree(u);
  return entries;
}

// The generated graphs of the matrix: Kronecker and uniform, scales 8-12, each a .csr file and the
// generator spec of the same graph (test_support::generated's edge factor 8, seed 1).
constexpr int kFirstScale = 8, kScales = 5;
struct Generated {
  std::string file, spec;
};
Generated generated_graph(graph::Generator kind, int scale, bool weights) {
  const std::string name = std::string(kind == graph::Generator::kronecker ? "kron:" : "urand:") +
                           std::to_string(scale) + ":ef=8";
  return {csr_file(name, test_support::generated(kind, scale, weights), weights), name};
}

// What the matrix's on/off axis turns off, and what that must show in the statistics.
enum class Toggle { activity, computation };

// Every graph -- a path, a star, pieces with isolated vertices, sources and sinks, and Kronecker
// and uniform graphs of scales 8-12 -- at every shape, in every mode, with the filter on and off.
// A generated graph goes in as its generator spec (the loader that generates each rank's share and
// sends it to the tiles' owners) or as a .csr file (each rank reads its tiles' rows) by turns, the
// parity of shape + mode + filter + the graph's index deciding, so that each loader meets every
// generated graph at every shape, in every mode and with the filter on and off; the reference
// reads the file. (The whole cross product, 672 runs per algorithm, fits CI: the six tests take
// 18-23 s in Release on two busy cores, where kron:9 and urand:10 alone took 9 s for five. Under a
// sanitizer each graph runs once at each shape, the mode and filter taken in turn: 84 runs.)
void expect_equal_to_reference(const std::string& algorithm, bool weights, const harness::Options& options = {},
                               Toggle toggle = Toggle::activity) {
  const std::string toggled = toggle == Toggle::activity ? "activity-filter" : "computation-filter";
  std::vector<Generated> kron, urand;
  for (int scale = kFirstScale; scale < kFirstScale + kScales; ++scale) {
    kron.push_back(generated_graph(graph::Generator::kronecker, scale, weights));
    urand.push_back(generated_graph(graph::Generator::uniform, scale, weights));
  }
  // test_graphs' own Kronecker and uniform graphs are among those.
  std::vector<std::string> fixed;
  std::vector<test_support::NamedGraph> graphs = test_support::test_graphs(weights);
  graphs.push_back({"sources_and_sinks", sources_and_sinks(weights)});
  for (const test_support::NamedGraph& g : graphs)
    if (!g.name.starts_with("kron:") && !g.name.starts_with("urand:")) fixed.push_back(csr_file(g.name, g.edges, weights));
  struct Input {
    std::string file, spec;  // spec: the generator's, or empty
    harness::RunResult reference;
    bool into_sinks;  // computation filtering has entries to skip
    bool out_of_sources;  // ... and entries out of sources
  };
  std::vector<Input> inputs;
  const auto add = [&](const std::string& file, const std::string& spec) {
    inputs.push_back({file, spec, run(algorithm, file, "seq", 1, 1, true, options),
                      toggle == Toggle::computation && has_edges_into_sinks(file),
                      toggle == Toggle::computation && entries_out_of_sources(file) > 0});
  };
  for (const std::string& file : fixed) add(file, "");
  for (const std::vector<Generated>* generated : {&kron, &urand})
    for (const Generated& g : *generated) add(g.file, g.spec);
  for (std::size_t s = 0; s < kShapes.size(); ++s) {
    const Shape& shape = kShapes[s];
    for (std::size_t m = 0; m < kModes.size(); ++m) {
      const Mode& mode = kModes[m];
      for (const bool filter : {true, false}) {
        const std::size_t f = filter ? 0 : 1;
        for (std::size_t i = 0; i < inputs.size(); ++i) {
          if (!test_support::walks(s + i, m * 2 + f, kModes.size() * 2)) continue;
          const Input& in = inputs[i];
          const bool spec = !in.spec.empty() && (s + m + f + i) % 2 == 0;
          const std::string& graph = spec ? in.spec : in.file;
          const harness::RunResult la = run(algorithm, graph, "la", shape.ranks, shape.threads, filter, options, &mode,
                                            toggled, spec && weights);
          const std::string where = algorithm + " on " + graph + " at " + std::to_string(shape.ranks) + "x" +
                                    std::to_string(shape.threads) + " " + mode.units + " " + mode.placement +
                                    (filter ? "" : " without " + toggled);
          expect_equal(in.reference, la, where);
          const la::ModelStats& model = dynamic_cast<const engines::LaStats&>(*la.stats).model;
          if (toggle == Toggle::activity) {
            // Filtered, bfs's and sssp's first iterations have one active vertex in a segment.
            if (!filter) {
              EXPECT_EQ(model.sparse_segments, 0u) << where;
            } else if (algorithm == "bfs" || algorithm == "sssp") {
              EXPECT_GT(model.sparse_segments, 0u) << where;
            }
          } else {
            if (!filter || !in.into_sinks) {
              EXPECT_EQ(model.skipped_nonzeros, 0u) << where;
            } else {
              EXPECT_GT(model.skipped_nonzeros, 0u) << where;
            }
            if (!filter || !in.out_of_sources) {
              EXPECT_EQ(model.skipped_source_nonzeros, 0u) << where;
            } else {
              EXPECT_GT(model.skipped_source_nonzeros, 0u) << where;
            }
          }
        }
      }
    }
  }
}

}  // namespace

TEST(LaEngine, BfsEqualsTheReference) { expect_equal_to_reference("bfs", false); }
TEST(LaEngine, CcEqualsTheReference) { expect_equal_to_reference("cc", false); }
TEST(LaEngine, SsspEqualsTheReference) { expect_equal_to_reference("sssp", true); }
TEST(LaEngine, SpmvEqualsTheReference) { expect_equal_to_reference("spmv", true); }
// A tolerance measures every vertex's change, which turns computation filtering off.
TEST(LaEngine, PagerankEqualsTheReference) {
  harness::Options tight;
  tight.set("tolerance", "1e-12");
  expect_equal_to_reference("pagerank", false, tight);
}
// Fixed steps (tolerance 0): the sinks wait for the last step and the sources' entries are never
// multiplied, with computation filtering on and off (the axis the other tests spend on activity filtering, which a stationary program never uses).
TEST(LaEngine, PagerankInFixedStepsEqualsTheReferenceWithAndWithoutComputationFiltering) {
  harness::Options fixed;
  fixed.set("tolerance", "0");
  fixed.set("iterations", "20");
  expect_equal_to_reference("pagerank", false, fixed, Toggle::computation);
}

// Direction switching (la/pull.hpp): bfs pulled wherever it can (--direction pull: every tile,
// whatever the frontier) and by the cost rule (auto) equals the reference on every graph, shape
// and placement of the MPI*X mode, with x as pairs and dense; a wrong mask, a wrong frontier
// bitset or a row stopped too early would show here.
TEST(LaEngine, BfsPulledEqualsTheReference) {
  const std::vector<std::string> graphs = graph_files(false);
  for (std::size_t g = 0; g < graphs.size(); ++g) {
    const std::string& graph = graphs[g];
    const harness::RunResult reference = run("bfs", graph, "seq", 1, 1, true, {});
    for (std::size_t s = 0; s < kShapes.size(); ++s) {
      const Shape& shape = kShapes[s];
      for (std::size_t m = 0; m < 2; ++m) {
        const Mode& mode = kModes[m];
        for (const std::string direction : {"pull", "auto"}) {
          for (bool filter : {true, false}) {
            const std::size_t turned = (m * 2 + (direction == "pull" ? 0 : 1)) * 2 + (filter ? 0 : 1);
            if (!test_support::walks(g + s, turned, 8)) continue;
            harness::Options options;
            options.set("direction", direction);
            const harness::RunResult la = run("bfs", graph, "la", shape.ranks, shape.threads, filter, options, &mode);
            const std::string where = graph + " at " + std::to_string(shape.ranks) + "x" +
                                      std::to_string(shape.threads) + " " + mode.placement + " " + direction +
                                      (filter ? "" : " unfiltered");
            EXPECT_EQ(la.values, reference.values) << where;
            const auto pulled = dynamic_cast<const engines::LaStats&>(*la.stats).model.pulled_tiles;
            if (direction == std::string("pull")) {
              EXPECT_GT(pulled, 0u) << where;
            }
          }
        }
      }
    }
  }
}

// The cost rule pulls the middle levels of a bfs on a Kronecker graph and pushes the first; push
// pulls nothing, and all three give the reference's levels.
TEST(LaEngine, BfsAutomaticDirectionPullsTheLargeFrontiers) {
  const std::string graph = std::string(COURIER_TEST_TMPDIR) + "/la_kron14_bfs.csr";
  graph::write_csr(graph, graph::build_csr(test_support::generated(graph::Generator::kronecker, 14, false)));
  const harness::RunResult reference = run("bfs", graph, "seq", 1, 1, true, {});
  for (const Shape& shape : std::vector<Shape>{{1, 1}, {1, 2}, {2, 1}, {2, 2}}) {
    std::uint64_t pulled[3] = {0, 0, 0};
    const char* directions[3] = {"auto", "push", "pull"};
    for (int d = 0; d < 3; ++d) {
      harness::Options options;
      options.set("direction", directions[d]);
      const harness::RunResult la = run("bfs", graph, "la", shape.ranks, shape.threads, true, options);
      const std::string where = std::to_string(shape.ranks) + "x" + std::to_string(shape.threads) + " " + directions[d];
      EXPECT_EQ(la.values, reference.values) << where;
      const auto& stats = dynamic_cast<const engines::LaStats&>(*la.stats);
      pulled[d] = stats.model.pulled_tiles;
    }
    const std::string where = std::to_string(shape.ranks) + "x" + std::to_string(shape.threads);
    EXPECT_GT(pulled[0], 0u) << where;
    EXPECT_EQ(pulled[1], 0u) << where;
    EXPECT_GT(pulled[2], pulled[0]) << where;  // the first levels are pushed
  }
}

// cc runs on the tiles' samples first (la/model.hpp: the first two entries of each column and
// row), then on the whole tiles from the labels reached: the labels equal the reference's with
// and without sampling, on every graph, shape and placement, MPI*X and MPI+X, x as pairs and
// dense. The last graph joins two pieces only by an edge outside every tile's sample (5 - 2: 5
// has 0 and 1 first, 2 has 3 and 4; all in segment 0 at every shape), so a whole-tiles phase that
// did not start from every vertex would leave 2, 3 and 4 labelled 2; and 0 is the hub, so its
// label is the common one that the MPI*X mode pulls rather than pushes leaving the samples: a
// pull that missed row 2 would leave them labelled 2 too.
TEST(LaEngine, CcOnSamplesFirstEqualsTheReference) {
  std::vector<std::string> graphs = graph_files(false);
  graphs.push_back(std::string(COURIER_TEST_TMPDIR) + "/la_kron12_cc.csr");
  graph::write_csr(graphs.back(), graph::build_csr(test_support::generated(graph::Generator::kronecker, 12, false)));
  graph::EdgeList unsampled;
  unsampled.num_vertices = 400;
  for (const auto& [a, b] : std::vector<std::pair<graph::vertex_t, graph::vertex_t>>{
           {5, 0}, {5, 1}, {5, 2}, {2, 3}, {2, 4}, {20, 30}, {30, 39}})
    unsampled.edges.push_back({a, b});
  for (graph::vertex_t v = 6; v < 16; ++v) unsampled.edges.push_back({0, v});
  graphs.push_back(std::string(COURIER_TEST_TMPDIR) + "/la_unsampled_cc.csr");
  graph::write_csr(graphs.back(), graph::build_csr(unsampled));
  for (std::size_t g = 0; g < graphs.size(); ++g) {
    const std::string& graph = graphs[g];
    const harness::RunResult reference = run("cc", graph, "seq", 1, 1, true, {});
    for (std::size_t s = 0; s < kShapes.size(); ++s) {
      const Shape& shape = kShapes[s];
      for (std::size_t m = 0; m < 3; ++m) {
        const Mode& mode = kModes[m];
        for (const std::string sampling : {"true", "false"}) {
          for (bool filter : {true, false}) {
            const std::size_t turned = (m * 2 + (sampling == "true" ? 0 : 1)) * 2 + (filter ? 0 : 1);
            if (!test_support::walks(g + s, turned, 12)) continue;
            harness::Options options;
            options.set("sampling", sampling);
            const harness::RunResult la = run("cc", graph, "la", shape.ranks, shape.threads, filter, options, &mode);
            const std::string where = graph + " at " + std::to_string(shape.ranks) + "x" +
                                      std::to_string(shape.threads) + " " + mode.units + " " + mode.placement +
                                      " sampling " + sampling + (filter ? "" : " unfiltered");
            EXPECT_EQ(la.values, reference.values) << where;
            const auto& model = dynamic_cast<const engines::LaStats&>(*la.stats).model;
            if (sampling == std::string("true")) {
              EXPECT_GT(model.sampled_iterations, 0u) << where;
              if (mode.units == "threads") {
                EXPECT_GT(model.pulled_tiles, 0u) << where;
              }
            } else {
              EXPECT_EQ(model.sampled_iterations, 0u) << where;
            }
          }
        }
      }
    }
  }
}

// cc's labels jump (la/model.hpp, FastSV's hooking and shortcutting): on a path, where labels
// moving one edge per iteration take as many iterations as vertices, the hooks join the pieces
// of every segment into trees whose roots take the smallest label, so a few iterations do, also
// when the path crosses ranks (the trees then join through the labels at segment ends). A jump
// that followed a wrong parent would hand a label across components: the two paths here, and the
// reference's labels, catch that.
TEST(LaEngine, CcLabelsJumpAlongAPath) {
  graph::EdgeList paths;
  paths.num_vertices = 4000;
  for (graph::vertex_t v = 1; v < 4000; ++v)
    if (v != 2500) paths.edges.push_back({v - 1, v});  // 0..2499 and 2500..3999
  const std::string graph = std::string(COURIER_TEST_TMPDIR) + "/la_two_paths.csr";
  graph::write_csr(graph, graph::build_csr(paths));
  const harness::RunResult reference = run("cc", graph, "seq", 1, 1, true, {});
  for (const Shape& shape : kShapes) {
    for (const std::string sampling : {"true", "false"}) {
      harness::Options options;
      options.set("sampling", sampling);
      const harness::RunResult la = run("cc", graph, "la", shape.ranks, shape.threads, true, options);
      const std::string where =
          std::to_string(shape.ranks) + "x" + std::to_string(shape.threads) + " sampling " + sampling;
      EXPECT_EQ(la.values, reference.values) << where;
      EXPECT_LE(dynamic_cast<const engines::LaStats&>(*la.stats).model.iterations, 12u) << where;
    }
  }
}

// Segments wider than an eager message travel by rendezvous, so a send buffer must stay untouched
// until its send completes, also when one member leads several segments (2D-Cyclic at 4x1).
TEST(LaEngine, RendezvousSizedSegmentsEqualTheReference) {
  const std::string graph = std::string(COURIER_TEST_TMPDIR) + "/la_kron13.csr";
  graph::write_csr(graph, graph::build_csr(test_support::generated(graph::Generator::kronecker, 13, false)));
  harness::Options tight;
  tight.set("tolerance", "1e-12");
  for (const std::string algorithm : {"pagerank", "cc"}) {
    const harness::Options& options = algorithm == std::string("pagerank") ? tight : harness::Options{};
    const harness::RunResult reference = run(algorithm, graph, "seq", 1, 1, true, options);
    for (const Shape& shape : std::vector<Shape>{{2, 1}, {4, 1}, {4, 2}}) {
      for (const Mode& mode : kModes) {
        const harness::RunResult la = run(algorithm, graph, "la", shape.ranks, shape.threads, true, options, &mode);
        const std::string where = algorithm + " at " + std::to_string(shape.ranks) + "x" +
                                  std::to_string(shape.threads) + " " + mode.units + " " + mode.placement;
        if (const auto* reals = std::get_if<std::vector<double>>(&reference.values)) {
          const auto& got = std::get<std::vector<double>>(la.values);
          double l1 = 0;
          for (std::size_t v = 0; v < got.size(); ++v) l1 += std::abs(got[v] - (*reals)[v]);
          EXPECT_LT(l1, 1e-6) << where;
        } else {
          EXPECT_EQ(la.values, reference.values) << where;
        }
      }
    }
  }
}

// Computation filtering (section 7.6): with a fixed number of steps pagerank needs the vertices
// without out-edges only in the last, so the others skip the entries into sinks; a tolerance
// measures every vertex's change, so none is skipped. No iteration multiplies an entry out of a
// source (no in-edges), with a tolerance too: their sum was made once at load and Apply folds it
// in. The result is the reference's either way.
TEST(LaEngine, ComputationFilterSkipsTheSinksUntilTheLastStep) {
  harness::Options fixed;
  fixed.set("tolerance", "0");
  fixed.set("iterations", "15");
  harness::Options off = fixed;
  off.set("computation-filter", "false");
  harness::Options measured;
  measured.set("tolerance", "1e-9");
  const std::string kron = std::string(COURIER_TEST_TMPDIR) + "/la_kron10_directed.csr";
  graph::write_csr(kron, graph::build_csr(test_support::generated(graph::Generator::kronecker, 10, false)));
  const std::string sinks = graph_files(false).back();  // sources_and_sinks
  const auto model_of = [](const harness::RunResult& r) {
    return dynamic_cast<const engines::LaStats&>(*r.stats).model;
  };
  const auto skipped = [&](const harness::RunResult& r) { return model_of(r).skipped_nonzeros; };
  const auto skipped_sources = [&](const harness::RunResult& r) { return model_of(r).skipped_source_nonzeros; };
  for (const std::string& graph : {kron, sinks}) {
    const std::uint64_t out_of_sources = entries_out_of_sources(graph);
    ASSERT_GT(out_of_sources, 0u) << graph;
    for (const harness::Options* options : {&fixed, &measured}) {
      const harness::RunResult reference = run("pagerank", graph, "seq", 1, 1, true, *options);
      const auto& expected = std::get<std::vector<double>>(reference.values);
      for (const Shape& shape : kShapes) {
        for (const Mode& mode : kModes) {
          const std::string where = graph + " at " + std::to_string(shape.ranks) + "x" + std::to_string(shape.threads) +
                                    " " + mode.units + " " + mode.placement;
          const harness::RunResult on = run("pagerank", graph, "la", shape.ranks, shape.threads, true, *options, &mode);
          double l1 = 0;
          for (std::size_t v = 0; v < expected.size(); ++v)
            l1 += std::abs(std::get<std::vector<double>>(on.values)[v] - expected[v]);
          EXPECT_LT(l1, 1e-6) << where;
          EXPECT_EQ(skipped_sources(on), out_of_sources * model_of(on).iterations) << where;
          if (options == &measured) {
            EXPECT_EQ(skipped(on), 0u) << where;
            continue;
          }
          EXPECT_GT(skipped(on), 0u) << where;
          const harness::RunResult unfiltered =
              run("pagerank", graph, "la", shape.ranks, shape.threads, true, off, &mode);
          EXPECT_EQ(skipped(unfiltered), 0u) << where;
          EXPECT_EQ(skipped_sources(unfiltered), 0u) << where;
          double apart = 0;
          for (std::size_t v = 0; v < expected.size(); ++v)
            apart += std::abs(std::get<std::vector<double>>(on.values)[v] -
                              std::get<std::vector<double>>(unfiltered.values)[v]);
          // Fixed steps carry the shares as floats (pagerank_float_shares) where the sources' folded
          // sum is a double's: apart by the floats' rounding, far inside the reference's 1e-6.
          EXPECT_LT(apart, 1e-7) << where;
        }
      }
    }
  }
}

TEST(LaEngine, RefusesWhatItCannotRunNamingTheAlternative) {
  harness::RunSpec spec;
  spec.algorithm = "kcore";
  spec.graph = "kron:6";
  spec.engine = "la";
  try {
    harness::run(builtin_registry(), spec);
    ADD_FAILURE() << "kcore ran on la";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("--engine vertex"), std::string::npos) << error.what();
  }
  spec.algorithm = "sssp";  // unweighted: la's sssp needs uint32 weights
  try {
    harness::run(builtin_registry(), spec);
    ADD_FAILURE() << "sssp ran on la without weights";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("uint32 edge weights"), std::string::npos) << error.what();
  }
  spec.algorithm = "cc";  // the raw-MPI baseline needs processes under mpirun
  spec.options.set("endpoints", "mpi");
  try {
    harness::run(builtin_registry(), spec);
    ADD_FAILURE() << "--endpoints mpi ran without a launcher";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("--endpoints courier"), std::string::npos) << error.what();
  }
}

TEST(LaEngine, ReportsItsTilesAndMessages) {
  harness::RunSpec spec;
  spec.algorithm = "cc";
  spec.graph = "kron:8";
  spec.engine = "la";
  spec.ranks = 2;
  spec.threads = 2;
  spec.verify = true;
  const harness::RunResult result = harness::run(builtin_registry(), spec);
  EXPECT_TRUE(result.passed());
  const auto* stats = dynamic_cast<const engines::LaStats*>(result.stats.get());
  ASSERT_NE(stats, nullptr);
  EXPECT_EQ(stats->grid, 4u);
  EXPECT_GT(stats->nonzeros, 0u);
  EXPECT_GT(stats->model.messages, 0u);
  EXPECT_GT(stats->model.sparse_segments, 0u);  // the last rounds of cc have few labels moving
  EXPECT_GT(stats->model.iterations, 1u);
  // Where the time went: every phase ran, and together they fit in the run (each is the slowest
  // thread's, so their sum may pass the run's time by no more than the phases overlap).
  const la::ModelStats& m = stats->model;
  EXPECT_GT(m.broadcast_seconds, 0.0);
  EXPECT_GT(m.combine_seconds, 0.0);
  EXPECT_GT(m.apply_seconds, 0.0);
  EXPECT_GT(m.collective_seconds, 0.0);
  EXPECT_LE(std::max({m.broadcast_seconds, m.combine_seconds, m.apply_seconds, m.collective_seconds}),
            result.run_seconds);
  ASSERT_EQ(stats->placement.size(), 2u);  // one line per rank: where its threads run
  EXPECT_EQ(stats->placement[1].rfind("rank 1: threads", 0), 0u) << stats->placement[1];
}

}  // namespace la_engine_test
