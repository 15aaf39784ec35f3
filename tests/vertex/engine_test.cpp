// The engine on 1-4 ranks as threads: operators visit what they should, a declared field travels
// only the ways the rule gives, rounds end when no rank is active, results gather to rank 0.
#include "courier/vertex/engine.hpp"

#include <algorithm>
#include <atomic>
#include <random>

#include <gtest/gtest.h>

#include "courier/core/progress.hpp"
#include "courier/vertex/gather.hpp"
#include "courier/vertex/run.hpp"
#include "courier/sync/solo_channel.hpp"
#include "courier/sync/reduction.hpp"
#include "support/ranks.hpp"

namespace engine_test {

using namespace courier;
using namespace courier::vertex;
using courier::dist::Policy;

namespace {

graph::EdgeList random_graph(graph::vertex_t n, std::size_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  graph::EdgeList list;
  list.num_vertices = n;
  for (std::size_t i = 0; i < m; ++i) list.edges.push_back({rng() % n, rng() % n});
  return list;
}

constexpr Policy kPolicies[] = {Policy::oec, Policy::iec, Policy::cvc, Policy::hash};

// Pushes "reached" from vertex 0 along out-edges, a round per step, until no rank is active;
// returns each proxy's mark (masters' are final).
std::vector<std::uint8_t> reach_from_zero(Engine& engine) {
  const auto& g = engine.graph();
  Field<std::uint8_t, sync::LogicalOr> seen(g, 0, kAlongEdges, Track::always);
  Frontier frontier(g.proxies());
  if (auto s = g.local_id(0)) {
    seen[*s] = 1;
    frontier.add(*s);
  }
  while (engine.next_round(frontier)) {
    engine.push(frontier, [&](local_t, local_t v, edge_t) {
      if (!seen.load(v)) seen.combine(v, 1);
    });
    engine.sync(seen);
    frontier.take(seen.updated());
  }
  std::vector<std::uint8_t> marks(g.proxies());
  for (local_t v = 0; v < g.proxies(); ++v) marks[v] = seen[v];
  return marks;
}

}  // namespace

TEST(Engine, GatherMastersPutsEveryValueAtItsGlobalId) {
  const auto edges = random_graph(300, 2000, 1);
  for (Policy policy : kPolicies)
    for (int ranks = 1; ranks <= 4; ++ranks) {
      const auto parts = dist::partition_in_memory(edges, policy, ranks, false);
      std::vector<graph::vertex_t> all;
      std::vector<std::size_t> sizes(static_cast<std::size_t>(ranks));
      test_support::on_every_rank(parts, 2, [&](Engine& engine) {
        std::vector<graph::vertex_t> mine(engine.graph().masters());
        for (local_t v = 0; v < mine.size(); ++v) mine[v] = engine.graph().global_id(v) * 3;
        auto gathered = gather_masters<graph::vertex_t>(engine, mine);
        sizes[engine.rank()] = gathered.size();
        if (engine.rank() == 0) all = std::move(gathered);
      });
      ASSERT_EQ(all.size(), 300u);
      for (graph::vertex_t v = 0; v < 300; ++v) ASSERT_EQ(all[v], v * 3);
      for (int r = 1; r < ranks; ++r) EXPECT_EQ(sizes[r], 0u);
    }
}

TEST(Engine, ExchangeDeliversMessagesOfAnySizeToTheirRank) {
  const auto edges = random_graph(100, 300, 2);
  for (int ranks = 1; ranks <= 4; ++ranks) {
    const auto parts = dist::partition_in_memory(edges, Policy::hash, ranks, false);
    test_support::on_every_rank(parts, 2, [&](Engine& engine) {
      // Rank r sends to rank s a message of r * s values (empty ones too), each worth 100 r + s.
      std::vector<std::vector<std::uint32_t>> out(static_cast<std::size_t>(ranks));
      for (int s = 0; s < ranks; ++s) out[s].assign(static_cast<std::size_t>(engine.rank() * s), 100 * engine.rank() + s);
      for (int round = 0; round < 2; ++round) {
        const auto in = exchange_values(engine, out);
        for (int r = 0; r < ranks; ++r) {
          ASSERT_EQ(in[r].size(), static_cast<std::size_t>(r * engine.rank()));
          for (auto x : in[r]) ASSERT_EQ(x, static_cast<std::uint32_t>(100 * r + engine.rank()));
        }
      }
    });
  }
}

TEST(Engine, DataDrivenRoundsEndWhenNoRankIsActiveAndCountRounds) {
  // A path 0 -> 1 -> ... -> 49: pushing "reached" from 0 takes 50 rounds (the last finds nothing new).
  graph::EdgeList path;
  path.num_vertices = 50;
  for (graph::vertex_t v = 0; v + 1 < 50; ++v) path.edges.push_back({v, v + 1});
  for (Policy policy : kPolicies)
    for (int ranks = 1; ranks <= 4; ++ranks) {
      SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
      const auto parts = dist::partition_in_memory(path, policy, ranks, false);
      std::vector<RunStats> stats(static_cast<std::size_t>(ranks));
      std::atomic<std::uint64_t> reached{0};
      test_support::on_every_rank(parts, 2, [&](Engine& engine) {
        const auto& g = engine.graph();
        const auto seen = reach_from_zero(engine);
        std::uint64_t mine = 0;
        for (local_t v = 0; v < g.masters(); ++v) mine += seen[v];
        reached += mine;
        stats[engine.rank()] = engine.finish();
      });
      EXPECT_EQ(reached.load(), 50u);
      const SyncPlan plan = sync_plan(policy, ranks, kAlongEdges);
      for (const RunStats& s : stats) {
        ASSERT_EQ(s.rounds.size(), 50u);
        // One vertex is reached per round; under oec only its master is active, elsewhere its
        // mirrors too.
        for (const RoundStats& round : s.rounds) {
          if (policy == Policy::oec || ranks == 1) {
            EXPECT_EQ(round.active, 1u);
          }
          EXPECT_GE(round.active, 1u);
          EXPECT_LE(round.active, static_cast<std::uint64_t>(ranks));
        }
        EXPECT_EQ(s.reduces, plan.reduce ? 50u : 0u);
        EXPECT_EQ(s.broadcasts, plan.broadcast ? 50u : 0u);
        // Totals are maxima over ranks, so every rank reports the same, and parts fit in the whole.
        EXPECT_EQ(s.compute_seconds, stats[0].compute_seconds);
        EXPECT_GT(s.compute_seconds, 0.0);
        EXPECT_LE(s.compute_seconds, s.total_seconds);
        EXPECT_LE(s.sync_seconds, s.total_seconds);
        if (ranks > 1) {
          EXPECT_GT(s.sync_seconds, 0.0);
        }
        if (ranks > 1) {
          EXPECT_GT(s.messages, 0u);
        }
        // Rounds are combined over ranks too: every rank has the same, within the totals.
        std::uint64_t messages = 0, bytes = 0, peak = 0;
        for (std::size_t i = 0; i < s.rounds.size(); ++i) {
          const RoundStats& round = s.rounds[i];
          EXPECT_EQ(round.compute_seconds, stats[0].rounds[i].compute_seconds);
          EXPECT_EQ(round.messages, stats[0].rounds[i].messages);
          EXPECT_GE(round.buffer_bytes_peak, peak);  // a running peak
          messages += round.messages;
          bytes += round.bytes;
          EXPECT_LE(round.compute_seconds, s.compute_seconds);  // a part of some rank's total
          peak = round.buffer_bytes_peak;
          if (ranks > 1 && (plan.reduce || plan.broadcast)) {
            // Every rank that has a proxy of the vertex reached this round takes part.
            EXPECT_GT(round.messages, 0u);
          }
        }
        EXPECT_LE(messages, s.messages);
        EXPECT_LE(bytes, s.bytes);
        EXPECT_LE(peak, s.buffer_bytes_peak);
      }
    }
}

TEST(Engine, ShowsItsRoundsInALogFromRankZeroOnly) {
  // The path of 50 again at 2 ranks: a round each vertex, one active vertex in each, under oec.
  graph::EdgeList path;
  path.num_vertices = 50;
  for (graph::vertex_t v = 0; v + 1 < 50; ++v) path.edges.push_back({v, v + 1});
  const auto parts = dist::partition_in_memory(path, Policy::oec, 2, false);
  set_progress_mode(ProgressMode::always);
  set_progress_log_period(std::chrono::milliseconds(0));  // every round's line, not one in 5 s
  testing::internal::CaptureStderr();
  test_support::on_every_rank(parts, 1, [&](Engine& engine) { reach_from_zero(engine); });
  const std::string text = testing::internal::GetCapturedStderr();
  set_progress_log_period(std::chrono::seconds(5));
  set_progress_mode(ProgressMode::automatic);
  std::size_t lines = 0;
  for (std::size_t at = text.find("vertex engine: round "); at != std::string::npos;
       at = text.find("vertex engine: round ", at + 1)) {
    ++lines;
    const std::size_t end = text.find('\n', at);
    ASSERT_NE(end, std::string::npos) << text;
    EXPECT_TRUE(text.substr(at, end - at).ends_with(", 1 active")) << text.substr(at, end - at);
  }
  EXPECT_EQ(lines, 50u) << text;  // one a round, from rank 0 alone
}

TEST(Engine, SumOverAndForEachVertexVisitEveryVertexOnce) {
  const auto parts = dist::partition_in_memory(random_graph(5000, 100, 3), Policy::oec, 1, false);
  test_support::on_every_rank(parts, 2, [&](Engine& engine) {
    std::vector<std::atomic<int>> visits(5000);
    engine.for_each_vertex(5000, [&](local_t v) { ++visits[v]; });
    for (auto& x : visits) ASSERT_EQ(x.load(), 1);
    EXPECT_EQ(engine.sum_over<std::uint64_t>(5000, [](local_t v) { return std::uint64_t{v}; }), 5000u * 4999 / 2);
  });
}

// Field::set_exclusive marks without an atomic read-modify-write, which is only safe because
// for_each_vertex (and pull) give each thread chunks of whole 64-vertex words: every mark lands.
TEST(Engine, ExclusiveMarksFromForEachVertexAreAllKept) {
  const auto parts = dist::partition_in_memory(random_graph(20000, 100, 5), Policy::oec, 1, false);
  test_support::on_every_rank(parts, 2, [&](Engine& engine) {
    Field<std::uint32_t, sync::Min> label(engine.graph(), UINT32_MAX, kAlongEdges, Track::always);
    for (int repeat = 0; repeat < 20; ++repeat) {
      label.updated().clear();
      engine.for_each_vertex(engine.graph().proxies(), [&](local_t v) {
        if (v % 3 != 0) label.set_exclusive(v, v);
      });
      ASSERT_EQ(label.updated().count(), 20000u - 6667u);
    }
    EXPECT_EQ(label[7], 7u);
    EXPECT_EQ(label[9], UINT32_MAX);
    EXPECT_FALSE(label.updated().test(9));
  });
}

TEST(Engine, PullWithoutInEdgesIsAnError) {
  const auto parts = dist::partition_in_memory(random_graph(10, 20, 4), Policy::oec, 1, false);
  EXPECT_THROW(test_support::on_every_rank(parts, 1,
                                           [](Engine& engine) {
                                             engine.pull([](local_t, std::span<const local_t>, edge_t) {});
                                           }),
               Error);
}

TEST(Engine, RunOnOneRankWithTheSoloChannelReportsItsRounds) {
  graph::EdgeList path;
  path.num_vertices = 10;
  for (graph::vertex_t v = 0; v + 1 < 10; ++v) path.edges.push_back({v, v + 1});
  const auto parts = dist::partition_in_memory(path, Policy::oec, 1, false);
  sync::SoloChannel channel;
  std::uint64_t reached = 0;
  const RunStats stats = run(parts[0], channel, 2, [&](Engine& engine) {
    Field<std::uint8_t, sync::LogicalOr> seen(engine.graph(), 0, kAlongEdges, Track::always);
    Frontier frontier(engine.graph().proxies());
    seen[0] = 1;
    frontier.add(0);
    while (engine.next_round(frontier)) {
      engine.push(frontier, [&](local_t, local_t v, edge_t) { seen.combine(v, 1); });
      engine.sync(seen);
      frontier.take(seen.updated());
    }
    for (auto s : seen.values()) reached += s;
  });
  EXPECT_EQ(reached, 10u);
  EXPECT_EQ(stats.rounds.size(), 10u);
  EXPECT_EQ(stats.reduces + stats.broadcasts, 0u);
  EXPECT_EQ(stats.messages, 0u);
}

// The path of DataDrivenRoundsEndWhenNoRankIsActiveAndCountRounds, with next_level: a rank that
// holds the whole frontier runs on alone until its updates must travel. Every vertex is reached
// at its level, but on an outgoing edge cut the rounds are one per rank the path crosses; vertex
// and incoming cuts cross more often (a master's update may be mirrored), hash nearly every level.
TEST(Engine, ARankThatHoldsTheFrontierRunsLevelsAloneUntilItsUpdatesMustTravel) {
  constexpr graph::vertex_t n = 5000;
  graph::EdgeList path;
  path.num_vertices = n;
  for (graph::vertex_t v = 0; v + 1 < n; ++v) path.edges.push_back({v, v + 1});
  for (Policy policy : kPolicies)
    for (int ranks = 1; ranks <= 4; ++ranks) {
      SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks);
      const auto parts = dist::partition_in_memory(path, policy, ranks, false);
      std::vector<RunStats> stats(static_cast<std::size_t>(ranks));
      std::vector<std::uint32_t> levels;
      test_support::on_every_rank(parts, 2, [&](Engine& engine) {
        const auto& g = engine.graph();
        Field<std::uint32_t, sync::Min> level(g, UINT32_MAX, kAlongEdges, Track::always);
        Frontier frontier(g.proxies());
        if (auto s = g.local_id(0)) {
          level[*s] = 0;
          frontier.add(*s);
        }
        auto push = [&] {
          engine.push(frontier, [&](local_t u, local_t v, edge_t) {
            if (level.load(v) == UINT32_MAX) level.combine(v, level[u] + 1);
          });
        };
        while (engine.next_round(frontier)) {
          push();
          while (engine.next_level(frontier, level)) push();
          engine.sync(level);
          frontier.take(level.updated());
        }
        auto all =
            gather_masters<std::uint32_t>(engine, std::span<const std::uint32_t>(level.values()).first(g.masters()));
        stats[engine.rank()] = engine.finish();
        if (engine.rank() == 0) levels = std::move(all);
      });
      ASSERT_EQ(levels.size(), n);
      for (graph::vertex_t v = 0; v < n; ++v) ASSERT_EQ(levels[v], v) << v;
      const RunStats& s = stats[0];
      std::uint64_t visited = 0;
      for (const RoundStats& round : s.rounds) visited += round.visited;
      if (ranks == 1) {
        EXPECT_EQ(s.rounds.size(), n);  // nothing to save: every level a round
        EXPECT_EQ(s.levels, n);
      } else if (policy == Policy::oec) {
        EXPECT_EQ(s.rounds.size(), static_cast<std::size_t>(ranks));  // one round per rank's stretch
        EXPECT_EQ(s.levels, n);
        EXPECT_EQ(visited, n);              // each vertex active once, on the rank that masters it
        for (const RoundStats& round : s.rounds) EXPECT_EQ(round.active, 1u);  // at its start: the path's head
      } else if (policy != Policy::hash) {  // hash scatters the path: nearly every level crosses ranks
        EXPECT_LT(s.rounds.size(), n / 2);
      }
      EXPECT_GE(s.levels, s.rounds.size());
      for (const RunStats& other : stats) EXPECT_EQ(other.levels, s.levels);
    }
}

TEST(Engine, RunStatsCarryTheChannelsBufferFootprintFromTheBusiestRank) {
  const auto edges = random_graph(2000, 20000, 7);
  for (int ranks = 2; ranks <= 3; ++ranks) {
    const auto parts = dist::partition_in_memory(edges, Policy::cvc, ranks, false);
    std::vector<RunStats> stats(static_cast<std::size_t>(ranks));
    std::vector<std::uint64_t> own_peak(static_cast<std::size_t>(ranks));
    test_support::on_every_rank(
        parts, 1,
        [&](Engine& engine) {
          Field<std::uint32_t, sync::Max> label(engine.graph(), 0, kBothWays);
          for (local_t v = 0; v < engine.graph().proxies(); ++v) label.set(v, static_cast<std::uint32_t>(v + 1));
          engine.sync(label);
          own_peak[engine.rank()] = engine.channel().stats().buffer_bytes_peak;
          stats[engine.rank()] = engine.finish();
        },
        test_support::Channel::lci);
    const std::uint64_t busiest = *std::max_element(own_peak.begin(), own_peak.end());
    EXPECT_GT(busiest, 0u);
    for (const RunStats& s : stats) {
      EXPECT_EQ(s.buffer_bytes_peak, busiest);  // the same on every rank: the largest of them
      EXPECT_GE(s.setup_seconds, 0.0);
    }
  }
}

}  // namespace engine_test
