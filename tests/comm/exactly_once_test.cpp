// Every rank's threads send messages of random sizes (0 B .. 1 MiB, across the eager limit) to
// random ranks on the local transport; every message must arrive exactly once and unaltered, and
// the counts must match. (tests/comm/mpi runs the same check on the mpi and ofi transports.)
#include <gtest/gtest.h>

#include "comm/exactly_once.hpp"
#include "world.hpp"

namespace exactly_once_test {

namespace comm = courier::comm;
using comm::testing::Plan;
using comm::testing::World;

namespace {

void exactly_once(courier::rank_t ranks, int threads, int messages, bool progress_thread,
                  courier::net::LocalOptions local = {}) {
  comm::RuntimeOptions options;
  options.progress_thread = progress_thread;
  options.packet_count = 256;
  World world(ranks, options, local);
  const Plan plan{ranks, threads, messages};
  world.run([&](comm::Runtime& rt) { comm::testing::exchange_exactly_once(rt, plan, !progress_thread); });
  comm::Stats total;
  for (courier::rank_t r = 0; r < ranks; ++r) {
    const comm::Stats s = world[r].stats();
    total.messages_sent += s.messages_sent;
    total.messages_received += s.messages_received;
    total.eager_sent += s.eager_sent;
    total.rendezvous_sent += s.rendezvous_sent;
    total.bytes_sent += s.bytes_sent;
    total.bytes_received += s.bytes_received;
    total.packets_sent += s.packets_sent;
    total.packets_received += s.packets_received;
    EXPECT_EQ(s.dropped, 0u);
    EXPECT_EQ(s.discarded, 0u);
    EXPECT_LE(s.pool_high_water, s.pool_packets);
  }
  EXPECT_EQ(total.messages_sent, static_cast<std::uint64_t>(ranks * threads * messages));
  EXPECT_EQ(total.messages_received, total.messages_sent);
  EXPECT_EQ(total.bytes_received, total.bytes_sent);
  EXPECT_EQ(total.packets_received, total.packets_sent);
  EXPECT_EQ(total.eager_sent + total.rendezvous_sent, total.messages_sent);
  EXPECT_GT(total.eager_sent, 0u);
  EXPECT_GT(total.rendezvous_sent, 0u);
}

}  // namespace

TEST(CommExactlyOnce, TwoRanksTwoThreadsProgressServer) { exactly_once(2, 2, 300, true); }
TEST(CommExactlyOnce, TwoRanksTwoThreadsExplicitProgress) { exactly_once(2, 2, 300, false); }
TEST(CommExactlyOnce, ThreeRanksProgressServer) { exactly_once(3, 1, 300, true); }
TEST(CommExactlyOnce, ThreeRanksExplicitProgress) { exactly_once(3, 1, 300, false); }
TEST(CommExactlyOnce, FourRanksProgressServer) { exactly_once(4, 1, 200, true); }
TEST(CommExactlyOnce, FourRanksExplicitProgress) { exactly_once(4, 1, 200, false); }

TEST(CommExactlyOnce, DelayedReorderedFramesTinyRings) {
  courier::net::LocalOptions local;
  local.pool_frames = 2;
  local.faults.enabled = true;
  local.faults.seed = 7;
  exactly_once(3, 2, 200, true, local);
}

TEST(CommExactlyOnce, DelayedReorderedFramesExplicitProgress) {
  courier::net::LocalOptions local;
  local.pool_frames = 1;
  local.faults.enabled = true;
  local.faults.seed = 11;
  exactly_once(2, 2, 200, false, local);
}

}  // namespace exactly_once_test
