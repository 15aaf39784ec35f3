#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "courier/core/error.hpp"
#include "courier/net/local.hpp"

namespace local_device_test {

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
  options.pool_frames = 2;
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
  EXPECT_EQ(a->try_send(1, bytes_of(3, 100)), net::Post::retry);  // a pool of 2 is in flight
  EXPECT_EQ(a->try_send(0, bytes_of(5, 200)), net::Post::retry);  // to any rank
  EXPECT_EQ(a->try_send(1, bytes_of(6, 48)), net::Post::done);    // a frame that fits a cell needs no buffer
  EXPECT_THROW(a->try_send(1, bytes_of(4, 1025)), courier::Error);

  Recorder at_b, at_a;
  EXPECT_EQ(b->progress(at_b), 3u);
  ASSERT_EQ(at_b.frames.size(), 3u);
  EXPECT_EQ(at_b.frames[0].first, 0);
  EXPECT_EQ(at_b.frames[0].second, bytes_of(1, 100));
  EXPECT_EQ(at_b.frames[1].second, bytes_of(2, 1024));
  EXPECT_EQ(at_b.frames[2].second, bytes_of(6, 48));
  EXPECT_EQ(a->try_send(1, bytes_of(3, 100)), net::Post::done);  // room again
  EXPECT_EQ(a->try_send(0, bytes_of(5, 200)), net::Post::done);  // to itself
  EXPECT_EQ(a->progress(at_a), 1u);
  EXPECT_EQ(at_a.frames.at(0).second, bytes_of(5, 200));
  EXPECT_EQ(b->progress(at_b), 1u);
  EXPECT_EQ(at_b.frames.at(3).second, bytes_of(3, 100));
}

// A pool of one frame: the second frame waits until the first was read.
TEST(LocalDevice, PoolOfOneHoldsOneFrameAtATime) {
  net::LocalOptions options;
  options.frame_bytes = 256;
  options.pool_frames = 1;
  net::LocalFabric fabric(2, options);
  auto a = fabric.device(0);
  auto b = fabric.device(1);
  Recorder at_b;
  for (std::uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(a->try_send(1, bytes_of(i, 49 + i)), net::Post::done);
    EXPECT_EQ(a->try_send(1, bytes_of(100 + i, 200)), net::Post::retry);  // the one frame is taken
    EXPECT_EQ(b->progress(at_b), 1u);
    ASSERT_EQ(at_b.frames.size(), i + 1);
    EXPECT_EQ(at_b.frames.back().second, bytes_of(i, 49 + i));
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
  options.pool_frames = 2;
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

// One inbox per rank, fed by every peer: a full inbox answers retry to every sender (puts too,
// leaving the region untouched), and reading it makes room again.
TEST(LocalDevice, FullInboxAnswersRetryToEverySender) {
  net::LocalOptions options;
  options.inbox_cells = 2;
  net::LocalFabric fabric(3, options);
  auto a = fabric.device(0);
  auto b = fabric.device(1);
  auto c = fabric.device(2);
  EXPECT_EQ(a->try_send(2, bytes_of(1, 20)), net::Post::done);
  EXPECT_EQ(b->try_send(2, bytes_of(2, 2000)), net::Post::done);
  EXPECT_EQ(a->try_send(2, bytes_of(3, 20)), net::Post::retry);
  std::vector<std::byte> region(64, std::byte{0});
  net::RemoteRegion named;
  ASSERT_EQ(c->try_expose(0, region, 9, named), net::Post::done);
  EXPECT_EQ(a->try_put(2, named, bytes_of(4, 64), 1), net::Post::retry);
  EXPECT_EQ(region, std::vector<std::byte>(64, std::byte{0}));
  EXPECT_EQ(a->try_send(1, bytes_of(5, 20)), net::Post::done);  // another inbox has room
  Recorder at_c;
  EXPECT_EQ(c->progress(at_c), 2u);
  ASSERT_EQ(at_c.frames.size(), 2u);
  EXPECT_EQ(at_c.frames[0].first, 0);
  EXPECT_EQ(at_c.frames[0].second, bytes_of(1, 20));
  EXPECT_EQ(at_c.frames[1].first, 1);
  EXPECT_EQ(at_c.frames[1].second, bytes_of(2, 2000));
  EXPECT_EQ(a->try_put(2, named, bytes_of(4, 64), 1), net::Post::done);
  EXPECT_EQ(c->progress(at_c), 1u);
  EXPECT_EQ(at_c.arrived, std::vector<std::uint64_t>{9});
  EXPECT_EQ(region, bytes_of(4, 64));
}

// Many ranks send frames of every size to one rank from their own threads at once: each arrives
// once and intact, and the frames a sender's pool holds are reused rather than exhausted.
TEST(LocalDevice, ManySendersShareOneInbox) {
  constexpr int ranks = 6;
  constexpr std::uint32_t per_sender = 400;
  net::LocalOptions options;
  options.frame_bytes = 512;
  options.pool_frames = 3;
  options.inbox_cells = 8;
  net::LocalFabric fabric(ranks, options);
  std::vector<std::unique_ptr<net::Device>> devices;
  for (int r = 0; r < ranks; ++r) devices.push_back(fabric.device(r));
  std::atomic<int> finished{0};
  std::vector<std::thread> threads;
  for (int r = 1; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      for (std::uint32_t i = 0; i < per_sender;) {
        const std::uint32_t value = static_cast<std::uint32_t>(r) << 20 | i;
        if (devices[r]->try_send(0, bytes_of(value, 4 + (value * 7919u) % 509)) == net::Post::done) {
          ++i;
        } else {
          std::this_thread::yield();
        }
      }
      finished.fetch_add(1);
    });
  }
  Recorder at_0;
  while (finished.load() < ranks - 1 || devices[0]->progress(at_0) > 0) devices[0]->progress(at_0);
  for (auto& t : threads) t.join();
  ASSERT_EQ(at_0.frames.size(), (ranks - 1) * per_sender);
  std::vector<std::uint32_t> next(ranks, 0);
  for (auto& [source, frame] : at_0.frames) {
    std::uint32_t value;
    std::memcpy(&value, frame.data(), sizeof value);
    ASSERT_EQ(static_cast<int>(value >> 20), source);
    ASSERT_EQ(frame, bytes_of(value, 4 + (value * 7919u) % 509));
    ASSERT_EQ(value & 0xfffff, next[source]++);  // one sender's frames keep their order here
  }
}

TEST(LocalDevice, ChaosFromTheEnvironment) {
  ::setenv("COURIER_CHAOS", "17", 1);
  EXPECT_EQ(net::LocalOptions::chaos_from_environment(), std::optional<std::uint64_t>(17));
  {
    net::LocalFabric fabric(2);
    EXPECT_TRUE(fabric.options().faults.enabled);
    EXPECT_EQ(fabric.options().faults.seed, 17u);
    EXPECT_EQ(fabric.options().pool_frames, 2u);
  }
  ::setenv("COURIER_CHAOS", "x17", 1);
  EXPECT_THROW(net::LocalOptions::chaos_from_environment(), courier::InputError);
  ::unsetenv("COURIER_CHAOS");
  EXPECT_EQ(net::LocalOptions::chaos_from_environment(), std::nullopt);
  net::LocalFabric plain(2);
  EXPECT_FALSE(plain.options().faults.enabled);
}

// A fabric's memory does not depend on the number of pairs of ranks.
TEST(LocalDevice, EstimateIsLinearInTheRanks) {
  const net::LocalOptions options;
  const auto one = net::LocalOptions::estimate_bytes(1, options);
  EXPECT_EQ(net::LocalOptions::estimate_bytes(1024, options), 1024 * one);
  EXPECT_LT(one, 2u << 20);
}

}  // namespace local_device_test
