// The lci channel on the comm runtime (local transport, ranks as threads): phases deliver exactly
// one intact message per peer, eager and rendezvous sizes alike, early messages wait for their
// phase, collectives agree, and recycled buffers keep the footprint small.
#include "courier/sync/lci_channel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <random>

#include "courier/comm/local_world.hpp"

namespace lci_channel_test {

using namespace courier;
using namespace courier::sync;

namespace {

// The message rank `from` sends to rank `to` in `phase`: its size crosses the eager limit.
Bytes message_for(int from, int to, std::uint64_t phase) {
  std::mt19937_64 rng(phase * 1000003 + static_cast<std::uint64_t>(from) * 1009 + static_cast<std::uint64_t>(to));
  const std::size_t size = phase % 4 == 0 ? 100000 + rng() % 50000 : rng() % 2000;
  Bytes bytes(size);
  for (auto& b : bytes) b = static_cast<std::byte>(rng());
  return bytes;
}

}  // namespace

TEST(LciChannel, PhasesDeliverOneIntactMessagePerPeer) {
  for (int ranks : {2, 3, 4}) {
    std::vector<ChannelStats> stats(static_cast<std::size_t>(ranks));
    comm::run_local(ranks, [&](comm::Runtime& runtime) {
      LciChannel channel(runtime);
      const int me = channel.rank();
      std::vector<rank_t> peers;
      for (int r = 0; r < ranks; ++r)
        if (r != me) peers.push_back(r);
      for (std::uint64_t phase = 1; phase <= 30; ++phase) {
        channel.begin_phase(peers, peers);
        for (int peer : peers) {
          const Bytes expected = message_for(me, peer, phase);
          Bytes out = channel.acquire(expected.size());
          out.assign(expected.begin(), expected.end());
          channel.send(peer, std::move(out));
        }
        std::vector<int> heard(static_cast<std::size_t>(ranks), 0);
        for (std::size_t got = 0; got < peers.size();) {
          auto received = channel.try_receive();
          if (!received) continue;
          ++got;
          ++heard[received->source];
          EXPECT_EQ(received->bytes, message_for(received->source, me, phase)) << "phase " << phase;
          channel.release(std::move(received->bytes));
        }
        for (int peer : peers) EXPECT_EQ(heard[peer], 1);
        EXPECT_FALSE(channel.try_receive().has_value());
        channel.end_phase();
      }
      stats[me] = channel.stats();
    });
    for (const ChannelStats& s : stats) {
      EXPECT_EQ(s.phases, 30u);
      EXPECT_EQ(s.messages_sent, 30u * static_cast<unsigned>(ranks - 1));
      // Buffers are recycled: the working set is a few large messages, not 30 phases' worth.
      EXPECT_LT(s.buffer_bytes_peak, 12u * 150000u * static_cast<unsigned>(ranks));
      EXPECT_GT(s.buffer_bytes_peak, 100000u);
    }
  }
}

TEST(LciChannel, CollectivesAgreeOnEveryRank) {
  comm::run_local(3, [](comm::Runtime& runtime) {
    LciChannel channel(runtime);
    for (int round = 0; round < 200; ++round) {
      ASSERT_EQ(channel.sum_all(std::uint64_t(channel.rank() + round)), std::uint64_t(3 + 3 * round));
      ASSERT_EQ(channel.max_all(double(channel.rank() * round)), 2.0 * round);
      ASSERT_EQ(channel.sum_all(0.1 * (channel.rank() + 1)), 0.1 + 0.2 + 0.30000000000000004);
    }
  });
}

// Above 32 ranks collectives go by a binomial tree: every rank gets the same result, in rounds
// that overlap (a fast rank may start the next collective while a slow one ends this one), and
// the double sum is the same bits on every rank and in every run.
TEST(LciChannel, TreeCollectivesAgreeOnEveryRank) {
  constexpr int ranks = 37;
  std::vector<double> sums(ranks);
  comm::RuntimeOptions options;
  options.progress_thread = false;
  comm::run_local(
      ranks,
      [&](comm::Runtime& runtime) {
        LciChannel channel(runtime);
        const auto r = static_cast<std::uint64_t>(channel.rank());
        for (std::uint64_t round = 0; round < 4; ++round) {
          ASSERT_EQ(channel.sum_all(r + round), std::uint64_t(ranks * (ranks - 1) / 2 + ranks * round));
          ASSERT_EQ(channel.max_all(double(r * round)), double((ranks - 1) * round));
        }
        sums[channel.rank()] = channel.sum_all(0.1 * double(r + 1));
      },
      options);
  for (double s : sums) EXPECT_EQ(std::bit_cast<std::uint64_t>(s), std::bit_cast<std::uint64_t>(sums[0]));
  EXPECT_NEAR(sums[0], 0.1 * ranks * (ranks + 1) / 2, 1e-9);
}

TEST(LciChannel, RestartingThePeakForgetsAnEarlierPhasesBuffers) {
  comm::run_local(2, [](comm::Runtime& runtime) {
    LciChannel channel(runtime);
    const rank_t peer[] = {1 - channel.rank()};
    const auto phase = [&](std::size_t bytes) {
      channel.begin_phase(peer, peer);
      Bytes out = channel.acquire(bytes);
      out.assign(bytes, std::byte{7});
      channel.send(peer[0], std::move(out));
      for (;;) {
        if (auto received = channel.try_receive()) {
          EXPECT_EQ(received->bytes.size(), bytes);
          channel.release(std::move(received->bytes));
          break;
        }
      }
      channel.end_phase();
    };
    phase(1 << 20);  // a load's worth
    EXPECT_GE(channel.stats().buffer_bytes_peak, 1u << 20);
    channel.restart_buffer_peak();
    EXPECT_LT(channel.stats().buffer_bytes_peak, 1u << 20);  // the idle megabyte buffers are gone
    phase(1000);
    EXPECT_LT(channel.stats().buffer_bytes_peak, 64u << 10);
    EXPECT_GT(channel.stats().buffer_bytes_peak, 0u);
  });
}

}  // namespace lci_channel_test
