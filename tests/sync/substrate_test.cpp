// Reduce and broadcast over every partition policy and rank count, with ranks as threads and a
// loopback channel: masters end with the combination of all their proxies, mirrors with their
// master's value, and only updated labels travel.
#include "courier/sync/substrate.hpp"
#include "support/random_graph.hpp"

#include <functional>
#include <numeric>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "courier/sync/reduction.hpp"
#include "support/loopback_channel.hpp"
#include "support/rank_threads.hpp"

namespace substrate_test {

using namespace courier;
using namespace courier::sync;
using courier::dist::LocalGraph;
using courier::dist::Policy;
using courier::graph::EdgeList;
using courier::graph::vertex_t;

using courier::test_support::random_graph;

namespace {

// Runs body(rank, graph, substrate) on every rank, each rank a thread with a team of 2, over a
// loopback channel that takes whole messages (limit 0) or streams messages of at most `limit` bytes.
void on_every_rank(const std::vector<LocalGraph>& parts,
                   const std::function<void(int, const LocalGraph&, Substrate&)>& body, std::size_t limit = 0) {
  test_support::LoopbackHub hub(static_cast<int>(parts.size()));
  courier::test_support::on_rank_threads(static_cast<int>(parts.size()), [&](int r) {
    test_support::LoopbackChannel channel(hub, r, limit);
    ThreadTeam team(2);
    Substrate substrate(parts[r], channel, team);
    body(r, parts[r], substrate);
  });
}

// A value every proxy of v on rank r starts with: different on every rank.
std::uint64_t initial(vertex_t v, int r) { return (v * 7919 + static_cast<vertex_t>(r) * 104729) % 1000 + 1; }

}  // namespace

// Whole messages, and streamed ones small enough that every list is cut into several.
constexpr std::size_t kLimits[] = {0, 600};

TEST(Substrate, ReduceMinThenBroadcastGivesEveryProxyTheMinimum) {
  const EdgeList g = random_graph(200, 1500, 11);
  for (std::size_t limit : kLimits)
  for (Policy policy : {Policy::oec, Policy::iec, Policy::cvc, Policy::hash})
    for (int ranks : {1, 2, 3, 4}) {
      SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks << " limit " << limit);
      const auto parts = dist::partition_in_memory(g, policy, ranks, false);
      // The expected minimum over all proxies of each vertex.
      std::vector<std::uint64_t> expected(g.num_vertices, std::numeric_limits<std::uint64_t>::max());
      for (int r = 0; r < ranks; ++r)
        for (dist::local_t l = 0; l < parts[r].proxies(); ++l) {
          const vertex_t v = parts[r].global_id(l);
          expected[v] = std::min(expected[v], initial(v, r));
        }
      std::vector<std::vector<std::uint64_t>> result(static_cast<std::size_t>(ranks));
      on_every_rank(parts, [&](int r, const LocalGraph& graph, Substrate& substrate) {
        std::vector<std::uint64_t> value(graph.proxies());
        Bitset updated(graph.proxies());
        for (dist::local_t l = 0; l < graph.proxies(); ++l) {
          value[l] = initial(graph.global_id(l), r);
          updated.set(l);
        }
        substrate.reduce<Min>(value, updated);
        for (dist::local_t m = graph.masters(); m < graph.proxies(); ++m) EXPECT_FALSE(updated.test(m));
        substrate.broadcast(value, updated);
        result[r] = value;
      }, limit);
      for (int r = 0; r < ranks; ++r)
        for (dist::local_t l = 0; l < parts[r].proxies(); ++l)
          ASSERT_EQ(result[r][l], expected[parts[r].global_id(l)]) << "rank " << r << " proxy " << l;
    }
}

TEST(Substrate, ReduceSumCountsEachMirrorOnceAndResetsIt) {
  for (std::size_t limit : kLimits) {
  const EdgeList g = random_graph(100, 800, 5);
  const auto parts = dist::partition_in_memory(g, Policy::cvc, 4, false);
  std::vector<double> expected(g.num_vertices, 0.0);
  for (int r = 0; r < 4; ++r)
    for (dist::local_t l = 0; l < parts[r].proxies(); ++l) expected[parts[r].global_id(l)] += 1.0;
  std::vector<std::vector<double>> result(4);
  on_every_rank(parts, [&](int r, const LocalGraph& graph, Substrate& substrate) {
    std::vector<double> value(graph.proxies(), 1.0);
    Bitset updated(graph.proxies());
    for (dist::local_t l = 0; l < graph.proxies(); ++l) updated.set(l);
    substrate.reduce<Sum>(value, updated);
    for (dist::local_t m = graph.masters(); m < graph.proxies(); ++m) EXPECT_EQ(value[m], 0.0);
    // A second reduce with nothing updated changes nothing.
    updated.clear();
    substrate.reduce<Sum>(value, updated);
    EXPECT_FALSE(updated.any());
    result[r] = value;
  }, limit);
  for (int r = 0; r < 4; ++r)
    for (dist::local_t l = 0; l < parts[r].masters(); ++l)
      EXPECT_EQ(result[r][l], expected[parts[r].global_id(l)]);
  }
}

TEST(Substrate, OnlyUpdatedMastersReachTheirMirrors) {
  for (std::size_t limit : kLimits) {
  const EdgeList g = random_graph(120, 1000, 9);
  const auto parts = dist::partition_in_memory(g, Policy::hash, 3, false);
  on_every_rank(parts, [&](int, const LocalGraph& graph, Substrate& substrate) {
    std::vector<std::uint32_t> value(graph.proxies(), 0);
    Bitset updated(graph.proxies());
    for (dist::local_t l = 0; l < graph.masters(); ++l) {
      value[l] = static_cast<std::uint32_t>(graph.global_id(l)) + 1;
      if (graph.global_id(l) % 3 == 0) updated.set(l);  // only these were "written" this round
    }
    substrate.broadcast(value, updated);
    for (dist::local_t m = graph.masters(); m < graph.proxies(); ++m) {
      const bool sent = graph.global_id(m) % 3 == 0;
      EXPECT_EQ(updated.test(m), sent);
      EXPECT_EQ(value[m], sent ? graph.global_id(m) + 1 : 0u);
    }
  }, limit);
  }
}

TEST(Substrate, AStreamingChannelCutsEveryListIntoMessagesWithinItsLimitByWhatIsSent) {
  // 2 ranks, most vertices mirrored: lists of hundreds of entries. With every 4-byte label updated
  // a message of at most 600 bytes carries 144 of them (16 + 8 bytes of headers, no metadata);
  // with one label updated, one message per peer covers the whole list. The loopback rejects
  // any message over the limit.
  const EdgeList g = random_graph(600, 20000, 3);
  const auto parts = dist::partition_in_memory(g, Policy::cvc, 2, false);
  ASSERT_GT(parts[0].mirrors(), 200u);
  std::vector<std::uint64_t> dense(2), sparse(2);
  on_every_rank(parts, [&](int r, const LocalGraph& graph, Substrate& substrate) {
    std::vector<std::uint32_t> value(graph.proxies());
    Bitset updated(graph.proxies());
    for (dist::local_t l = 0; l < graph.proxies(); ++l) {
      value[l] = static_cast<std::uint32_t>(graph.global_id(l) * 2 + static_cast<vertex_t>(r));
      updated.set(l);
    }
    substrate.reduce<Max>(value, updated);
    substrate.broadcast(value, updated);
    for (dist::local_t l = 0; l < graph.proxies(); ++l) {
      const bool on_both = parts[1 - r].local_id(graph.global_id(l)).has_value();
      ASSERT_EQ(value[l], graph.global_id(l) * 2 + (on_both ? 1u : static_cast<std::uint32_t>(r)));
    }
    dense[r] = substrate.channel().stats().messages_sent;
    // One master changes: one message each way.
    updated.clear();
    value[0] += 1000;
    updated.set(0);
    substrate.broadcast(value, updated);
    sparse[r] = substrate.channel().stats().messages_sent - dense[r];
  }, 600);
  for (int r = 0; r < 2; ++r) {
    const auto out = parts[r].mirrors_owned_by(1 - r).size(), in = parts[r].masters_mirrored_on(1 - r).size();
    EXPECT_EQ(dense[r], (out + 143) / 144 + (in + 143) / 144) << "rank " << r;
    EXPECT_EQ(sparse[r], 1u) << "rank " << r;
  }
}

TEST(Substrate, AStreamingChannelDealsMessagesToItsPeersInTurn) {
  // 4 ranks, each list cut into several messages. A rank sends its peers one message each in
  // turn, so a channel that gives each peer room for only a few messages (lci where ranks share
  // cores) never holds back the others while it waits for one: the k-th message to a peer goes
  // out only after every peer with more than k - 1 messages has had its (k - 1)-th.
  const EdgeList g = random_graph(800, 30000, 5);
  const auto parts = dist::partition_in_memory(g, Policy::cvc, 4, false);
  std::vector<std::vector<rank_t>> sent(4);
  test_support::LoopbackHub hub(4);
  courier::test_support::on_rank_threads(4, [&](int r) {
    test_support::LoopbackChannel channel(hub, r, 200);  // 44 labels a message
    ThreadTeam team(1);  // one gatherer: the order sent is the order planned
    Substrate substrate(parts[r], channel, team);
    std::vector<std::uint32_t> value(parts[r].proxies(), 1);
    Bitset updated(parts[r].proxies());
    for (dist::local_t l = 0; l < parts[r].proxies(); ++l) updated.set(l);
    substrate.reduce<Max>(value, updated);
    sent[r] = channel.sent_to();
  });
  for (int r = 0; r < 4; ++r) {
    std::vector<std::size_t> total(4, 0), so_far(4, 0);
    for (rank_t peer : sent[r]) ++total[peer];
    EXPECT_GE(*std::max_element(total.begin(), total.end()), 3u) << "rank " << r << ": lists not cut";
    for (std::size_t i = 0; i < sent[r].size(); ++i) {
      const rank_t peer = sent[r][i];
      for (rank_t other = 0; other < 4; ++other) {
        if (so_far[other] < total[other]) {
          ASSERT_GE(so_far[other], so_far[peer]) << "rank " << r << ": message " << i << " to rank " << peer
                                                 << " went before rank " << other << "'s turn";
        }
      }
      ++so_far[peer];
    }
  }
}

TEST(LoopbackChannel, CollectivesAgreeOnEveryRank) {
  test_support::LoopbackHub hub(3);
  std::vector<std::thread> ranks;
  std::vector<std::uint64_t> sums(3);
  std::vector<double> maxima(3), real_sums(3);
  for (int r = 0; r < 3; ++r)
    ranks.emplace_back([&, r] {
      test_support::LoopbackChannel channel(hub, r);
      for (int round = 0; round < 100; ++round) {
        sums[r] = channel.sum_all(std::uint64_t(r + round));
        maxima[r] = channel.max_all(double(r * round));
        real_sums[r] = channel.sum_all(0.5 * r);
        ASSERT_EQ(sums[r], std::uint64_t(3 + 3 * round));
        ASSERT_EQ(maxima[r], 2.0 * round);
        ASSERT_EQ(real_sums[r], 1.5);
      }
    });
  for (auto& t : ranks) t.join();
}

TEST(Substrate, FewUpdatesTravelAsOffsetsAndCostTheirWordsNotTheLists) {
  // Most vertices mirrored (a random graph over hash and vertex cuts has long lists), a few labels
  // updated: every proxy of a vertex with an updated proxy must end with the smallest of them,
  // the others untouched, and a rank must scan a few words per update, not its lists.
  constexpr std::uint64_t kUntouched = std::numeric_limits<std::uint64_t>::max();
  const EdgeList g = random_graph(150000, 250000, 17);
  for (std::size_t limit : kLimits)
    for (Policy policy : {Policy::oec, Policy::cvc, Policy::hash})
      for (int ranks : {2, 3}) {
        SCOPED_TRACE(::testing::Message() << dist::to_string(policy) << " x " << ranks << " limit " << limit);
        const auto parts = dist::partition_in_memory(g, policy, ranks, false);
        auto marked = [](vertex_t v, int r) { return (v * 31 + static_cast<vertex_t>(r)) % 4001 == 0; };
        std::vector<std::uint64_t> expected(g.num_vertices, kUntouched);
        for (int r = 0; r < ranks; ++r)
          for (dist::local_t l = 0; l < parts[r].proxies(); ++l)
            if (const vertex_t v = parts[r].global_id(l); marked(v, r))
              expected[v] = std::min(expected[v], initial(v, r));
        std::vector<std::vector<std::uint64_t>> result(static_cast<std::size_t>(ranks));
        std::vector<std::uint64_t> scanned(static_cast<std::size_t>(ranks)),
            list_words(static_cast<std::size_t>(ranks)), marks(static_cast<std::size_t>(ranks));
        on_every_rank(
            parts,
            [&](int r, const LocalGraph& graph, Substrate& substrate) {
              std::vector<std::uint64_t> value(graph.proxies(), kUntouched);
              Bitset updated(graph.proxies());
              for (dist::local_t l = 0; l < graph.proxies(); ++l)
                if (marked(graph.global_id(l), r)) {
                  value[l] = initial(graph.global_id(l), r);
                  updated.set(l);
                  ++marks[r];
                }
              ASSERT_TRUE(updated.listed());
              ScanSlot slot;  // this thread runs small phases alone: its scans are the phase's
              ScanSlot* before = this_thread_scan_slot;
              this_thread_scan_slot = &slot;
              substrate.reduce<Min>(value, updated);
              substrate.broadcast(value, updated);
              this_thread_scan_slot = before;
              scanned[r] = slot.words.load();
              for (rank_t peer = 0; peer < ranks; ++peer)
                list_words[r] += (graph.mirrors_owned_by(peer).size() + graph.masters_mirrored_on(peer).size()) / 64;
              result[r] = value;
            },
            limit);
        for (int r = 0; r < ranks; ++r) {
          for (dist::local_t l = 0; l < parts[r].proxies(); ++l) {
            const vertex_t v = parts[r].global_id(l);
            const std::uint64_t want = expected[v] != kUntouched ? expected[v] : kUntouched;
            ASSERT_EQ(result[r][l], want) << "rank " << r << " proxy " << l << " vertex " << v;
          }
          // A few words per update (sorting, searching, clearing), where one scan of the lists
          // would cost over a thousand.
          EXPECT_GT(list_words[r], 1000u) << "rank " << r;
          EXPECT_LT(scanned[r], 10 * marks[r] + 100) << "rank " << r;
          EXPECT_LT(scanned[r], list_words[r] / 4) << "rank " << r;
        }
      }
}

}  // namespace substrate_test
