#include "courier/net/local.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <thread>
#include <vector>

#include "courier/core/error.hpp"

namespace net = courier::net;

namespace {

struct Recorder : net::EventSink {
  std::vector<std::pair<courier::rank_t, std::vector<std::byte>>> frames;
  std::vector<std::uint64_t> sent, arrived;
  void on_frame(courier::rank_t source, std::span<const std::byte> frame) override {
    frames.emplace_back(source, std::vector<std::byte>(frame.begin(), frame.end()));
  }
  void on_put_sent(std::uint64_t context) override { sent.push_back(context); }
  void on_put_arrived(std::uint64_t context) override { arrived.push_back(context); }
};

std::vector<std::byte> bytes_of(std::uint32_t value, std::size_t size) {
  std::vector<std::byte> out(size);
  for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<std::byte>((value + i) & 0xff);
  std::memcpy(out.data(), &value, std::min(size, sizeof value));
  return out;
}

}  // namespace

TEST(LocalDevice, FramesArriveIntactAndFullRingAnswersRetry) {
  net::LocalOptions options;
  options.frame_bytes = 1024;
  options.ring_frames = 2;
  net::LocalFabric fabric(2, options);
  auto a = fabric.device(0);
  auto b = fabric.device(1);
  EXPECT_EQ(a->name(), "local");
  EXPECT_EQ(b->rank(), 1);
  EXPECT_EQ(a->ranks(), 2);
  EXPECT_EQ(a->max_frame_bytes(), 1024u);
  EXPECT_THROW(fabric.device(0), courier::Error);

  EXPECT_EQ(a->try_send(1, bytes_of(1, 100)), net::Post::done);
  EXPECT_EQ(a->try_send(1, bytes_of(2, 1024)), net::Post::done);
  EXPECT_EQ(a->try_send(1, bytes_of(3, 10)), net::Post::retry);  // ring of 2 is full
  EXPECT_THROW(a->try_send(1, bytes_of(4, 1025)), courier::Error);
  EXPECT_EQ(a->try_send(0, bytes_of(5, 8)), net::Post::done);  // to itself

  Recorder at_b, at_a;
  EXPECT_EQ(b->progress(at_b), 2u);
  ASSERT_EQ(at_b.frames.size(), 2u);
  EXPECT_EQ(at_b.frames[0].first, 0);
  EXPECT_EQ(at_b.frames[0].second, bytes_of(1, 100));
  EXPECT_EQ(at_b.frames[1].second, bytes_of(2, 1024));
  EXPECT_EQ(a->try_send(1, bytes_of(3, 10)), net::Post::done);  // room again
  EXPECT_EQ(a->progress(at_a), 1u);
  EXPECT_EQ(at_a.frames.at(0).second, bytes_of(5, 8));
}

// A ring of one slot must still tell a full slot from a free one: the second frame waits.
TEST(LocalDevice, RingOfOneHoldsOneFrameAtATime) {
  net::LocalOptions options;
  options.frame_bytes = 256;
  options.ring_frames = 1;
  net::LocalFabric fabric(2, options);
  auto a = fabric.device(0);
  auto b = fabric.device(1);
  Recorder at_b;
  for (std::uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(a->try_send(1, bytes_of(i, 48)), net::Post::done);
    EXPECT_EQ(a->try_send(1, bytes_of(100 + i, 48)), net::Post::retry);  // the one slot is taken
    EXPECT_EQ(b->progress(at_b), 1u);
    ASSERT_EQ(at_b.frames.size(), i + 1);
    EXPECT_EQ(at_b.frames.back().second, bytes_of(i, 48));
  }
  EXPECT_EQ(b->progress(at_b), 0u);
}

TEST(LocalDevice, PutLandsAndTheTargetIsNotified) {
  net::LocalFabric fabric(2);
  auto a = fabric.device(0);
  auto b = fabric.device(1);
  std::vector<std::byte> region(4096);
  net::RemoteRegion named;
  ASSERT_EQ(b->try_expose(0, region, 77, named), net::Post::done);
  EXPECT_EQ(named.bytes, 4096u);
  const auto data = bytes_of(9, 4096);
  EXPECT_THROW(a->try_put(1, named, std::span(data).first(10), 5), courier::Error);
  ASSERT_EQ(a->try_put(1, named, data, 5), net::Post::done);
  Recorder at_b;
  EXPECT_EQ(b->progress(at_b), 1u);
  ASSERT_EQ(at_b.arrived.size(), 1u);
  EXPECT_EQ(at_b.arrived[0], 77u);
  EXPECT_EQ(region, data);
}

TEST(LocalDevice, FaultsReorderButDeliverEverythingOnce) {
  net::LocalOptions options;
  options.ring_frames = 2;
  options.faults.enabled = true;
  options.faults.seed = 42;
  net::LocalFabric fabric(2, options);
  auto a = fabric.device(0);
  auto b = fabric.device(1);
  constexpr std::uint32_t frames = 300;
  Recorder at_b;
  std::uint32_t next = 0;
  int retries = 0;
  for (int round = 0; round < 100000 && at_b.frames.size() < frames; ++round) {
    if (next < frames) {
      if (a->try_send(1, bytes_of(next, 4 + next % 50)) == net::Post::done) {
        ++next;
      } else {
        ++retries;
      }
    }
    b->progress(at_b);
  }
  ASSERT_EQ(at_b.frames.size(), frames);
  EXPECT_GT(retries, 0);
  std::vector<std::uint32_t> order;
  for (auto& [source, frame] : at_b.frames) {
    std::uint32_t value;
    std::memcpy(&value, frame.data(), sizeof value);
    EXPECT_EQ(frame, bytes_of(value, 4 + value % 50));
    order.push_back(value);
  }
  EXPECT_FALSE(std::is_sorted(order.begin(), order.end()));  // reordered
  std::sort(order.begin(), order.end());
  for (std::uint32_t i = 0; i < frames; ++i) ASSERT_EQ(order[i], i);
}

TEST(LocalDevice, BarrierWaitsForEveryRank) {
  net::LocalFabric fabric(3);
  std::atomic<int> arrived{0};
  std::vector<std::thread> threads;
  for (int r = 0; r < 3; ++r) {
    threads.emplace_back([&, device = fabric.device(r)] {
      arrived.fetch_add(1);
      device->barrier();
      EXPECT_EQ(arrived.load(), 3);
    });
  }
  for (auto& t : threads) t.join();
}
