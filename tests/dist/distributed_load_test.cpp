// Distributed loading: every rank reads its own part and the shuffle sends each edge to its owner;
// the LocalGraphs must equal what partition_in_memory makes of the whole-graph load, for every
// format, rank count, policy and transform, and a malformed input must fail alike on every rank.
#include "courier/dist/distributed_load.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <set>

#include "courier/dist/agreed_failure.hpp"
#include "courier/graph/io.hpp"
#include "courier/graph/transform.hpp"
#include "support/deadline.hpp"
#include "support/thread_exchange.hpp"

namespace distributed_load_test {

using namespace courier;
using namespace courier::dist;
using courier::test_support::ThreadExchange;
using courier::test_support::within_seconds;

namespace {

std::string temp_path(const std::string& name) { return std::string(COURIER_TEST_TMPDIR) + "/dload_" + name; }

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Skewed, with self loops and duplicate pairs of different weights.
graph::EdgeList messy_graph(vertex_t n, edge_t m, std::uint64_t seed, graph::WeightType weights) {
  std::mt19937_64 rng(seed);
  graph::EdgeList list;
  list.num_vertices = n;
  std::vector<std::uint32_t> ints;
  std::vector<float> reals;
  for (edge_t i = 0; i < m; ++i) {
    const vertex_t src = rng() % 4 == 0 ? 0 : rng() % n;
    const vertex_t dst = i % 9 == 0 ? src : rng() % n;
    list.edges.push_back({src, dst});
    if (i % 7 == 0 && i > 0) list.edges.push_back({src, dst});  // a duplicate pair
    for (int copy = (i % 7 == 0 && i > 0) ? 2 : 1; copy > 0; --copy) {
      ints.push_back(static_cast<std::uint32_t>(1 + rng() % 255));
      reals.push_back(static_cast<float>(rng() % 1000) / 8.0f);
    }
  }
  if (weights == graph::WeightType::u32) list.weights = std::move(ints);
  if (weights == graph::WeightType::f32) list.weights = std::move(reals);
  return list;
}

// Each in-row holds the reverses of the out-edges into its vertex, by source (and in the out-row's
// order between parallel edges), worked out here independently of the builders (which the
// reference partition shares).
void expect_in_edges_reverse_out_edges(const LocalGraph& g) {
  if (!g.has_in_edges()) return;
  std::vector<std::vector<std::pair<local_t, edge_t>>> rows(g.proxies());  // (source, out-edge)
  for (local_t v = 0; v < g.proxies(); ++v)
    for (edge_t e = g.out().offsets[v]; e < g.out().offsets[v + 1]; ++e) rows[g.out().targets[e]].push_back({v, e});
  const auto weight = [](const auto& weights, edge_t e) {
    return std::visit(
        [&](const auto& w) -> double {
          if constexpr (std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
            return 0;
          else
            return static_cast<double>(w[e]);
        },
        weights);
  };
  for (local_t v = 0; v < g.proxies(); ++v) {
    ASSERT_EQ(g.in().offsets[v + 1] - g.in().offsets[v], rows[v].size()) << "in-degree of " << v;
    for (std::size_t i = 0; i < rows[v].size(); ++i) {
      const edge_t e = g.in().offsets[v] + i;
      ASSERT_EQ(g.in().targets[e], rows[v][i].first) << "in-edge " << i << " of " << v;
      ASSERT_EQ(weight(g.in().weights, e), weight(g.out().weights, rows[v][i].second))
          << "in-edge " << i << " of " << v;
    }
  }
}

void expect_same(const LocalGraph& a, const LocalGraph& b) {
  expect_in_edges_reverse_out_edges(a);
  ASSERT_EQ(a.global_vertices(), b.global_vertices());
  ASSERT_EQ(a.masters(), b.masters());
  ASSERT_EQ(a.proxies(), b.proxies());
  for (local_t v = 0; v < a.proxies(); ++v) ASSERT_EQ(a.global_id(v), b.global_id(v));
  EXPECT_EQ(a.out().offsets, b.out().offsets);
  EXPECT_EQ(a.out().targets, b.out().targets);
  EXPECT_EQ(a.out().weights, b.out().weights);
  EXPECT_EQ(a.in().offsets, b.in().offsets);
  EXPECT_EQ(a.in().targets, b.in().targets);
  EXPECT_EQ(a.in().weights, b.in().weights);
  for (rank_t r = 0; r < a.ranks(); ++r) {
    const auto am = a.mirrors_owned_by(r), bm = b.mirrors_owned_by(r);
    EXPECT_TRUE(std::equal(am.begin(), am.end(), bm.begin(), bm.end()));
    const auto ao = a.masters_mirrored_on(r), bo = b.masters_mirrored_on(r);
    EXPECT_TRUE(std::equal(ao.begin(), ao.end(), bo.begin(), bo.end()));
  }
}

struct Transforms {
  const char* name;
  bool symmetrize, drop_self_loops, dedupe, simple_undirected;
};
constexpr Transforms kTransforms[] = {
    {"none", false, false, false, false},
    {"symmetrize", true, false, false, false},
    {"dedupe", false, false, true, false},
    {"symmetrize+loops+dedupe", true, true, true, false},
    {"simple-undirected", false, false, false, true},
};

// The reference: the whole graph loaded at once and partitioned in memory.
std::vector<LocalGraph> reference(const std::string& graph, const DistributedLoadOptions& options, rank_t ranks) {
  graph::EdgeList all = graph::load_edge_list(graph, options.load);
  if (options.simple_undirected) all = graph::to_edge_list(graph::simple_undirected(graph::build_csr(all)));
  return partition_in_memory(all, options.policy, ranks, options.with_in_edges);
}

std::vector<std::optional<DistributedGraph>> load_on(const std::string& graph, const DistributedLoadOptions& options,
                                                     rank_t ranks) {
  std::vector<std::optional<DistributedGraph>> parts(static_cast<std::size_t>(ranks));
  ThreadExchange::run(ranks, [&](const Collective& c) { parts[c.rank].emplace(load_distributed(graph, options, c)); });
  return parts;
}

void check_every_way(const std::string& graph, graph::LoadOptions load = {}) {
  for (rank_t ranks = 1; ranks <= 4; ++ranks)
    for (Policy policy : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash})
      for (const Transforms& t : kTransforms) {
        SCOPED_TRACE(::testing::Message() << graph << " on " << ranks << " ranks, " << to_string(policy) << ", " << t.name);
        DistributedLoadOptions options;
        options.policy = policy;
        options.load = load;
        options.load.symmetrize = t.symmetrize;
        options.load.drop_self_loops = t.drop_self_loops;
        options.load.dedupe = t.dedupe;
        options.simple_undirected = t.simple_undirected;
        options.with_in_edges = true;
        options.shuffle_chunk = 7;  // many rounds
        const auto expected = reference(graph, options, ranks);
        const auto got = load_on(graph, options, ranks);
        edge_t edges = 0;
        std::vector<edge_t> out_degree(expected[0].global_vertices(), 0);
        for (rank_t r = 0; r < ranks; ++r) {
          expect_same(got[r]->graph, expected[r]);
          edges += expected[r].edges();
          for (local_t v = 0; v < expected[r].proxies(); ++v)
            out_degree[expected[r].global_id(v)] += expected[r].out().degree(v);
        }
        const vertex_t most = static_cast<vertex_t>(std::max_element(out_degree.begin(), out_degree.end()) -
                                                    out_degree.begin());  // the first of the largest
        for (rank_t r = 0; r < ranks && !out_degree.empty(); ++r) EXPECT_EQ(got[r]->largest_out_degree, most);
        EXPECT_EQ(got[0]->edges, edges);
        const PartitionQuality q = quality(expected);
        EXPECT_DOUBLE_EQ(got[ranks - 1]->quality.replication, q.replication);
        EXPECT_DOUBLE_EQ(got[ranks - 1]->quality.edge_imbalance, q.edge_imbalance);
        if (::testing::Test::HasFailure()) return;
      }
}

// A rank whose edges do not fit 32-bit offsets keeps them in 64 bits: the limit lowered to none,
// every builder (rows by source, a .csr's rows, the in-edges' transpose) makes the same graph.
TEST(DistributedLoad, RowsWithSixtyFourBitOffsetsAreTheSameGraph) {
  const std::string csr = temp_path("wide.csr"), text = temp_path("wide.wel"), symmetric = temp_path("wide_sym.csr");
  const graph::EdgeList list = messy_graph(80, 400, 5, graph::WeightType::u32);
  graph::write_edge_list(csr, list);
  graph::write_edge_list(text, list);
  graph::write_edge_list(symmetric, graph::symmetrize(list), {.symmetric = true});
  for (const std::string& graph : {csr, text, symmetric})
    for (rank_t ranks = 1; ranks <= 3; ++ranks)
      for (Policy policy : {Policy::oec, Policy::cvc}) {
        SCOPED_TRACE(::testing::Message() << graph << " on " << ranks << " ranks, " << to_string(policy));
        DistributedLoadOptions options;
        options.policy = policy;
        options.with_in_edges = true;
        const auto expected = reference(graph, options, ranks);
        struct Wide {  // every CSR in 64 bits while it lives, whatever the load throws
          edge_t limit = RowOffsets::narrow_limit.exchange(0);
          ~Wide() { RowOffsets::narrow_limit = limit; }
        };
        const auto got = [&] {
          const Wide wide;
          return load_on(graph, options, ranks);
        }();
        for (rank_t r = 0; r < ranks; ++r) {
          ASSERT_TRUE(expected[r].out().offsets.narrow());
          if (got[r]->graph.edges() > 0) {
            EXPECT_FALSE(got[r]->graph.out().offsets.narrow());
            EXPECT_FALSE(got[r]->graph.in().offsets.narrow());
          }
          expect_same(got[r]->graph, expected[r]);
        }
      }
}

TEST(DistributedLoad, TextEdgeListWithIntegerWeights) {
  const std::string path = temp_path("int.wel");
  graph::write_edge_list(path, messy_graph(40, 150, 1, graph::WeightType::u32));
  check_every_way(path);
}

TEST(DistributedLoad, TextEdgeListWithoutWeightsOrCountsComment) {
  const std::string path = temp_path("plain.el");
  // Comments, blank lines, CRLF, a long line: lines cross the byte ranges in many places.
  write_text_file(path, "# a comment\n0 1\r\n\n1 2\n% another\n2     0\n3 3\n0 1\n7 2\n2 7\n5 4\n");
  check_every_way(path);
}

TEST(DistributedLoad, TextWithRealWeightsInOnlyOnePart) {
  const std::string path = temp_path("mixed.wel");
  // Integers first, one real at the end: every part must take the weights as reals.
  write_text_file(path, "0 1 3\n1 2 4\n2 3 5\n3 0 6\n0 2 7\n1 3 2.5\n");
  check_every_way(path);
  DistributedLoadOptions options;
  const auto got = load_on(path, options, 4);
  EXPECT_EQ(got[0]->weight_type, graph::WeightType::f32);
}

TEST(DistributedLoad, MoreRanksThanLines) {
  const std::string path = temp_path("two.el");
  write_text_file(path, "0 1\n1 0");  // no final newline
  check_every_way(path);
}

TEST(DistributedLoad, MatrixMarketSymmetricReal) {
  const std::string path = temp_path("sym.mtx");
  write_text_file(path,
                  "%%MatrixMarket matrix coordinate real symmetric\n% comment\n6 6 8\n1 1 1.5\n2 1 2\n3 2 0.5\n4 1 "
                  "3\n% inside\n5 5 1\n6 2 2\n6 3 4.25\n5 4 9\n");
  check_every_way(path);
}

TEST(DistributedLoad, MatrixMarketWrittenGeneral) {
  const std::string path = temp_path("gen.mtx");
  graph::write_edge_list(path, messy_graph(30, 90, 2, graph::WeightType::u32));
  check_every_way(path);
}

TEST(DistributedLoad, Dimacs) {
  const std::string path = temp_path("g.gr");
  graph::write_edge_list(path, messy_graph(30, 90, 3, graph::WeightType::u32));
  check_every_way(path);
}

TEST(DistributedLoad, BinaryEdgeListsOfBothWidths) {
  for (int width : {4, 8}) {
    const std::string path = temp_path("g" + std::to_string(width) + ".bel");
    graph::WriteOptions write;
    write.binary_id_bytes = width;
    graph::write_edge_list(path, messy_graph(30, 96, 4, graph::WeightType::none), write);
    check_every_way(path);  // the width is guessed, each part voting
  }
  const std::string weighted = temp_path("w.bel");
  graph::write_edge_list(weighted, messy_graph(30, 90, 5, graph::WeightType::f32));
  graph::LoadOptions load;
  load.read.binary_weight = graph::WeightType::f32;
  load.read.binary_id_bytes = 8;
  check_every_way(weighted, load);
}

TEST(DistributedLoad, CourierCsr) {
  const std::string path = temp_path("g.csr");
  graph::write_edge_list(path, messy_graph(50, 200, 6, graph::WeightType::f32));
  check_every_way(path);
  const std::string empty_rows = temp_path("sparse.csr");
  graph::write_edge_list(empty_rows, messy_graph(500, 6, 7, graph::WeightType::none));  // most rows empty
  check_every_way(empty_rows);
}

// The partitions' bytes by structure, summed over ranks and the same on every rank: out-edges and
// in-edges are their arrays (32-bit targets, offsets 32-bit while a rank's edges fit), no in-edges
// unless asked for.
TEST(DistributedLoad, ReportsTheBytesOfEachStructure) {
  const std::string csr = temp_path("bytes.csr"), text = temp_path("bytes.wel");
  const graph::EdgeList list = messy_graph(60, 300, 21, graph::WeightType::u32);
  graph::write_edge_list(csr, list);
  graph::write_edge_list(text, list);
  for (const std::string& graph : {csr, text})
    for (rank_t ranks = 1; ranks <= 3; ++ranks)
      for (bool in : {false, true}) {
        SCOPED_TRACE(::testing::Message() << graph << " on " << ranks << " ranks, in-edges " << in);
        DistributedLoadOptions options;
        options.with_in_edges = in;
        const auto got = load_on(graph, options, ranks);
        std::uint64_t csr_bytes = 0, in_bytes = 0, proxies = 0;
        for (rank_t r = 0; r < ranks; ++r) {
          const LocalGraph& g = got[r]->graph;
          csr_bytes += (g.proxies() + 1) * 4 + g.edges() * 8;  // a target and a weight, 4 bytes each
          if (in) in_bytes += (g.proxies() + 1) * 4 + g.edges() * 8;
          proxies += g.mirrors() * 8;  // a global id (in 32 bits: the ids fit) and a local id
          for (rank_t peer = 0; peer < ranks; ++peer) proxies += g.masters_mirrored_on(peer).size() * 4;
        }
        for (rank_t r = 0; r < ranks; ++r) {
          const GraphBytes& b = got[r]->bytes;
          EXPECT_EQ(b.csr, csr_bytes);
          EXPECT_EQ(b.in_edges, in_bytes);
          EXPECT_EQ(b.proxies, proxies);
          EXPECT_EQ(b.maps, static_cast<std::uint64_t>(ranks) * ((ranks + 1) * 8 + (ranks + 1) * 8));
          EXPECT_EQ(b.total(), b.csr + b.in_edges + b.proxies + b.maps);
        }
      }
}

TEST(DistributedLoad, Generators) {
  graph::LoadOptions load;
  load.weights = true;
  check_every_way("kron:6", load);
  check_every_way("urand:5:ef=3");
}

// Every rank gets the same error, naming the file and the line counted from its start.
void expect_fails_everywhere(const std::string& graph, const std::string& what, rank_t ranks = 3) {
  std::vector<std::string> messages(static_cast<std::size_t>(ranks));
  ThreadExchange::run(ranks, [&](const Collective& c) {
    try {
      load_distributed(graph, {}, c);
    } catch (const LoadError& e) {
      messages[c.rank] = e.what();
    }
  });
  for (const std::string& m : messages) {
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_EQ(m, messages[0]);
  }
}

TEST(DistributedLoad, MalformedInputFailsOnEveryRank) {
  const std::string bad = temp_path("bad.el");
  write_text_file(bad, "0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 x\n7 8\n");
  expect_fails_everywhere(bad, bad + ":7: target id 'x'");
  expect_fails_everywhere(temp_path("missing.el"), "cannot open");
  const std::string columns = temp_path("columns.el");
  write_text_file(columns, "0 1 5\n1 2 5\n2 3 5\n3 4 5\n4 5\n5 6\n");
  expect_fails_everywhere(columns, "every line needs the same columns");
  const std::string big = temp_path("big.wel");
  write_text_file(big, "0 1 1\n1 2 2\n2 3 3\n3 4 99999999999\n");
  expect_fails_everywhere(big, big + ":4: weight '99999999999'");
  const std::string mtx = temp_path("short.mtx");
  write_text_file(mtx, "%%MatrixMarket matrix coordinate pattern general\n3 3 5\n1 2\n2 3\n3 1\n");
  expect_fails_everywhere(mtx, mtx + ":2: the header declares 5");
  const std::string gr = temp_path("bad.gr");
  write_text_file(gr, "c x\np sp 3 3\na 1 2 1\na 2 3 1\na 3 9 1\n");
  expect_fails_everywhere(gr, gr + ":5: arc target 9 is outside 1..3");
  const std::string bel = temp_path("odd.bel");
  write_text_file(bel, std::string(13, '\0'));
  expect_fails_everywhere(bel, "neither a multiple");
}

// A .csr file is read by its rows, each rank checking only its own targets: a target beyond the
// graph (which the checksum alone would catch only once every part is hashed, and not at all
// without it) fails on every rank alike, naming the edge and its byte.
TEST(DistributedLoad, CsrTargetBeyondTheGraphFailsOnEveryRank) {
  const std::string good = temp_path("targets.csr");
  graph::EdgeList list;
  list.num_vertices = 6;
  for (vertex_t v = 0; v < 6; ++v) list.edges.push_back({v, (v + 1) % 6}), list.edges.push_back({v, (v + 2) % 6});
  graph::write_edge_list(good, list);
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::uint64_t k = 9, at = 64 + (list.num_vertices + 1) * 8 + k * 8;  // edge 9: vertex 4's second
  const vertex_t beyond = 77;
  std::memcpy(bytes.data() + at, &beyond, sizeof beyond);
  const std::string bad = temp_path("targets_bad.csr");
  write_text_file(bad, bytes);
  for (rank_t ranks = 1; ranks <= 4; ++ranks)
    expect_fails_everywhere(bad, fmt::format("{}: corrupted targets: edge 9 (byte {}) points to 77", bad, at), ranks);
}

// METIS files are read in parts (each rank counts its vertex lines; a scan gives its first
// vertex): comments, blank lines (vertices without neighbours) and weights anywhere.
TEST(DistributedLoad, MetisInParts) {
  const std::string path = temp_path("g.graph");
  graph::EdgeList simple = graph::symmetrize(messy_graph(80, 150, 14, graph::WeightType::none));
  simple = graph::remove_duplicate_edges(graph::remove_self_loops(simple));
  graph::write_edge_list(path, simple);
  check_every_way(path);
  const std::string awkward = temp_path("awkward.graph");
  write_text_file(awkward, "% c\n\n7 3 001\n2 4 3 1\n1 4\n% mid\n1 1\n\n   \n7 2\n%\n6 2\n\n");
  check_every_way(awkward);
  const std::string bad = temp_path("bad.graph");
  write_text_file(bad, "% c\n4 2\n2\n1\n%\n\n1 5\n");
  for (rank_t ranks = 1; ranks <= 4; ++ranks) expect_fails_everywhere(bad, bad + ":7: neighbour 5 is outside 1..4", ranks);
  const std::string more = temp_path("more.graph");
  write_text_file(more, "2 1\n2\n1\n\n%\n\n1\n");
  for (rank_t ranks = 1; ranks <= 4; ++ranks)
    expect_fails_everywhere(more, more + ":7: more vertex lines than the 2 declared on line 1", ranks);
  const std::string fewer = temp_path("fewer.graph");
  write_text_file(fewer, "%\n5 1\n2\n1\n\n");
  for (rank_t ranks = 1; ranks <= 4; ++ranks)
    expect_fails_everywhere(fewer, fewer + ":2: the header declares 5 vertices but the file has 3 vertex lines", ranks);
}

// A .csr file damaged where only its checksum notices: every rank, having hashed its own rows,
// fails with the same message naming the file.
TEST(DistributedLoad, CorruptedCsrFailsOnEveryRank) {
  const std::string good = temp_path("sum.csr");
  graph::write_edge_list(good, messy_graph(50, 200, 13, graph::WeightType::u32));
  std::ifstream in(good, std::ios::binary);
  std::string bytes{std::istreambuf_iterator<char>(in), {}};
  bytes[bytes.size() - 16] ^= 0x20;  // a weight near the end
  const std::string bad = temp_path("sum_bad.csr");
  write_text_file(bad, bytes);
  for (rank_t ranks = 1; ranks <= 4; ++ranks) expect_fails_everywhere(bad, bad + ": checksum mismatch", ranks);
}

// A failure on one rank after the agreed read checks (in the transforms, the shuffle, the
// LocalGraph, out of memory) must not leave the other ranks waiting in their next exchange:
// every rank throws the same LoadError naming the failing rank, promptly.
std::vector<std::string> messages_when(rank_t ranks, const std::function<void(const Collective&)>& body) {
  std::vector<std::string> messages(static_cast<std::size_t>(ranks));
  within_seconds(30, [&] {
    ThreadExchange::run(ranks, [&](const Collective& c) {
      try {
        body(c);
        messages[c.rank] = "no error";
      } catch (const LoadError& e) {
        messages[c.rank] = e.what();
      }
    });
  });
  return messages;
}

void expect_agreed(const std::vector<std::string>& messages, const std::string& what) {
  for (const std::string& m : messages) {
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_EQ(m, messages[0]);
  }
}

TEST(DistributedLoad, OneRankFailingInAnyStepFailsEveryRankAlike) {
  const std::string path = temp_path("steps.wel");
  graph::write_edge_list(path, messy_graph(60, 300, 11, graph::WeightType::u32));
  for (const char* step : {"transform", "degrees", "shuffle", "local graph"})
    for (rank_t ranks : {2, 3, 4})
      for (bool oom : {false, true}) {
        SCOPED_TRACE(::testing::Message() << step << " on " << ranks << " ranks" << (oom ? ", out of memory" : ""));
        const rank_t failing = ranks - 1;
        const auto messages = messages_when(ranks, [&](const Collective& c) {
          DistributedLoadOptions options;
          options.load.dedupe = true;  // the shuffle by source too
          options.shuffle_chunk = 5;   // many rounds: the others are mid-shuffle
          if (c.rank == failing)
            options.before_step = [&](std::string_view name) {
              if (name != step) return;
              if (oom) throw std::bad_alloc();
              throw std::runtime_error("injected");
            };
          load_distributed(path, options, c);
        });
        expect_agreed(messages, fmt::format("partitioning failed on rank {}: {}", failing, oom ? "out of memory (std::bad_alloc)" : "injected"));
      }
}

// A .csr file without transforms goes by its rows (no edge list on either side of the shuffle):
// a failure in any of its steps is agreed the same way.
TEST(DistributedLoad, OneRankFailingInAnyStepOfACsrsRowsFailsEveryRankAlike) {
  const std::string path = temp_path("steps.csr");
  graph::write_edge_list(path, messy_graph(60, 300, 11, graph::WeightType::u32));
  for (const char* step : {"transform", "degrees", "shuffle", "local graph"})
    for (rank_t ranks : {2, 3})
      for (Policy policy : {Policy::oec, Policy::iec}) {
        if (policy == Policy::oec && std::string_view(step) == "shuffle") continue;  // oec has none
        SCOPED_TRACE(::testing::Message() << step << " on " << ranks << " ranks, " << to_string(policy));
        const rank_t failing = ranks - 1;
        const auto messages = messages_when(ranks, [&](const Collective& c) {
          DistributedLoadOptions options;
          options.policy = policy;
          options.shuffle_chunk = 5;
          if (c.rank == failing)
            options.before_step = [&](std::string_view name) {
              if (name == step) throw std::runtime_error("injected");
            };
          load_distributed(path, options, c);
        });
        expect_agreed(messages, fmt::format("partitioning failed on rank {}: injected", failing));
      }
}

// One rank skips partitioning a .csr file: no shuffle step, and the partition (every policy, with
// and without in-edges, weights with duplicate pairs) is the in-memory one.
TEST(DistributedLoad, OneRankLoadsACsrWithoutAShuffle) {
  const std::string path = temp_path("one.csr");
  graph::write_edge_list(path, messy_graph(70, 400, 23, graph::WeightType::f32));
  for (Policy policy : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash})
    for (bool in : {false, true}) {
      std::vector<std::string> steps;
      DistributedLoadOptions options;
      options.policy = policy;
      options.with_in_edges = in;
      options.before_step = [&](std::string_view name) { steps.emplace_back(name); };
      const DistributedGraph got = load_distributed(path, options, solo_collective());
      EXPECT_EQ(steps, (std::vector<std::string>{"transform", "degrees", "local graph"}));
      expect_same(got.graph, reference(path, options, 1)[0]);
      EXPECT_EQ(got.graph.has_in_edges(), in);
      EXPECT_EQ(got.graph.mirrors(), 0u);
    }
}

// Under oec a row goes whole to its source's master, so each rank takes its masters' rows straight
// from the file, whatever part it read: no shuffle, and the partition is the in-memory one.
TEST(DistributedLoad, OecRanksTakeTheirMastersRowsFromTheFile) {
  const std::string path = temp_path("oec.csr");
  graph::write_edge_list(path, messy_graph(90, 700, 5, graph::WeightType::f32));
  for (rank_t ranks : {2, 3, 4}) {
    SCOPED_TRACE(::testing::Message() << ranks << " ranks");
    DistributedLoadOptions options;
    options.with_in_edges = true;
    std::vector<std::vector<std::string>> steps(static_cast<std::size_t>(ranks));
    std::vector<std::optional<DistributedGraph>> parts(static_cast<std::size_t>(ranks));
    ThreadExchange::run(ranks, [&](const Collective& c) {
      DistributedLoadOptions mine = options;
      mine.before_step = [&, r = c.rank](std::string_view name) { steps[r].emplace_back(name); };
      parts[c.rank].emplace(load_distributed(path, mine, c));
    });
    const auto expected = reference(path, options, ranks);
    for (rank_t r = 0; r < ranks; ++r) {
      EXPECT_EQ(steps[r], (std::vector<std::string>{"transform", "degrees", "local graph"}));
      expect_same(parts[r]->graph, expected[r]);
    }
  }
}

// A rank holding its masters' rows (one rank, or oec) copies them on every thread, each thread an
// equal share of the edges (enough edges here for two threads at least), narrowing the targets,
// mapping them to local ids and sorting any row a foreign writer left unsorted; the result is the
// in-memory partition's, weights and in-edges included.
TEST(DistributedLoad, MastersRowsAreCopiedOnEveryThread) {
  for (graph::WeightType weights : {graph::WeightType::none, graph::WeightType::u32}) {
    const std::string path = temp_path("copied.csr");
    graph::write_edge_list(path, messy_graph(3000, 300000, 41, weights));
    std::string bytes;
    {
      std::ifstream in(path, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    // Reverse every 7th row's targets (and weights) in place: rows out of order, checksum stale.
    std::vector<edge_t> offsets(3001);
    std::memcpy(offsets.data(), bytes.data() + 64, offsets.size() * 8);
    auto* targets = reinterpret_cast<vertex_t*>(bytes.data() + 64 + offsets.size() * 8);
    auto* ints = reinterpret_cast<std::uint32_t*>(targets + offsets.back());
    edge_t reversed = 0;
    for (vertex_t v = 0; v < 3000; v += 7) {
      std::reverse(targets + offsets[v], targets + offsets[v + 1]);
      if (weights != graph::WeightType::none) std::reverse(ints + offsets[v], ints + offsets[v + 1]);
      reversed += offsets[v + 1] - offsets[v];
    }
    ASSERT_GT(reversed, 1000u);
    const std::string unsorted = temp_path("unsorted.csr");
    write_text_file(unsorted, bytes);
    DistributedLoadOptions options;
    options.load.read.verify_checksum = false;
    options.with_in_edges = true;
    for (const std::string& graph : {path, unsorted})
      for (rank_t ranks = 1; ranks <= 3; ++ranks) {
        SCOPED_TRACE(::testing::Message() << graph << " on " << ranks << " ranks");
        const auto got = load_on(graph, options, ranks);
        const auto expected = reference(graph, options, ranks);
        for (rank_t r = 0; r < ranks; ++r) expect_same(got[r]->graph, expected[r]);
      }
  }
}

// Rows handed over in memory (not read from a file, so not checked by a reader) are checked too:
// a target beyond the graph is an error naming the edge.
TEST(DistributedLoad, OneRankRejectsRowsWithATargetBeyondTheGraph) {
  graph::CsrRows rows;
  rows.offsets = Buffer<edge_t>(std::vector<edge_t>{0, 2, 2, 3});
  rows.targets = Buffer<vertex_t>(std::vector<vertex_t>{1, 2, 9});
  const PartitionPlan plan(Policy::oec, 1, std::vector<edge_t>{2, 0, 1});
  try {
    (void)LocalGraph(plan, 0, rows, true);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("edge 2 -> 9 outside 3 vertices"), std::string::npos) << e.what();
  }
}

// A shuffle's buffers are handed back once it is done, before the rows are built from what it
// delivered: the rows, not the buffers, are the peak. (Not before it: at 2 ranks under iec the
// shuffle then allocates afresh beside what the degrees' exchange left, 13 MB higher.)
TEST(DistributedLoad, ShufflesReleaseTheirBuffersBeforeTheRowsAreBuilt) {
  const std::string csr = temp_path("release.csr"), text = temp_path("release.wel");
  const graph::EdgeList list = messy_graph(60, 300, 3, graph::WeightType::u32);
  graph::write_edge_list(csr, list);
  graph::write_edge_list(text, list);
  for (const std::string& graph : {csr, text})
    for (Policy policy : {Policy::iec, Policy::cvc, Policy::hash}) {
      SCOPED_TRACE(::testing::Message() << graph << ", " << to_string(policy));
      std::vector<std::vector<std::string>> order(2);
      ThreadExchange::run(2, [&](const Collective& c) {
        Collective counted = c;
        counted.release_buffers = [&, r = c.rank] { order[r].emplace_back("release"); };
        DistributedLoadOptions options;
        options.policy = policy;
        options.before_step = [&, r = c.rank](std::string_view name) { order[r].emplace_back(name); };
        (void)load_distributed(graph, options, counted);
      });
      for (const auto& steps : order) {
        const auto shuffle = std::find(steps.begin(), steps.end(), "shuffle");
        ASSERT_NE(shuffle, steps.end());
        ASSERT_LT(shuffle + 2, steps.end());
        EXPECT_EQ(*(shuffle + 1), "release");
        EXPECT_EQ(*(shuffle + 2), "local graph");
      }
    }
}

// A .csr written as symmetric: one rank takes its out-edges as its in-edges (no transpose, no
// copy); each vertex's in-edges, with their weights, are the same multiset as the transpose's. Over
// more ranks (oec) a master's in-edges are the masters' part of its own row and only edges into
// mirrors are transposed: the in-edges are the transpose's exactly.
TEST(DistributedLoad, OneRankOfASymmetricCsrTakesItsOutEdgesAsItsInEdges) {
  const std::string path = temp_path("symmetric.csr");
  graph::write_edge_list(path, graph::symmetrize(messy_graph(60, 300, 31, graph::WeightType::u32)),
                         {.symmetric = true});
  ASSERT_TRUE(graph::read_csr(path).symmetric());
  DistributedLoadOptions options;
  options.with_in_edges = true;
  const DistributedGraph got = load_distributed(path, options, solo_collective());
  const LocalGraph expected = reference(path, options, 1)[0];
  EXPECT_TRUE(got.graph.in_edges_are_out_edges());
  EXPECT_EQ(got.graph.bytes().in_edges, 0u);
  const auto& weights = std::get<std::vector<std::uint32_t>>(got.graph.in().weights);
  const auto& expected_weights = std::get<std::vector<std::uint32_t>>(expected.in().weights);
  for (local_t v = 0; v < got.graph.proxies(); ++v) {
    std::multiset<std::pair<local_t, std::uint32_t>> mine, theirs;
    for (edge_t e = got.graph.in().offsets[v]; e < got.graph.in().offsets[v + 1]; ++e)
      mine.insert({got.graph.in().targets[e], weights[e]});
    for (edge_t e = expected.in().offsets[v]; e < expected.in().offsets[v + 1]; ++e)
      theirs.insert({expected.in().targets[e], expected_weights[e]});
    ASSERT_EQ(mine, theirs) << "vertex " << v;
  }
  for (rank_t ranks = 2; ranks <= 4; ++ranks) {
    const auto parts = load_on(path, options, ranks);
    const auto expected_parts = reference(path, options, ranks);
    for (rank_t r = 0; r < ranks; ++r) {
      EXPECT_FALSE(parts[r]->graph.in_edges_are_out_edges());
      expect_same(parts[r]->graph, expected_parts[r]);
    }
  }
  // Not known symmetric (the flag unset): transposed, even though the edges are symmetric.
  const std::string plain = temp_path("plain.csr");
  graph::write_edge_list(plain, graph::symmetrize(messy_graph(60, 300, 31, graph::WeightType::u32)));
  EXPECT_FALSE(graph::read_csr(plain).symmetric());
  EXPECT_FALSE(load_distributed(plain, options, solo_collective()).graph.in_edges_are_out_edges());
}

TEST(DistributedLoad, RanksFailingAtDifferentStepsAgreeOnTheLowest) {
  const std::string path = temp_path("two_fail.el");
  graph::write_edge_list(path, messy_graph(40, 200, 12, graph::WeightType::none));
  const auto messages = messages_when(4, [&](const Collective& c) {
    DistributedLoadOptions options;
    options.shuffle_chunk = 3;
    options.before_step = [&](std::string_view name) {
      if ((c.rank == 3 && name == "transform") || (c.rank == 1 && name == "local graph"))
        throw std::runtime_error(fmt::format("rank {} stops at {}", c.rank, name));
    };
    load_distributed(path, options, c);
  });
  // Rank 3 fails first; rank 1 never reaches its step: every rank reports rank 3's failure.
  expect_agreed(messages, "partitioning failed on rank 3: rank 3 stops at transform");
}

TEST(DistributedLoad, PartsOfDifferentWeightTypesFailEveryRank) {
  // Only the rank whose part disagrees detects it; the others must hear of it.
  const auto messages = messages_when(3, [&](const Collective& c) {
    graph::EdgeList mine;
    mine.num_vertices = 6;
    mine.edges = {{static_cast<vertex_t>(c.rank), static_cast<vertex_t>(c.rank) + 1}};
    if (c.rank == 1) mine.weights = std::vector<std::uint32_t>{7};
    else mine.weights = std::vector<float>{0.5f};
    build_distributed(std::move(mine), {}, c);
  });
  expect_agreed(messages, "partitioning failed on rank 1: distributed load: rank 1 has uint32 weights where another has float");
}

TEST(AgreedFailure, AFailureAfterTheLastExchangeIsCaughtByTheClosingOne) {
  const auto messages = messages_when(3, [&](const Collective& c) {
    agreeing_on_failure(c, "counting", [&](const Collective& aware) {
      const std::uint64_t total = aware.sum(c.rank + 1);
      if (c.rank == 2) throw std::runtime_error(fmt::format("total {}", total));
      return total;
    });
  });
  expect_agreed(messages, "counting failed on rank 2: total 6");
}

TEST(AgreedFailure, WithoutFailuresMessagesPassUnchanged) {
  within_seconds(30, [&] {
    ThreadExchange::run(3, [&](const Collective& c) {
      const auto gathered = agreeing_on_failure(c, "gathering", [&](const Collective& aware) {
        return aware.all_gather(Bytes(static_cast<std::size_t>(c.rank) * 3, std::byte{42}));
      });
      ASSERT_EQ(gathered.size(), 3u);
      for (std::size_t r = 0; r < 3; ++r) EXPECT_EQ(gathered[r], Bytes(r * 3, std::byte{42}));
      EXPECT_EQ(agreeing_on_failure(c, "summing", [](const Collective& aware) { return aware.sum(5); }), 15u);
    });
  });
  // One rank alone: the failure is its own, at once.
  EXPECT_THROW(agreeing_on_failure(solo_collective(), "alone", [](const Collective&) -> int { throw std::runtime_error("x"); }),
               AgreedFailure);
}

}  // namespace

}  // namespace distributed_load_test
