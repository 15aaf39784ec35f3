// Partition plans and local graphs: every edge lands exactly once, on the rank the policy says,
// masters cover every vertex once, and the mirror lists of each pair of ranks agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <tuple>

#include "courier/core/error.hpp"
#include "courier/dist/local_graph.hpp"
#include "courier/graph/partitioned_csr.hpp"

namespace partition_test {

using namespace courier::dist;
using courier::graph::Edge;
using courier::graph::EdgeList;

namespace {

EdgeList random_graph(vertex_t n, edge_t m, std::uint64_t seed, bool weights) {
  std::mt19937_64 rng(seed);
  EdgeList list;
  list.num_vertices = n;
  std::vector<std::uint32_t> w;
  for (edge_t i = 0; i < m; ++i) {
    // Skewed sources, so balancing by edges matters.
    const vertex_t src = std::min<vertex_t>(n - 1, static_cast<vertex_t>(std::pow(rng() % 1000 / 1000.0, 3) * n));
    list.edges.push_back({src, rng() % n});
    w.push_back(static_cast<std::uint32_t>(1 + rng() % 255));
  }
  if (weights) list.weights = std::move(w);
  return list;
}

using WeightedEdge = std::tuple<vertex_t, vertex_t, std::uint32_t>;

std::vector<WeightedEdge> sorted_edges(const EdgeList& list) {
  std::vector<WeightedEdge> all;
  const auto* w = std::get_if<std::vector<std::uint32_t>>(&list.weights);
  for (std::size_t i = 0; i < list.edges.size(); ++i)
    all.emplace_back(list.edges[i].src, list.edges[i].dst, w ? (*w)[i] : 0);
  std::sort(all.begin(), all.end());
  return all;
}

std::vector<WeightedEdge> sorted_edges(const std::vector<LocalGraph>& parts) {
  std::vector<WeightedEdge> all;
  for (const LocalGraph& g : parts) {
    const auto* w = std::get_if<std::vector<std::uint32_t>>(&g.out().weights);
    for (local_t v = 0; v < g.proxies(); ++v)
      for (edge_t e = g.out().offsets[v]; e < g.out().offsets[v + 1]; ++e)
        all.emplace_back(g.global_id(v), g.global_id(g.out().targets[e]), w ? (*w)[e] : 0);
  }
  std::sort(all.begin(), all.end());
  return all;
}

void check_partition(const EdgeList& list, Policy policy, courier::rank_t ranks) {
  SCOPED_TRACE(::testing::Message() << to_string(policy) << " on " << ranks << " ranks");
  const std::vector<LocalGraph> parts = partition_in_memory(list, policy, ranks, true);
  ASSERT_EQ(parts.size(), static_cast<std::size_t>(ranks));
  EXPECT_EQ(sorted_edges(parts), sorted_edges(list));

  vertex_t masters = 0;
  for (const LocalGraph& g : parts) {
    masters += g.masters();
    EXPECT_EQ(g.in().targets.size(), g.out().targets.size());
    for (local_t v = 0; v < g.proxies(); ++v) {
      EXPECT_EQ(g.local_id(g.global_id(v)), v);
      EXPECT_EQ(g.owner(v), g.plan().master_of(g.global_id(v)));
      EXPECT_EQ(g.is_master(v), g.owner(v) == g.rank());
      for (local_t u : g.out().neighbors(v)) {
        EXPECT_EQ(g.plan().edge_owner(g.global_id(v), g.global_id(u)), g.rank());
        if (policy == Policy::oec) {
          EXPECT_TRUE(g.is_master(v));
        }
        if (policy == Policy::iec) {
          EXPECT_TRUE(g.is_master(u));
        }
      }
    }
  }
  EXPECT_EQ(masters, list.num_vertices);

  // What r mirrors of owner's masters is, id for id, what owner sends to r.
  for (courier::rank_t r = 0; r < ranks; ++r)
    for (courier::rank_t owner = 0; owner < ranks; ++owner) {
      const auto mirrors = parts[r].mirrors_owned_by(owner);
      const auto masters_there = parts[owner].masters_mirrored_on(r);
      ASSERT_EQ(mirrors.size(), masters_there.size());
      for (std::size_t i = 0; i < mirrors.size(); ++i)
        EXPECT_EQ(parts[r].global_id(mirrors[i]), parts[owner].global_id(masters_there[i]));
      if (owner == r) {
        EXPECT_TRUE(mirrors.empty());
      }
    }
}

}  // namespace

TEST(PartitionPlan, PolicyNames) {
  for (Policy p : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash}) EXPECT_EQ(parse_policy(to_string(p)), p);
  EXPECT_THROW(parse_policy("metis"), courier::InputError);
}

TEST(PartitionPlan, MasterRangesAreBalancedByEdgesAndCoverEveryVertex) {
  // Vertex 0 has 1000 edges, the other 99 none: with 2 ranks it sits alone-ish on rank 0.
  std::vector<edge_t> degree(100, 0);
  degree[0] = 1000;
  const PartitionPlan plan(Policy::oec, 2, degree);
  EXPECT_EQ(plan.vertices(), 100u);
  EXPECT_EQ(plan.masters_begin(0), 0u);
  EXPECT_EQ(plan.masters_end(1), 100u);
  EXPECT_LT(plan.masters_end(0), 50u);  // far fewer vertices than an even split
  for (vertex_t v = 0; v < 100; ++v) {
    const courier::rank_t r = plan.master_of(v);
    EXPECT_GE(v, plan.masters_begin(r));
    EXPECT_LT(v, plan.masters_end(r));
  }
}

// A CSR's row offsets cut the masters where its degrees do, on skewed, empty and tiny graphs and
// on offsets that do not start at 0 (a part of a file).
TEST(PartitionPlan, RowOffsetsCutWhereTheDegreesDo) {
  std::mt19937_64 rng(7);
  for (vertex_t n : {0, 1, 2, 3, 10, 97, 1000})
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<edge_t> degree(n);
      for (edge_t& d : degree) d = trial == 0 ? 0 : rng() % 5 == 0 ? rng() % 3000 : rng() % 4;
      std::vector<edge_t> offsets(n + 1, 1234);
      for (vertex_t v = 0; v < n; ++v) offsets[v + 1] = offsets[v] + degree[v];
      for (courier::rank_t ranks = 1; ranks <= 9; ++ranks) {
        SCOPED_TRACE(::testing::Message() << n << " vertices, trial " << trial << ", " << ranks << " ranks");
        const PartitionPlan by_degree(Policy::oec, ranks, degree);
        const PartitionPlan by_offsets = PartitionPlan::by_row_offsets(Policy::oec, ranks, offsets);
        ASSERT_EQ(by_offsets.ranks(), ranks);
        for (courier::rank_t r = 0; r < ranks; ++r) {
          EXPECT_EQ(by_offsets.masters_begin(r), by_degree.masters_begin(r));
          EXPECT_EQ(by_offsets.masters_end(r), by_degree.masters_end(r));
        }
      }
    }
}

// Ranks that each hold one block of the degrees (iec's sums, as 32- or 64-bit counts) find the
// same cuts as one holding them all, for blocks of any sizes, empty ones among them.
TEST(PartitionPlan, BlocksOfTheDegreesCutWhereTheWholeDoes) {
  std::mt19937_64 rng(11);
  const auto check = [&]<class C>(C, const std::vector<edge_t>& degree, std::vector<vertex_t> splits,
                                  courier::rank_t ranks) {
    const std::vector<C> counts(degree.begin(), degree.end());
    const auto block = [&](std::size_t b) {
      return std::span<const C>(counts.data() + splits[b], splits[b + 1] - splits[b]);
    };
    double total = 0;
    for (std::size_t b = 0; b + 1 < splits.size(); ++b) total += PartitionPlan::block_weight(ranks, block(b));
    std::vector<vertex_t> bounds(static_cast<std::size_t>(ranks) + 1, degree.size());
    bounds[0] = 0;
    std::vector<int> found(bounds.size(), 0);
    double before = 0;
    for (std::size_t b = 0; b + 1 < splits.size(); ++b) {
      for (const auto& [r, bound] : PartitionPlan::cuts_in_block(ranks, splits[b], block(b), before, total)) {
        bounds[r] = bound;
        ++found[r];
      }
      before += PartitionPlan::block_weight(ranks, block(b));
    }
    const PartitionPlan whole(Policy::iec, ranks, degree);
    for (courier::rank_t r = 1; r < ranks; ++r) {
      EXPECT_EQ(bounds[r], whole.masters_begin(r)) << "cut " << r;
      if (!degree.empty()) {
        EXPECT_EQ(found[r], 1) << "cut " << r << " found by one block";
      }
    }
  };
  for (vertex_t n : {0, 1, 2, 3, 10, 97, 1000})
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<edge_t> degree(n);
      for (edge_t& d : degree) d = trial == 0 ? 0 : rng() % 5 == 0 ? rng() % 3000 : rng() % 4;
      for (courier::rank_t ranks = 1; ranks <= 9; ++ranks) {
        SCOPED_TRACE(::testing::Message() << n << " vertices, trial " << trial << ", " << ranks << " ranks");
        std::vector<vertex_t> even(static_cast<std::size_t>(ranks) + 1), uneven{0};
        for (std::size_t r = 0; r < even.size(); ++r) even[r] = n * r / ranks;
        for (int b = 0; b < 5; ++b) uneven.push_back(n == 0 ? 0 : rng() % (n + 1));
        uneven.push_back(n);
        std::sort(uneven.begin(), uneven.end());  // repeated splits: empty blocks
        check(std::uint32_t{}, degree, even, ranks);
        check(std::uint64_t{}, degree, uneven, ranks);
      }
    }
}

TEST(PartitionPlan, MoreRanksThanVerticesLeavesSomeEmpty) {
  const PartitionPlan plan(Policy::oec, 5, vertex_t{3});
  vertex_t covered = 0;
  for (courier::rank_t r = 0; r < 5; ++r) covered += plan.masters_end(r) - plan.masters_begin(r);
  EXPECT_EQ(covered, 3u);
  for (vertex_t v = 0; v < 3; ++v) EXPECT_LT(plan.master_of(v), 5);
}

TEST(PartitionPlan, CartesianGridIsNearSquare) {
  EXPECT_EQ(PartitionPlan(Policy::cvc, 4, vertex_t{16}).grid_rows(), 2);
  EXPECT_EQ(PartitionPlan(Policy::cvc, 6, vertex_t{16}).grid_rows(), 2);
  EXPECT_EQ(PartitionPlan(Policy::cvc, 6, vertex_t{16}).grid_columns(), 3);
  EXPECT_EQ(PartitionPlan(Policy::cvc, 7, vertex_t{16}).grid_rows(), 1);
  // A vertex's out-edges stay in its grid row, its in-edges in its grid column.
  const PartitionPlan plan(Policy::cvc, 4, vertex_t{64});
  for (vertex_t u = 0; u < 64; ++u)
    for (vertex_t v = 0; v < 64; ++v) {
      const courier::rank_t r = plan.edge_owner(u, v);
      EXPECT_EQ(r / 2, plan.master_of(u) / 2);
      EXPECT_EQ(r % 2, plan.master_of(v) % 2);
    }
}

TEST(LocalGraph, EveryPolicyAndRankCountPartitionsExactly) {
  const EdgeList skewed = random_graph(300, 3000, 7, true);
  for (Policy p : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash})
    for (courier::rank_t ranks : {1, 2, 3, 4, 7}) check_partition(skewed, p, ranks);
}

TEST(LocalGraph, SmallGraphsWithIsolatedVerticesAndLoops) {
  EdgeList path;
  path.num_vertices = 6;  // 5 is isolated
  path.edges = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {2, 2}};
  for (Policy p : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash})
    for (courier::rank_t ranks : {1, 2, 4, 7}) check_partition(path, p, ranks);
  EdgeList empty;
  for (courier::rank_t ranks : {1, 3}) check_partition(empty, Policy::oec, ranks);
}

// Rows built from runs of one source give back the runs' pages as they are read (windows of 2^18
// runs): with more runs than that, and weights, the rows are the ones built from the same edges
// as a list, edge for edge and weight for weight.
TEST(LocalGraph, RowsFromManyRunsEqualRowsFromTheSameEdges) {
  const vertex_t n = 400000;
  std::mt19937_64 rng(11);
  EdgeRuns runs;
  runs.num_vertices = n;
  EdgeList list;
  list.num_vertices = n;
  std::vector<std::uint32_t> run_weights, list_weights;
  for (vertex_t s = 0; s < n; ++s) {
    const auto length = static_cast<std::uint32_t>(1 + rng() % 2);
    runs.run_source.push_back(static_cast<std::uint32_t>(s));
    runs.run_length.push_back(length);
    for (std::uint32_t j = 0; j < length; ++j) {
      const auto d = static_cast<std::uint32_t>(rng() % n), w = static_cast<std::uint32_t>(1 + rng() % 255);
      runs.targets.push_back(d);
      run_weights.push_back(w);
      list.edges.push_back({s, d});
      list_weights.push_back(w);
    }
  }
  ASSERT_GT(runs.run_source.size(), std::size_t{1} << 18);
  runs.weights = std::move(run_weights);
  list.weights = std::move(list_weights);
  const PartitionPlan plan(Policy::oec, 1, std::vector<edge_t>(n, 1));
  std::vector<LocalGraph> from_runs, from_list;
  from_runs.emplace_back(plan, 0, std::move(runs), true);
  from_list.emplace_back(plan, 0, std::move(list), true);
  EXPECT_EQ(sorted_edges(from_runs), sorted_edges(from_list));
  EXPECT_EQ(from_runs[0].out().targets, from_list[0].out().targets);  // rows sorted alike
  EXPECT_EQ(from_runs[0].in().targets, from_list[0].in().targets);
}

// A peer's request names this rank's masters by their local ids; one beyond them is an error
// that names the global vertex asked for, and the list in force is left as it was.
TEST(LocalGraph, AMirrorRequestForAVertexMasteredElsewhereIsAnError) {
  std::vector<LocalGraph> parts = partition_in_memory(random_graph(300, 3000, 5, false), Policy::oec, 2, false);
  ASSERT_GT(parts[1].masters(), 0u);
  const std::vector<local_t> before(parts[0].masters_mirrored_on(1).begin(), parts[0].masters_mirrored_on(1).end());
  const local_t beyond = parts[0].masters();
  try {
    parts[0].set_mirrors_requested_by(1, {0, beyond});
    ADD_FAILURE() << "a request beyond rank 0's masters was taken";
  } catch (const courier::Error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 1 asked rank 0 for vertex " + std::to_string(beyond) +
                                         ", which it does not master"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(std::ranges::equal(parts[0].masters_mirrored_on(1), before));
  parts[0].set_mirrors_requested_by(1, {0, beyond - 1});
  EXPECT_TRUE(std::ranges::equal(parts[0].masters_mirrored_on(1), std::vector<local_t>{0, beyond - 1}));
}

// A graph of more than 2^32 vertices keeps its mirrors' global ids in 64 bits (below it, 32), and
// they answer as they were given: global and local ids, the requests each owner is sent.
TEST(LocalGraph, MirrorsOfAGraphBeyondThirtyTwoBitIdsKeepTheirIds) {
  const vertex_t big = (vertex_t{1} << 32) + (vertex_t{1} << 31);  // rank 3's first master
  const PartitionPlan plan(Policy::oec, std::vector<vertex_t>{0, 3, vertex_t{1} << 31, big, big + 7});
  courier::graph::CsrPart part;
  part.first_master = 0;
  part.masters = 3;
  part.mirror_ids = {5, big + 2};
  part.request_bounds.assign(5, 0);
  part.offsets.assign(6, 0);
  const LocalGraph g(plan, 0, std::move(part), false);
  ASSERT_EQ(g.mirrors(), 2u);
  EXPECT_EQ(g.global_id(3), 5u);
  EXPECT_EQ(g.global_id(4), big + 2);
  EXPECT_EQ(g.local_id(big + 2), std::optional<local_t>(4));
  EXPECT_EQ(g.local_id(big + 3), std::nullopt);
  EXPECT_EQ(g.mirror_ids(), (std::vector<vertex_t>{5, big + 2}));
  EXPECT_EQ(g.mirror_requests(1), std::vector<local_t>{2});  // owner-local: 5 - 3
  EXPECT_EQ(g.mirror_requests(3), std::vector<local_t>{2});  // big + 2 - big
  EXPECT_EQ(g.bytes().proxies, 2 * (8 + 4));
}

TEST(LocalGraph, QualityOfAnEdgeCutAndAVertexCut) {
  const EdgeList g = random_graph(1000, 20000, 3, false);
  const auto one = partition_in_memory(g, Policy::oec, 1, false);
  EXPECT_DOUBLE_EQ(quality(one).replication, 1.0);
  EXPECT_DOUBLE_EQ(quality(one).edge_imbalance, 1.0);
  const auto cut = partition_in_memory(g, Policy::oec, 4, false);
  EXPECT_GT(quality(cut).replication, 1.0);
  EXPECT_LE(quality(cut).replication, 4.0);
  // A hash vertex cut spreads edges almost evenly.
  EXPECT_LT(quality(partition_in_memory(g, Policy::hash, 4, false)).edge_imbalance, 1.1);
}

}  // namespace partition_test
