// Partitioned .csr files: a run at the file's rank count and policy takes each part as written,
// and the LocalGraphs must equal what partition_in_memory makes of the graph; any other run, and
// every plain reader, gets the graph back; a damaged file fails on every rank naming the byte.
#include "courier/dist/partitioned_file.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <tuple>

#include "courier/dist/distributed_load.hpp"
#include "courier/graph/io.hpp"
#include "courier/graph/partitioned_csr.hpp"
#include "support/deadline.hpp"
#include "support/thread_exchange.hpp"

namespace partitioned_file_test {

using namespace courier;
using namespace courier::dist;
using courier::test_support::ThreadExchange;
using courier::test_support::within_seconds;

namespace {

std::string temp_path(const std::string& name) { return std::string(COURIER_TEST_TMPDIR) + "/pcsr_" + name; }

// Skewed, with self loops, duplicate pairs and vertices without edges.
graph::EdgeList some_graph(vertex_t n, edge_t m, std::uint64_t seed, graph::WeightType weights) {
  std::mt19937_64 rng(seed);
  graph::EdgeList list;
  list.num_vertices = n;
  std::vector<std::uint32_t> ints;
  std::vector<float> reals;
  for (edge_t i = 0; i < m; ++i) {
    const vertex_t src = rng() % 4 == 0 ? 1 : rng() % (n / 2);
    const vertex_t dst = i % 9 == 0 ? src : rng() % n;
    for (int copy = i % 7 == 3 ? 2 : 1; copy > 0; --copy) {
      list.edges.push_back({src, dst});
      ints.push_back(static_cast<std::uint32_t>(1 + rng() % 255));
      reals.push_back(static_cast<float>(rng() % 1000) / 8.0f);
    }
  }
  if (weights == graph::WeightType::u32) list.weights = std::move(ints);
  if (weights == graph::WeightType::f32) list.weights = std::move(reals);
  return list;
}

void expect_same(const LocalGraph& a, const LocalGraph& b) {
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

std::vector<std::optional<DistributedGraph>> load_on(const std::string& graph, const DistributedLoadOptions& options,
                                                     rank_t ranks) {
  std::vector<std::optional<DistributedGraph>> parts(static_cast<std::size_t>(ranks));
  within_seconds(30, [&] {
    ThreadExchange::run(ranks,
                        [&](const Collective& c) { parts[c.rank].emplace(load_distributed(graph, options, c)); });
  });
  return parts;
}

vertex_t most_out_edges(const graph::EdgeList& edges) {
  std::vector<edge_t> degree(edges.num_vertices, 0);
  for (const graph::Edge& e : edges.edges) ++degree[e.src];
  return static_cast<vertex_t>(std::max_element(degree.begin(), degree.end()) - degree.begin());
}

// `graph` loaded at `ranks` with `options` equals the partition of `edges` (already transformed).
void expect_partition_of(const graph::EdgeList& edges, const std::string& graph, const DistributedLoadOptions& options,
                         rank_t ranks, const std::string& note) {
  const auto expected = partition_in_memory(edges, options.policy, ranks, options.with_in_edges);
  const auto got = load_on(graph, options, ranks);
  for (rank_t r = 0; r < ranks; ++r) {
    SCOPED_TRACE(::testing::Message() << "rank " << r);
    expect_same(got[r]->graph, expected[r]);
    EXPECT_NE(got[r]->note.find(note), std::string::npos) << got[r]->note;
  }
  EXPECT_EQ(got[0]->edges, edges.edges.size());
  EXPECT_EQ(got[0]->loaded_edges, edges.edges.size());
  EXPECT_EQ(got[0]->weight_type, edges.weight_type());
  EXPECT_EQ(got[0]->largest_out_degree, most_out_edges(edges));
  const PartitionQuality q = quality(expected);
  EXPECT_DOUBLE_EQ(got[ranks - 1]->quality.replication, q.replication);
  EXPECT_DOUBLE_EQ(got[ranks - 1]->quality.edge_imbalance, q.edge_imbalance);
}

using Tuples = std::vector<std::tuple<vertex_t, vertex_t, double>>;
Tuples tuples(const graph::EdgeList& list) {
  Tuples out;
  for (std::size_t i = 0; i < list.edges.size(); ++i)
    out.emplace_back(list.edges[i].src, list.edges[i].dst,
                     std::visit(
                         [&](const auto& w) -> double {
                           if constexpr (std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
                             return 0;
                           else
                             return w[i];
                         },
                         list.weights));
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

TEST(PartitionedFile, ARunAtItsRanksAndPolicyTakesEachPartAsWritten) {
  for (graph::WeightType type : {graph::WeightType::none, graph::WeightType::u32, graph::WeightType::f32})
    for (const graph::EdgeList& edges : {some_graph(60, 300, 1, type), some_graph(500, 6, 2, type)})
      for (rank_t ranks = 1; ranks <= 4; ++ranks)
        for (Policy policy : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash})
          for (bool in_edges : {false, true}) {
            SCOPED_TRACE(::testing::Message() << edges.edges.size() << " edges, " << to_string(type) << " weights, "
                                              << ranks << " ranks, " << to_string(policy) << ", in-edges " << in_edges);
            const std::string path = temp_path("g.csr");
            write_partitioned(path, edges, policy, ranks);
            const graph::PartitionedCsrHeader header = graph::read_partitioned_header(path);
            EXPECT_EQ(header.parts, static_cast<std::uint32_t>(ranks));
            EXPECT_EQ(header.policy, to_string(policy));
            DistributedLoadOptions options;
            options.policy = policy;
            options.with_in_edges = in_edges;
            expect_partition_of(edges, path, options, ranks, "as written");
            if (::testing::Test::HasFailure()) return;
          }
}

TEST(PartitionedFile, OtherRunsPartitionItsEdgesAgain) {
  const graph::EdgeList edges = some_graph(80, 400, 3, graph::WeightType::u32);
  const std::string path = temp_path("two.csr");
  write_partitioned(path, edges, Policy::oec, 2);
  for (rank_t ranks = 1; ranks <= 4; ++ranks)
    for (Policy policy : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash}) {
      if (ranks == 2 && policy == Policy::oec) continue;
      SCOPED_TRACE(::testing::Message() << ranks << " ranks, " << to_string(policy));
      DistributedLoadOptions options;
      options.policy = policy;
      options.with_in_edges = true;
      expect_partition_of(edges, path, options, ranks, "partitioned for 2 ranks, policy oec, and this run has");
      if (::testing::Test::HasFailure()) return;
    }
  // Transforms: the file's edges, symmetrized, partitioned again.
  DistributedLoadOptions options;
  options.load.symmetrize = true;
  graph::EdgeList symmetric = graph::load_edge_list(path, options.load);
  expect_partition_of(symmetric, path, options, 2, "this run transforms the graph");
}

TEST(PartitionedFile, PlainReadersGetTheWholeGraph) {
  const graph::EdgeList edges = some_graph(70, 350, 4, graph::WeightType::f32);
  const std::string path = temp_path("plain.csr");
  write_partitioned(path, edges, Policy::cvc, 4);
  EXPECT_EQ(tuples(graph::read_edge_list(path)), tuples(edges));
  const graph::Csr csr = graph::read_csr(path);
  EXPECT_EQ(tuples(graph::to_edge_list(csr)), tuples(edges));
}

// Where a part's arrays start, from the file's table (graph/partitioned_csr.hpp's layout).
std::uint64_t word(const std::string& bytes, std::uint64_t at) {
  std::uint64_t w;
  std::memcpy(&w, bytes.data() + at, 8);
  return w;
}
std::uint64_t targets_byte(const std::string& bytes, std::uint64_t parts, std::uint64_t part) {
  const std::uint64_t entry = 64 + (parts + 1) * 8 + part * 64;
  const std::uint64_t masters = word(bytes, 64 + (part + 1) * 8) - word(bytes, 64 + part * 8);
  const std::uint64_t mirrors = word(bytes, entry + 16), requested = word(bytes, entry + 32);
  return word(bytes, entry) + mirrors * 8 + (parts + 1) * 8 + (requested * 4 + 7) / 8 * 8 + (masters + mirrors + 1) * 8;
}

void expect_fails_everywhere(const std::string& path, rank_t ranks, const std::string& what,
                             bool verify_checksum = true, bool in_edges = false) {
  DistributedLoadOptions options;
  options.load.read.verify_checksum = verify_checksum;
  options.with_in_edges = in_edges;
  std::vector<std::string> messages(static_cast<std::size_t>(ranks));
  within_seconds(30, [&] {
    ThreadExchange::run(ranks, [&](const Collective& c) {
      try {
        load_distributed(path, options, c);
        messages[c.rank] = "no error";
      } catch (const LoadError& e) {
        messages[c.rank] = e.what();
      }
    });
  });
  for (const std::string& m : messages) {
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_EQ(m, messages[0]);
  }
}

TEST(PartitionedFile, ADamagedPartFailsOnEveryRankNamingItsBytes) {
  const graph::EdgeList edges = some_graph(60, 300, 5, graph::WeightType::u32);
  const std::string good = temp_path("good.csr"), bad = temp_path("bad.csr");
  write_partitioned(good, edges, Policy::oec, 2);
  const std::string bytes = read_bytes(good);
  const std::uint64_t part1 = word(bytes, 64 + 3 * 8 + 64), length1 = word(bytes, 64 + 3 * 8 + 64 + 8);
  std::string damaged = bytes;
  damaged[targets_byte(bytes, 2, 1) + 1] ^= 0x01;  // a target of part 1, still in range
  write_bytes(bad, damaged);
  const std::string message =
      fmt::format("bad.csr: checksum mismatch in part 1 of 2, bytes {}..{}", part1, part1 + length1);
  for (rank_t ranks = 1; ranks <= 3; ++ranks) expect_fails_everywhere(bad, ranks, message);  // 2: as written

  // The in-edges (here their second offset, after the targets and weights) are checked by the runs
  // that read them, only.
  damaged = bytes;
  const std::uint64_t edges1 = word(bytes, 64 + 3 * 8 + 64 + 24);
  damaged[targets_byte(bytes, 2, 1) + 2 * ((edges1 * 4 + 7) / 8 * 8) + 8] ^= 0x01;
  write_bytes(bad, damaged);
  expect_fails_everywhere(bad, 2, "bad.csr: checksum mismatch in part 1 of 2 (its in-edges), bytes", true, true);
  DistributedLoadOptions out_only;
  EXPECT_EQ(load_on(bad, out_only, 2)[1]->graph.edges(), partition_in_memory(edges, Policy::oec, 2, false)[1].edges());

  // Without the checksum, a target beyond the part's proxies is still caught, by its byte.
  damaged = bytes;
  const std::uint64_t at = targets_byte(bytes, 2, 1) + 4 * 3;
  std::memset(damaged.data() + at, 0xff, 4);
  write_bytes(bad, damaged);
  expect_fails_everywhere(bad, 2, fmt::format("bad.csr: byte {}: part 1: edge 3 points to local id 4294967295", at),
                          false);

  // The header, bounds and table have their own checksum; a truncated file is named as such.
  damaged = bytes;
  damaged[64 + 8] ^= 0x01;  // bound 1
  write_bytes(bad, damaged);
  expect_fails_everywhere(bad, 2, "bad.csr: checksum mismatch in bytes 0..");
  write_bytes(bad, bytes.substr(0, bytes.size() - 8));
  expect_fails_everywhere(bad, 2, "does not follow the previous part at");
  EXPECT_THROW(graph::read_edge_list(bad), InputError);
}

TEST(PartitionedFile, WritingReplacesAFileOnlyWhenComplete) {
  const std::string path = temp_path("replace.csr");
  write_partitioned(path, some_graph(40, 100, 6, graph::WeightType::none), Policy::oec, 2);
  const std::string before = read_bytes(path);
  graph::EdgeList broken = some_graph(40, 100, 7, graph::WeightType::none);
  broken.edges.push_back({0, 40});  // beyond the vertices: building the parts fails
  EXPECT_ANY_THROW(write_partitioned(path, broken, Policy::oec, 2));
  EXPECT_EQ(read_bytes(path), before);
}

}  // namespace

}  // namespace partitioned_file_test
