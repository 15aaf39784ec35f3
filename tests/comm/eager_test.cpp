#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "courier/comm/local_world.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "world.hpp"

namespace eager_test {

namespace comm = courier::comm;
using comm::testing::World;

namespace {

std::vector<std::byte> text(const std::string& s) {
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

// Sends `message` to every rank (itself included), then receives one from every rank.
void ping_everyone(comm::Runtime& rt, bool explicit_progress) {
  comm::Endpoint& ep = rt.endpoint();
  courier::Backoff backoff;
  const auto message = text("hello from " + std::to_string(rt.rank()));
  for (courier::rank_t d = 0; d < rt.ranks(); ++d) {
    while (ep.send(d, 100 + static_cast<comm::tag_t>(rt.rank()), message) != comm::Post::done) {
      if (explicit_progress) rt.progress();
      backoff.pause();
    }
  }
  std::vector<int> heard(static_cast<std::size_t>(rt.ranks()), 0);
  for (int received = 0; received < rt.ranks();) {
    comm::Completion c;
    if (ep.poll(c)) {
      ASSERT_EQ(c.op, comm::Op::recv);
      const std::string body(reinterpret_cast<const char*>(c.data), c.size);
      EXPECT_EQ(body, "hello from " + std::to_string(c.rank));
      EXPECT_EQ(c.tag, 100u + static_cast<comm::tag_t>(c.rank));
      ++heard[static_cast<std::size_t>(c.rank)];
      ep.release(c);
      ++received;
      backoff.reset();
    } else {
      if (explicit_progress) rt.progress();
      backoff.pause();
    }
  }
  for (int h : heard) EXPECT_EQ(h, 1);
}

}  // namespace

TEST(CommEager, EveryRankHearsEveryRankWithProgressServer) {
  comm::run_local(3, [](comm::Runtime& rt) { ping_everyone(rt, false); });
}

TEST(CommEager, EveryRankHearsEveryRankWithExplicitProgress) {
  comm::RuntimeOptions options;
  options.progress_thread = false;
  comm::run_local(4, [](comm::Runtime& rt) { ping_everyone(rt, true); }, options);
}

TEST(CommEager, SmallMessagesArePackedIntoFewFrames) {
  comm::RuntimeOptions options;
  options.progress_thread = false;  // nothing moves until progress: all 200 wait in the queue
  World world(2, options);
  const std::vector<std::byte> eight(8, std::byte{7});
  for (int i = 0; i < 200; ++i) ASSERT_EQ(world[0].endpoint().send(1, 1, eight), comm::Post::done);
  world[0].progress();
  const comm::Stats stats = world[0].stats();
  EXPECT_EQ(stats.packets_sent, 200u);
  EXPECT_LE(stats.frames_sent, 2u);  // 200 x 48 B packets fit one 16 KiB frame
  int received = 0;
  for (int round = 0; round < 1000 && received < 200; ++round) {
    world[1].progress();
    comm::Completion c;
    while (world[1].endpoint().poll(c)) {
      EXPECT_EQ(c.size, 8u);
      world[1].endpoint().release(c);
      ++received;
    }
  }
  EXPECT_EQ(received, 200);
  world.run([](comm::Runtime&) {});
}

TEST(CommEager, PostsAfterShutdownAndBadRanksThrow) {
  World world(1);
  const std::vector<std::byte> one(1);
  EXPECT_THROW(world[0].endpoint().send(1, 0, one), courier::Error);
  EXPECT_THROW(world[0].endpoint().send(-1, 0, one), courier::Error);
  world.run([](comm::Runtime&) {});
  EXPECT_THROW(world[0].endpoint().send(0, 0, one), courier::Error);
}

}  // namespace eager_test
