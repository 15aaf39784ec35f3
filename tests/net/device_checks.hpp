#pragma once
// Checks any net::Device must pass, written once and run against each transport under mpirun.
// The ranks coordinate the checks themselves (expected counts, exposed regions) over
// MPI_COMM_WORLD, never through the device under test. Each check asserts on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <span>
#include <thread>
#include <vector>

#include "courier/net/device.hpp"

namespace courier::net::testing {

// Polling backs off (yield, then short sleeps) so that 4 ranks on 2 cores still move.
class Backoff {
 public:
  void idle() {
    if (++idle_ < 32) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
  void busy() { idle_ = 0; }

 private:
  int idle_ = 0;
};

constexpr auto check_deadline = std::chrono::seconds(30);

struct RecordingSink : EventSink {
  std::vector<std::pair<rank_t, std::vector<std::byte>>> frames;
  std::vector<std::uint64_t> puts_sent;
  std::vector<std::uint64_t> puts_arrived;

  void on_frame(rank_t source, std::span<const std::byte> frame) override {
    frames.emplace_back(source, std::vector<std::byte>(frame.begin(), frame.end()));
  }
  void on_put_sent(std::uint64_t context) override { puts_sent.push_back(context); }
  void on_put_arrived(std::uint64_t context) override { puts_arrived.push_back(context); }
};

// Progresses until `done()` holds; false if the deadline passed first.
template <class Done>
bool progress_until(Device& device, EventSink& sink, Done done) {
  auto deadline = std::chrono::steady_clock::now() + check_deadline;
  Backoff backoff;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    if (device.progress(sink) > 0) {
      backoff.busy();
    } else {
      backoff.idle();
    }
  }
  return true;
}

// Keeps calling `post` (progressing in between) while it answers retry.
template <class PostFn>
Post post_with_retry(Device& device, EventSink& sink, PostFn post) {
  auto deadline = std::chrono::steady_clock::now() + check_deadline;
  Backoff backoff;
  for (;;) {
    Post answer = post();
    if (answer != Post::retry) return answer;
    if (std::chrono::steady_clock::now() > deadline) return Post::retry;
    if (device.progress(sink) == 0) backoff.idle();
  }
}

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline std::uint32_t fnv1a(std::span<const std::byte> bytes) {
  std::uint32_t hash = 2166136261u;
  for (std::byte b : bytes) hash = (hash ^ static_cast<std::uint32_t>(b)) * 16777619u;
  return hash;
}

// The payload byte i of frame `seq` from `source`: every receiver can recompute it.
inline std::byte pattern(std::uint64_t a, std::uint64_t b, std::uint64_t i) {
  return static_cast<std::byte>((a * 131 + b * 7919 + i * 31 + (i >> 8)) & 0xff);
}

// A frame's plan, the same on sender and receiver: both replay the sender's generator.
struct PlannedFrame {
  rank_t dest;
  std::size_t bytes;  // at least the 8-byte header (sequence number, checksum)
};

inline std::vector<PlannedFrame> plan_frames(rank_t source, rank_t ranks, std::size_t max_bytes,
                                             std::size_t count) {
  std::mt19937_64 random(0x5eed + static_cast<std::uint64_t>(source));
  std::uniform_int_distribution<rank_t> dest(0, ranks - 1);
  std::uniform_int_distribution<std::size_t> bytes(8, max_bytes);
  std::vector<PlannedFrame> plan;
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t size = bytes(random);
    if (i % 16 == 0) size = max_bytes;  // the edge cases, often
    if (i % 16 == 1) size = 8;
    plan.push_back({dest(random), size});
  }
  return plan;
}

inline std::vector<std::byte> make_frame(rank_t source, std::uint32_t seq, std::size_t bytes) {
  std::vector<std::byte> frame(bytes);
  for (std::size_t i = 8; i < bytes; ++i) frame[i] = pattern(source, seq, i);
  std::uint32_t checksum = fnv1a(std::span(frame).subspan(8));
  std::memcpy(frame.data(), &seq, 4);
  std::memcpy(frame.data() + 4, &checksum, 4);
  return frame;
}

// Every rank sends `count` frames of random sizes to random ranks (itself included); every frame
// must arrive exactly once, at the right rank, from the right source, with the right bytes.
inline void check_random_frames(Device& device, std::size_t count) {
  const rank_t me = device.rank();
  const rank_t ranks = device.ranks();
  const std::size_t max_bytes = device.max_frame_bytes();
  RecordingSink sink;

  std::vector<PlannedFrame> mine = plan_frames(me, ranks, max_bytes, count);
  for (std::uint32_t seq = 0; seq < mine.size(); ++seq) {
    std::vector<std::byte> frame = make_frame(me, seq, mine[seq].bytes);
    Post answer = post_with_retry(device, sink, [&] { return device.try_send(mine[seq].dest, frame); });
    ASSERT_EQ(answer, Post::done) << "try_send kept answering retry";
    // The device copied the frame: scribbling over it now must not change what arrives.
    std::fill(frame.begin(), frame.end(), std::byte{0xee});
  }

  // What this rank must receive, from the senders' plans.
  std::map<std::pair<rank_t, std::uint32_t>, std::size_t> expected;
  for (rank_t source = 0; source < ranks; ++source) {
    std::vector<PlannedFrame> theirs = plan_frames(source, ranks, max_bytes, count);
    for (std::uint32_t seq = 0; seq < theirs.size(); ++seq) {
      if (theirs[seq].dest == me) expected[{source, seq}] = theirs[seq].bytes;
    }
  }
  ASSERT_TRUE(progress_until(device, sink, [&] { return sink.frames.size() >= expected.size(); }))
      << "rank " << me << " got " << sink.frames.size() << " of " << expected.size() << " frames";

  std::set<std::pair<rank_t, std::uint32_t>> seen;
  for (const auto& [source, frame] : sink.frames) {
    ASSERT_GE(frame.size(), 8u);
    std::uint32_t seq = 0;
    std::uint32_t checksum = 0;
    std::memcpy(&seq, frame.data(), 4);
    std::memcpy(&checksum, frame.data() + 4, 4);
    auto key = std::make_pair(source, seq);
    ASSERT_TRUE(expected.count(key)) << "unexpected frame " << seq << " from " << source;
    ASSERT_TRUE(seen.insert(key).second) << "frame " << seq << " from " << source << " twice";
    ASSERT_EQ(frame.size(), expected[key]);
    ASSERT_EQ(checksum, fnv1a(std::span(frame).subspan(8)));
    ASSERT_EQ(frame, make_frame(source, seq, frame.size()));
  }
  EXPECT_EQ(seen.size(), expected.size());
  device.barrier();
  // Nothing more may arrive after everything expected did.
  device.progress(sink);
  EXPECT_EQ(sink.frames.size(), expected.size());
}

// With `send_buffers` send buffers and no progress, try_send takes at most that many frames, then
// answers retry until progress frees one; every frame taken still arrives once. A transport whose
// provider may push back earlier (ofi) passes exact = false; mpi must take exactly that many.
inline void check_send_retry(Device& device, std::size_t send_buffers, bool exact) {
  const rank_t me = device.rank();
  const rank_t next = (me + 1) % device.ranks();
  const rank_t previous = (me + device.ranks() - 1) % device.ranks();
  RecordingSink sink;
  std::vector<std::byte> frame(64);
  // A first frame each way, so that connections are up before the test proper.
  frame[0] = std::byte{0};
  ASSERT_EQ(post_with_retry(device, sink, [&] { return device.try_send(next, frame); }), Post::done);
  ASSERT_TRUE(progress_until(device, sink, [&] { return sink.frames.size() >= 1; }));
  device.barrier();

  std::size_t sent = 1;
  std::size_t taken = 0;
  for (; taken < send_buffers + 2; ++taken) {
    frame[0] = static_cast<std::byte>(sent);
    if (device.try_send(next, frame) != Post::done) break;
    ++sent;
  }
  EXPECT_LE(taken, send_buffers) << "try_send took more frames than it has send buffers";
  if (exact) {
    EXPECT_EQ(taken, send_buffers);
  } else {
    EXPECT_GE(taken, 1u);
  }
  EXPECT_EQ(device.try_send(next, frame), Post::retry);
  frame[0] = static_cast<std::byte>(sent);
  ASSERT_EQ(post_with_retry(device, sink, [&] { return device.try_send(next, frame); }), Post::done);
  ++sent;

  unsigned long expected = 0;
  unsigned long mine = sent;
  MPI_Sendrecv(&mine, 1, MPI_UNSIGNED_LONG, next, 7, &expected, 1, MPI_UNSIGNED_LONG, previous, 7,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  ASSERT_TRUE(progress_until(device, sink, [&] { return sink.frames.size() >= expected; }));
  std::set<int> firsts;
  for (const auto& [source, bytes] : sink.frames) {
    EXPECT_EQ(source, previous);
    EXPECT_EQ(bytes.size(), 64u);
    firsts.insert(static_cast<int>(bytes[0]));
  }
  EXPECT_EQ(firsts.size(), expected);
  EXPECT_EQ(sink.frames.size(), expected);
  device.barrier();
}

// Every rank exposes one region per (origin, size) and every origin fills them: sizes from 0 B to
// 1 MiB, every pair of ranks including a rank with itself. Both sides must report each context
// exactly once and the bytes must be in place.
inline void check_puts(Device& device) {
  const std::vector<std::size_t> sizes = {0, 1, 8, 4095, 65536 + 3, 1 << 20};
  const rank_t me = device.rank();
  const rank_t ranks = device.ranks();
  const std::size_t per_pair = sizes.size();
  RecordingSink sink;
  auto arrived_context = [&](rank_t origin, std::size_t k) { return 1000 * origin + k; };
  auto sent_context = [&](rank_t target, std::size_t k) { return 1'000'000 + 1000 * target + k; };

  // Expose, and tell each origin how its regions are named.
  std::vector<std::vector<std::byte>> regions(ranks * per_pair);
  std::vector<RemoteRegion> named(ranks * per_pair);
  for (rank_t origin = 0; origin < ranks; ++origin) {
    for (std::size_t k = 0; k < per_pair; ++k) {
      std::vector<std::byte>& region = regions[origin * per_pair + k];
      region.assign(sizes[k], std::byte{0});
      Post answer = post_with_retry(device, sink, [&] {
        return device.try_expose(origin, region, arrived_context(origin, k),
                                 named[origin * per_pair + k]);
      });
      ASSERT_NE(answer, Post::retry);
      EXPECT_EQ(named[origin * per_pair + k].bytes, sizes[k]);
    }
  }
  std::vector<RemoteRegion> mine(ranks * per_pair);
  const int chunk = static_cast<int>(per_pair * sizeof(RemoteRegion));
  MPI_Alltoall(named.data(), chunk, MPI_BYTE, mine.data(), chunk, MPI_BYTE, MPI_COMM_WORLD);

  // Put into every target's regions; keep the sources alive until on_put_sent.
  std::vector<std::vector<std::byte>> sources(ranks * per_pair);
  std::size_t done_at_once = 0;
  for (rank_t target = 0; target < ranks; ++target) {
    for (std::size_t k = 0; k < per_pair; ++k) {
      std::vector<std::byte>& data = sources[target * per_pair + k];
      data.resize(sizes[k]);
      for (std::size_t i = 0; i < data.size(); ++i) data[i] = pattern(me, target * 10 + k, i);
      Post answer = post_with_retry(device, sink, [&] {
        return device.try_put(target, mine[target * per_pair + k], data, sent_context(target, k));
      });
      ASSERT_NE(answer, Post::retry);
      if (answer == Post::done) ++done_at_once;
    }
  }
  const std::size_t total = ranks * per_pair;
  ASSERT_TRUE(progress_until(device, sink, [&] {
    return sink.puts_sent.size() + done_at_once >= total && sink.puts_arrived.size() >= total;
  })) << "rank " << me << ": " << sink.puts_sent.size() << " sent, " << sink.puts_arrived.size()
      << " arrived of " << total;

  std::multiset<std::uint64_t> sent(sink.puts_sent.begin(), sink.puts_sent.end());
  std::multiset<std::uint64_t> arrived(sink.puts_arrived.begin(), sink.puts_arrived.end());
  EXPECT_EQ(sent.size() + done_at_once, total);
  EXPECT_EQ(arrived.size(), total);
  for (rank_t peer = 0; peer < ranks; ++peer) {
    for (std::size_t k = 0; k < per_pair; ++k) {
      if (done_at_once == 0) {
        EXPECT_EQ(sent.count(sent_context(peer, k)), 1u);
      }
      EXPECT_EQ(arrived.count(arrived_context(peer, k)), 1u) << "from " << peer << " size " << k;
      const std::vector<std::byte>& region = regions[peer * per_pair + k];
      ASSERT_EQ(region.size(), sizes[k]);
      for (std::size_t i = 0; i < region.size(); ++i) {
        ASSERT_EQ(region[i], pattern(peer, me * 10 + k, i))
            << "byte " << i << " of the " << sizes[k] << "-byte put from " << peer;
      }
    }
  }
  EXPECT_TRUE(sink.frames.empty());
  device.barrier();
}

// No rank leaves the barrier before every rank entered it. The last rank arrives late on purpose;
// steady_clock is the machine's monotonic clock, shared by processes on one machine.
inline void check_barrier(Device& device) {
  using namespace std::chrono;
  if (device.rank() == device.ranks() - 1) std::this_thread::sleep_for(milliseconds(100));
  std::int64_t times[2];
  times[0] = duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
  device.barrier();
  times[1] = duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
  std::vector<std::int64_t> all(2 * device.ranks());
  MPI_Allgather(times, 2, MPI_INT64_T, all.data(), 2, MPI_INT64_T, MPI_COMM_WORLD);
  std::int64_t last_entry = 0;
  std::int64_t first_exit = INT64_MAX;
  for (rank_t r = 0; r < device.ranks(); ++r) {
    last_entry = std::max(last_entry, all[2 * r]);
    first_exit = std::min(first_exit, all[2 * r + 1]);
  }
  EXPECT_LE(last_entry, first_exit);
}

}  // namespace courier::net::testing
