// The lci channel's receive-side flow control: a peer that runs ahead holds at most a window of
// messages at a rank still computing (and without the window it holds them all, so the test can
// tell), and ranks that send to each other while nobody receives outside the waits for room still
// finish, also with a tiny packet pool and a transport that delays, reorders and refuses frames;
// the substrate's threads, waiting for room, still finish every reduce and broadcast.
#include <chrono>
#include <cstring>
#include <thread>

#include <gtest/gtest.h>

#include "courier/comm/local_world.hpp"
#include "courier/sync/lci_channel.hpp"
#include "courier/sync/reduction.hpp"
#include "courier/sync/substrate.hpp"
#include "support/random_graph.hpp"

namespace lci_flow_control_test {

using namespace courier;
using namespace courier::sync;

namespace {

constexpr std::size_t kPayload = 4000;

// Message `index` of `phase` from `from`: its first bytes say which, the rest follow from it.
Bytes payload(int from, std::uint64_t phase, std::uint32_t index) {
  Bytes bytes(kPayload);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::byte>((phase * 131 + index * 7 + static_cast<std::uint64_t>(from) * 31 + i) & 0xff);
  return bytes;
}

struct Tally {
  std::vector<std::uint32_t> got;  // by source
  std::uint64_t phase = 0;
  void take(LciChannel& channel, Received received) {
    ++got[static_cast<std::size_t>(received.source)];
    std::uint32_t index = 0;
    std::memcpy(&index, received.bytes.data(), sizeof index);
    Bytes expected = payload(received.source, phase, index);
    std::memcpy(expected.data(), &index, sizeof index);
    EXPECT_EQ(received.bytes, expected) << "phase " << phase << " message " << index << " from " << received.source;
    channel.release(std::move(received.bytes));
  }
};

// Sends `count` messages to every peer the way the substrate does (waiting for room, receiving
// meanwhile), then receives until every peer's `count` messages of this phase arrived.
void run_phase(LciChannel& channel, std::uint64_t phase, std::uint32_t send_count,
               const std::vector<std::uint32_t>& receive_count) {
  const int me = channel.rank();
  std::vector<rank_t> peers;
  for (int r = 0; r < channel.ranks(); ++r)
    if (r != me) peers.push_back(r);
  channel.begin_phase(peers, peers);
  Tally tally{std::vector<std::uint32_t>(static_cast<std::size_t>(channel.ranks()), 0), phase};
  for (std::uint32_t index = 0; index < send_count; ++index) {
    for (rank_t peer : peers) {
      while (!channel.may_send(peer)) {
        if (auto received = channel.try_receive())
          tally.take(channel, std::move(*received));
        else
          std::this_thread::yield();
      }
      const Bytes bytes = payload(me, phase, index);
      Bytes message = channel.acquire(kPayload);
      message.assign(bytes.begin(), bytes.end());
      std::memcpy(message.data(), &index, sizeof index);
      channel.send(peer, std::move(message));
    }
  }
  auto done = [&] {
    for (rank_t peer : peers)
      if (tally.got[static_cast<std::size_t>(peer)] < receive_count[static_cast<std::size_t>(peer)]) return false;
    return true;
  };
  while (!done()) {
    if (auto received = channel.try_receive())
      tally.take(channel, std::move(*received));
    else
      std::this_thread::yield();
  }
  for (rank_t peer : peers) EXPECT_EQ(tally.got[static_cast<std::size_t>(peer)], receive_count[static_cast<std::size_t>(peer)]);
  channel.end_phase();
}

// Rank 0 sends 200 messages a phase to rank 1, which sends one back and computes (sleeps) before
// every phase: rank 0's next phase arrives while rank 1 computes.
std::uint64_t slow_receiver_peak(std::size_t window) {
  std::uint64_t peak = 0;
  comm::run_local(2, [&](comm::Runtime& runtime) {
    LciChannel channel(runtime, {.window = window});
    const bool fast = channel.rank() == 0;
    for (std::uint64_t phase = 1; phase <= 3; ++phase) {
      if (!fast) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      run_phase(channel, phase, fast ? 200 : 1, fast ? std::vector<std::uint32_t>{0, 1} : std::vector<std::uint32_t>{200, 0});
    }
    if (!fast) peak = channel.stats().buffer_bytes_peak;
  });
  return peak;
}

}  // namespace

TEST(LciFlowControl, EarlyArrivalsStayWithinTheWindow) {
  // Reused buffers are 4000 bytes (a little more for the first few): the window of 8, the pool's
  // six kept buffers and a couple in hand.
  EXPECT_LT(slow_receiver_peak(8), 20u * 4096u);
}

TEST(LciFlowControl, WithoutAWindowEarlyArrivalsPileUp) {
  // The control: the same run without flow control holds most of a phase at the slow rank.
  EXPECT_GT(slow_receiver_peak(0), 100u * kPayload);
}

TEST(LciFlowControl, RanksSendingToEachOtherFinishWithTinyPoolsAndFaults) {
  for (std::size_t window : {std::size_t{1}, std::size_t{2}, std::size_t{0}}) {
    for (int ranks : {2, 3}) {
      comm::RuntimeOptions options;
      options.packet_count = 8;
      options.queue_packets = 4;
      net::LocalOptions local;
      local.pool_frames = 2;
      local.faults.enabled = true;
      local.faults.seed = window * 10 + static_cast<std::uint64_t>(ranks);
      comm::run_local(
          ranks,
          [&](comm::Runtime& runtime) {
            LciChannel channel(runtime, {.window = window});
            const std::vector<std::uint32_t> expected(static_cast<std::size_t>(ranks), 300);
            for (std::uint64_t phase = 1; phase <= 4; ++phase) run_phase(channel, phase, 300, expected);
            const ChannelStats stats = channel.stats();
            EXPECT_EQ(stats.messages_sent, 4u * 300u * static_cast<unsigned>(ranks - 1));
          },
          options, local);
    }
  }
}

TEST(LciFlowControl, SubstrateWithAOneMessageWindowGivesEveryProxyTheMinimum) {
  const graph::EdgeList g = test_support::random_graph(600, 20000, 3);
  auto label = [](graph::vertex_t v, int rank, int round) {
    return static_cast<std::uint32_t>((v * 7919 + static_cast<graph::vertex_t>(rank) * 104729 + static_cast<graph::vertex_t>(round) * 31) % 1000 + 1);
  };
  for (int ranks : {2, 3}) {
    const auto parts = dist::partition_in_memory(g, dist::Policy::cvc, ranks, false);
    comm::RuntimeOptions options;
    options.packet_count = 16;
    net::LocalOptions local;
    local.pool_frames = 2;
    local.faults.enabled = true;
    comm::run_local(
        ranks,
        [&](comm::Runtime& runtime) {
          // 600-byte messages: every list is cut into many, and each peer has room for two.
          LciChannel channel(runtime, {.message_bytes = 600, .window = 1});
          ThreadTeam team(2);
          const dist::LocalGraph& graph = parts[static_cast<std::size_t>(runtime.rank())];
          Substrate substrate(graph, channel, team);
          for (int round = 0; round < 4; ++round) {
            std::vector<std::uint32_t> value(graph.proxies());
            Bitset updated(graph.proxies());
            for (dist::local_t l = 0; l < graph.proxies(); ++l) {
              value[l] = label(graph.global_id(l), runtime.rank(), round);
              updated.set(l);
            }
            substrate.reduce<Min>(value, updated);
            substrate.broadcast(value, updated);
            for (dist::local_t l = 0; l < graph.proxies(); ++l) {
              std::uint32_t expected = ~0u;
              for (int r = 0; r < ranks; ++r)
                if (parts[static_cast<std::size_t>(r)].local_id(graph.global_id(l)))
                  expected = std::min(expected, label(graph.global_id(l), r, round));
              ASSERT_EQ(value[l], expected) << "vertex " << graph.global_id(l) << " round " << round;
            }
          }
          EXPECT_GT(channel.stats().messages_sent, 20u);
        },
        options, local);
  }
}

}  // namespace lci_flow_control_test
