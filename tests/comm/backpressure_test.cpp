// Resource exhaustion is a soft failure: tiny pools and receivers that drain slowly or never
// make posts answer retry, never crash, never hang; shutdown still finishes.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "courier/comm/runtime.hpp"
#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "world.hpp"

namespace backpressure_test {

namespace comm = courier::comm;
using comm::testing::World;
using namespace std::chrono_literals;

TEST(CommBackpressure, TwoPacketPoolAndSlowReceiverDeliverEverything) {
  comm::RuntimeOptions options;
  options.packet_count = 2;
  options.eager_bytes = 1024;
  options.initial_endpoint.queue_capacity = 4;
  courier::net::LocalOptions local;
  local.pool_frames = 2;
  World world(2, options, local);
  constexpr int messages = 400;
  std::vector<std::byte> small(24, std::byte{5}), large(5000, std::byte{6});
  world.run([&](comm::Runtime& rt) {
    comm::Endpoint& ep = rt.endpoint();
    courier::Backoff backoff;
    if (rt.rank() == 0) {
      int pending = 0;
      for (int i = 0; i < messages; ++i) {
        const auto& data = i % 50 == 0 ? large : small;
        comm::Post answer;
        while ((answer = ep.send(1, static_cast<comm::tag_t>(i), data)) == comm::Post::retry) {
          comm::Completion c;
          while (ep.poll(c)) --pending;
          backoff.pause();
        }
        backoff.reset();
        if (answer == comm::Post::posted) ++pending;
      }
      while (pending > 0) {
        comm::Completion c;
        if (ep.poll(c)) {
          EXPECT_EQ(c.op, comm::Op::send);
          --pending;
        } else {
          backoff.pause();
        }
      }
    } else {
      std::vector<bool> seen(messages, false);
      for (int received = 0; received < messages;) {
        comm::Completion c;
        if (ep.poll(c)) {
          ASSERT_LT(c.tag, static_cast<comm::tag_t>(messages));
          EXPECT_FALSE(seen[c.tag]);
          seen[c.tag] = true;
          EXPECT_EQ(c.size, c.tag % 50 == 0 ? large.size() : small.size());
          ep.release(c);
          ++received;
          if (received % 8 == 0) std::this_thread::sleep_for(100us);  // drains slowly
        } else {
          backoff.pause();
        }
      }
    }
  });
  const comm::Stats sender = world[0].stats();
  EXPECT_EQ(sender.messages_sent, static_cast<std::uint64_t>(messages));
  EXPECT_EQ(world[1].stats().messages_received, static_cast<std::uint64_t>(messages));
  EXPECT_GT(sender.retries, 0u);
  EXPECT_LE(sender.pool_high_water, 2u);
}

TEST(CommBackpressure, ReceiverThatNeverReceivesMakesSenderRetryThenShutsDown) {
  comm::RuntimeOptions options;
  options.packet_count = 64;
  options.queue_packets = 16;
  options.initial_endpoint.queue_capacity = 16;
  options.shutdown_timeout = 5s;
  courier::net::LocalOptions local;
  local.pool_frames = 2;
  local.frame_bytes = 1024;
  World world(2, options, local);
  std::atomic<std::uint64_t> accepted{0};
  std::atomic<bool> sender_done{false};
  const auto start = std::chrono::steady_clock::now();
  world.run([&](comm::Runtime& rt) {
    if (rt.rank() != 0) {
      // Rank 1 never polls its queue; it waits (progress server running) until rank 0 is done.
      while (!sender_done.load()) std::this_thread::sleep_for(1ms);
      return;
    }
    const std::vector<std::byte> data(100, std::byte{1});
    courier::Backoff backoff;
    std::uint64_t retries = 0;
    // Post until the sender has been pushed back many times: memory is bounded, so it must be.
    while (retries < 2000 && std::chrono::steady_clock::now() - start < 5s) {
      if (rt.endpoint().send(1, 0, data) == comm::Post::retry) {
        ++retries;
        backoff.pause();
      } else {
        accepted.fetch_add(1);
        backoff.reset();
      }
    }
    EXPECT_EQ(retries, 2000u);
    sender_done.store(true);
  });
  EXPECT_LT(std::chrono::steady_clock::now() - start, 8s);
  const comm::Stats sender = world[0].stats(), receiver = world[1].stats();
  EXPECT_GE(sender.retries, 2000u);
  EXPECT_EQ(sender.messages_sent, accepted.load());
  EXPECT_LT(accepted.load(), 400u);  // bounded by pool, queues, rings and one read, not by patience
  // Shutdown delivered everything the sender had queued: into the full queue, or discarded.
  EXPECT_EQ(sender.dropped, 0u);
  EXPECT_EQ(receiver.messages_received, accepted.load());
  EXPECT_EQ(receiver.discarded + 16, receiver.messages_received);  // 16 fit the completion queue
}

TEST(CommBackpressure, PeerThatNeverShutsDownMakesShutdownThrowNotHang) {
  comm::RuntimeOptions options;
  options.shutdown_timeout = 200ms;
  options.progress_thread = false;
  courier::net::LocalFabric fabric(2);
  comm::Runtime lonely(fabric.device(0), options);
  auto other = fabric.device(1);  // rank 1 never builds a runtime
  EXPECT_THROW(lonely.shutdown(), courier::Error);
}

}  // namespace backpressure_test
