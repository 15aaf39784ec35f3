// Runtime::flush without a progress thread: everything the rank posted is handed to the
// transport before it returns, so a peer receives it all while this rank no longer progresses.
#include <gtest/gtest.h>

#include <vector>

#include "courier/comm/runtime.hpp"
#include "world.hpp"

namespace flush_test {

namespace comm = courier::comm;
using comm::testing::World;

TEST(CommFlush, HandsEverythingQueuedToTheTransport) {
  comm::RuntimeOptions options;
  options.progress_thread = false;  // nothing moves until someone progresses
  World world(2, options);
  const std::vector<std::byte> message(4000, std::byte{3});
  constexpr int kMessages = 100;  // about 25 frames: flush must run many rounds
  for (int i = 0; i < kMessages; ++i) ASSERT_EQ(world[0].endpoint().send(1, 1, message), comm::Post::done);
  EXPECT_LT(world[0].stats().packets_sent, static_cast<std::uint64_t>(kMessages));  // queued, not sent
  world[0].flush();
  EXPECT_EQ(world[0].stats().packets_sent, static_cast<std::uint64_t>(kMessages));
  int received = 0;
  for (int round = 0; round < 100000 && received < kMessages; ++round) {
    world[1].progress();  // rank 0 makes no progress from here on
    comm::Completion c;
    while (world[1].endpoint().poll(c)) {
      EXPECT_EQ(c.size, message.size());
      world[1].endpoint().release(c);
      ++received;
    }
  }
  EXPECT_EQ(received, kMessages);
  world.run([](comm::Runtime&) {});
}

TEST(CommFlush, ReturnsWhenNothingIsQueued) {
  comm::RuntimeOptions options;
  options.progress_thread = false;
  World world(2, options);
  world[0].flush();
  world[1].flush();
  EXPECT_EQ(world[0].stats().packets_sent, 0u);
  world.run([](comm::Runtime&) {});
}

}  // namespace flush_test
