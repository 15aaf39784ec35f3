// Mirrors connected over a channel agree with the lists partition_in_memory computes directly,
// and exchange_all delivers every message to its rank, empty ones included.
#include "courier/sync/exchange.hpp"

#include <gtest/gtest.h>

#include <random>
#include <span>
#include <thread>

#include "courier/comm/local_world.hpp"
#include "courier/dist/local_graph.hpp"
#include "courier/sync/lci_channel.hpp"
#include "support/loopback_channel.hpp"

namespace exchange_test {

using namespace courier;
using namespace courier::sync;

namespace {

// fn(channel, rank) on every rank of a loopback hub, each on its own thread.
template <class Fn>
void on_loopback_ranks(int ranks, Fn fn) {
  test_support::LoopbackHub hub(ranks);
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      test_support::LoopbackChannel channel(hub, r);
      fn(channel, r);
    });
  for (auto& t : threads) t.join();
}

// What rank `from` sends rank `to`: from * 10 + to bytes, each `from`.
Bytes letter(int from, int to) { return Bytes(static_cast<std::size_t>(from * 10 + to), std::byte(from)); }

void expect_letter(std::span<const std::byte> got, int from, int to) {
  EXPECT_EQ(got.size(), static_cast<std::size_t>(from * 10 + to));
  for (std::byte b : got) EXPECT_EQ(b, std::byte(from));
}

}  // namespace

TEST(Exchange, ConnectMirrorsMatchesTheInMemoryPartition) {
  std::mt19937_64 rng(4);
  graph::EdgeList edges;
  edges.num_vertices = 150;
  for (int i = 0; i < 900; ++i) edges.edges.push_back({rng() % 150, rng() % 150});
  for (dist::Policy policy : {dist::Policy::oec, dist::Policy::cvc, dist::Policy::hash}) {
    const int ranks = 3;
    const auto expected = dist::partition_in_memory(edges, policy, ranks, false);
    on_loopback_ranks(ranks, [&](Channel& channel, int r) {
      // This rank's edges only, as a distributed loader would hand them over.
      graph::EdgeList mine;
      mine.num_vertices = edges.num_vertices;
      for (const auto& e : edges.edges)
        if (expected[r].plan().edge_owner(e.src, e.dst) == r) mine.edges.push_back(e);
      dist::LocalGraph graph(expected[r].plan(), r, mine, false);
      dist::connect_mirrors(graph, sync::collective(channel));
      for (int peer = 0; peer < ranks; ++peer) {
        const auto got = graph.masters_mirrored_on(peer);
        const auto want = expected[r].masters_mirrored_on(peer);
        EXPECT_EQ(std::vector<dist::local_t>(got.begin(), got.end()),
                  std::vector<dist::local_t>(want.begin(), want.end()));
      }
    });
  }
}

TEST(Exchange, EveryMessageReachesItsRank) {
  const int ranks = 4;
  on_loopback_ranks(ranks, [&](Channel& channel, int r) {
    std::vector<Bytes> out(ranks);
    for (int to = 0; to < ranks; ++to) out[to] = letter(r, to);
    const auto in = exchange_all(channel, std::move(out));
    for (int from = 0; from < ranks; ++from) expect_letter(in[from], from, r);
  });
}

// Over views: each peer's message is seen once, from its source, with its bytes; the caller's own
// view is not handed back, and its data stays where it was.
TEST(Exchange, ViewsReachTheirRankAndAreReadInPlace) {
  const int ranks = 4;
  on_loopback_ranks(ranks, [&](Channel& channel, int r) {
    std::vector<Bytes> data(ranks);
    std::vector<std::span<const std::byte>> out(ranks);
    for (int to = 0; to < ranks; ++to) {
      data[to] = letter(r, to);
      out[to] = data[to];
    }
    std::vector<int> seen(ranks, 0);
    exchange_all(channel, out, [&](rank_t from, std::span<const std::byte> bytes) {
      ++seen[from];
      expect_letter(bytes, from, r);
    });
    for (int from = 0; from < ranks; ++from) EXPECT_EQ(seen[from], from == r ? 0 : 1) << "from " << from;
    for (int to = 0; to < ranks; ++to) expect_letter(data[to], r, to);
  });
}

// What exchange_all hands back is the caller's, not the channel's: repeated exchanges keep the
// channel's footprint at about one exchange's worth of buffers.
TEST(Exchange, RepeatedExchangesDoNotGrowTheChannelsFootprint) {
  comm::run_local(3, [](comm::Runtime& runtime) {
    LciChannel channel(runtime);
    const std::size_t bytes = 200000;  // rendezvous-sized
    for (int round = 0; round < 20; ++round) {
      std::vector<Bytes> out(3, Bytes(bytes, std::byte{1}));
      const auto in = exchange_all(channel, std::move(out));
      for (const Bytes& b : in) ASSERT_EQ(b.size(), bytes);
    }
    // Two peers, each a message out and one in, plus what is kept for reuse: far below 20 rounds'.
    EXPECT_LT(channel.stats().buffer_bytes_peak, 10 * bytes);
  });
}

}  // namespace exchange_test
