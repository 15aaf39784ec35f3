// Each completion mechanism (queue, synchronizer, handler) reports the right metadata: source,
// tag, size, data and the caller's context, for eager and rendezvous messages; tag matching;
// one-sided put and get.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "world.hpp"

namespace completion_test {

namespace comm = courier::comm;
using comm::testing::World;

namespace {

std::vector<std::byte> pattern(std::size_t size, int seed) {
  std::vector<std::byte> out(size);
  for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<std::byte>((i * 7 + static_cast<std::size_t>(seed)) & 0xff);
  return out;
}

bool equal(const comm::Completion& c, const std::vector<std::byte>& expected) {
  return c.size == expected.size() && (c.size == 0 || std::memcmp(c.data, expected.data(), c.size) == 0);
}

void send_all(comm::Runtime& rt, comm::Endpoint& ep, courier::rank_t dest, comm::tag_t tag,
              const std::vector<std::byte>& data, void* context = nullptr) {
  courier::Backoff backoff;
  while (ep.send(dest, tag, data, context) == comm::Post::retry) {
    rt.progress();
    backoff.pause();
  }
}

template <class Done>
void wait_until(comm::Runtime& rt, Done done) {
  courier::Backoff backoff;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!done()) {
    ASSERT_LT(std::chrono::steady_clock::now(), give_up) << "waited too long";
    rt.progress();
    backoff.pause();
  }
}

// Records what a handler saw.
struct Seen {
  std::mutex mutex;
  std::vector<comm::Completion> completions;
  std::vector<std::vector<std::byte>> bytes;
  std::size_t count() {
    std::lock_guard lock(mutex);
    return completions.size();
  }
};

// A caller-supplied synchronizer type: keeps every completion.
struct Recorder final : comm::Synchronizer {
  void signal(const comm::Completion& c) override {
    std::lock_guard lock(mutex);
    all.push_back(c);
  }
  std::size_t count() {
    std::lock_guard lock(mutex);
    return all.size();
  }
  std::mutex mutex;
  std::vector<comm::Completion> all;
};

}  // namespace

TEST(CommCompletion, QueueSynchronizerAndHandlerReportMetadata) {
  int queue_context = 1, sync_context = 2, handler_context = 3, send_context = 4;
  Recorder counter;            // rank 1's synchronizer endpoint: the caller's own type
  comm::Counter sender_sync;   // rank 0's synchronizer endpoint: origin completions
  Seen seen;
  std::atomic<int> origin_handled{0};
  comm::RuntimeOptions options;
  options.eager_bytes = 1024;
  options.initial_endpoint.context = &queue_context;
  World world(2, options);
  const auto small = pattern(100, 1), large = pattern(200000, 2);
  std::array<comm::Endpoint*, 2> sync_ep{}, handler_ep{};
  for (courier::rank_t r = 0; r < 2; ++r) {
    comm::EndpointOptions sync;
    sync.completion = comm::CompletionKind::synchronizer;
    sync.synchronizer = r == 1 ? static_cast<comm::Synchronizer*>(&counter) : &sender_sync;
    sync.context = &sync_context;
    sync_ep[r] = &world[r].create_endpoint(sync);
    comm::EndpointOptions handler;
    handler.completion = comm::CompletionKind::handler;
    handler.context = &handler_context;
    handler.handler = [&seen, &origin_handled](const comm::Completion& c) {
      if (c.op == comm::Op::send) {  // rank 0: its large send finished
        EXPECT_EQ(c.tag, 15u);
        origin_handled.fetch_add(1);
        return;
      }
      std::lock_guard lock(seen.mutex);
      seen.completions.push_back(c);
      seen.bytes.emplace_back(c.data, c.data + c.size);
      delete[] c.data;  // the default HeapAllocator's buffer is ours now
    };
    handler_ep[r] = &world[r].create_endpoint(handler);
  }
  EXPECT_EQ(sync_ep[0]->id(), 1);
  EXPECT_EQ(handler_ep[0]->id(), 2);

  world.run([&](comm::Runtime& rt) {
    if (rt.rank() == 0) {
      send_all(rt, rt.endpoint(), 1, 11, small);
      send_all(rt, *sync_ep[0], 1, 12, small);
      send_all(rt, *sync_ep[0], 1, 13, large, &send_context);
      send_all(rt, *handler_ep[0], 1, 14, small);
      send_all(rt, *handler_ep[0], 1, 15, large);
      // The large send's origin completion reaches rank 0's synchronizer with our context.
      wait_until(rt, [&] { return sender_sync.count() == 1; });
      const comm::Completion c = sender_sync.last();
      EXPECT_EQ(c.op, comm::Op::send);
      EXPECT_EQ(c.rank, 1);
      EXPECT_EQ(c.tag, 13u);
      EXPECT_EQ(c.size, large.size());
      EXPECT_EQ(c.data, large.data());
      EXPECT_EQ(c.context, &send_context);
      wait_until(rt, [&] { return origin_handled.load() == 1; });
      return;
    }
    comm::Completion c;
    wait_until(rt, [&] { return rt.endpoint().poll(c); });
    EXPECT_EQ(c.op, comm::Op::recv);
    EXPECT_EQ(c.rank, 0);
    EXPECT_EQ(c.tag, 11u);
    EXPECT_TRUE(equal(c, small));
    EXPECT_EQ(c.context, &queue_context);
    rt.endpoint().release(c);

    wait_until(rt, [&] { return counter.count() == 2; });
    {
      std::lock_guard lock(counter.mutex);
      EXPECT_EQ(counter.all[0].tag, 12u);
      EXPECT_TRUE(equal(counter.all[0], small));
      const comm::Completion last = counter.all[1];  // the large one: rendezvous completes later
      EXPECT_EQ(last.op, comm::Op::recv);
      EXPECT_EQ(last.rank, 0);
      EXPECT_EQ(last.tag, 13u);
      EXPECT_TRUE(equal(last, large));
      for (const auto& r : counter.all) {
        EXPECT_EQ(r.context, &sync_context);
        sync_ep[1]->release(r);
      }
    }

    wait_until(rt, [&] { return seen.count() == 2; });
    std::lock_guard lock(seen.mutex);
    EXPECT_EQ(seen.completions[0].tag, 14u);
    EXPECT_EQ(seen.bytes[0], small);
    EXPECT_EQ(seen.completions[1].tag, 15u);
    EXPECT_EQ(seen.bytes[1], large);
    for (const auto& h : seen.completions) {
      EXPECT_EQ(h.op, comm::Op::recv);
      EXPECT_EQ(h.rank, 0);
      EXPECT_EQ(h.context, &handler_context);
    }
  });
  const comm::Stats s0 = world[0].stats();
  EXPECT_EQ(s0.eager_sent, 3u);
  EXPECT_EQ(s0.rendezvous_sent, 2u);
  EXPECT_EQ(world[1].stats().messages_received, 5u);
}

TEST(CommCompletion, QueueDeliversInFirstPacketOrder) {
  comm::RuntimeOptions options;
  options.progress_thread = false;
  options.eager_bytes = 512;
  World world(2, options);
  const auto large = pattern(100000, 3), small = pattern(10, 4);
  // Both posts are queued before any progress, so RTS precedes EGR in the same frame.
  ASSERT_EQ(world[0].endpoint().send(1, 1, large), comm::Post::posted);
  ASSERT_EQ(world[0].endpoint().send(1, 2, small), comm::Post::done);
  std::vector<comm::tag_t> order;
  for (int round = 0; round < 10000 && order.size() < 2; ++round) {
    world[0].progress();
    world[1].progress();
    comm::Completion c;
    while (world[1].endpoint().poll(c)) {
      order.push_back(c.tag);
      world[1].endpoint().release(c);
    }
  }
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], 1u);  // the rendezvous message held back the eager one behind it
  EXPECT_EQ(order[1], 2u);
  world.run([](comm::Runtime& rt) {
    comm::Completion c;
    while (rt.endpoint().poll(c)) EXPECT_EQ(c.op, comm::Op::send);
  });
}

TEST(CommCompletion, RecvMatchesExactTagsOnly) {
  int claimed_context = 9;
  comm::Counter counter, sender_counter;
  comm::RuntimeOptions options;
  options.eager_bytes = 1024;
  World world(2, options);
  std::array<comm::Endpoint*, 2> matched{};
  for (courier::rank_t r = 0; r < 2; ++r) {
    comm::EndpointOptions o;
    o.match_tags = true;
    o.completion = comm::CompletionKind::synchronizer;
    o.synchronizer = r == 1 ? &counter : &sender_counter;
    matched[r] = &world[r].create_endpoint(o);
  }
  const auto a = pattern(10, 5), b = pattern(3000, 6), c7 = pattern(20, 7);
  std::atomic<bool> seven_posted{false};
  world.run([&](comm::Runtime& rt) {
    comm::Endpoint& ep = *matched[rt.rank()];
    if (rt.rank() == 0) {
      wait_until(rt, [&] { return seven_posted.load(); });
      send_all(rt, ep, 1, 5, a);
      send_all(rt, ep, 1, 6, b);  // rendezvous: its origin completion goes to sender_counter
      send_all(rt, ep, 1, 7, c7);
      wait_until(rt, [&] { return sender_counter.count() == 1; });
      EXPECT_EQ(sender_counter.last().op, comm::Op::send);
      return;
    }
    comm::Completion got;
    // Posted before rank 0 sends: completes through the synchronizer with our context.
    ASSERT_EQ(ep.recv(0, 7, &claimed_context, &got), comm::Post::posted);
    seven_posted.store(true);
    wait_until(rt, [&] { return counter.count() == 1; });
    comm::Completion seven = counter.last();
    EXPECT_EQ(seven.tag, 7u);
    EXPECT_EQ(seven.context, &claimed_context);
    EXPECT_TRUE(equal(seven, c7));
    ep.release(seven);
    // Tags 5 and 6 arrived unclaimed; wrong tags or sources claim nothing.
    wait_until(rt, [&] { return rt.stats().messages_received == 3; });
    comm::Completion none;
    EXPECT_EQ(ep.recv(0, 8, nullptr, &none), comm::Post::posted);
    EXPECT_EQ(ep.recv(1, 5, nullptr, &none), comm::Post::posted);
    ASSERT_EQ(ep.recv(0, 6, &claimed_context, &got), comm::Post::done);
    EXPECT_TRUE(equal(got, b));
    EXPECT_EQ(got.context, &claimed_context);
    ep.release(got);
    ASSERT_EQ(ep.recv(0, 5, nullptr, &got), comm::Post::done);
    EXPECT_TRUE(equal(got, a));
    EXPECT_EQ(got.rank, 0);
    ep.release(got);
    EXPECT_EQ(counter.count(), 1u);
  });
}

TEST(CommCompletion, OneSidedPutAndGet) {
  comm::RuntimeOptions options;
  options.eager_bytes = 1024;
  World world(2, options);
  std::vector<std::byte> window(300000, std::byte{0});
  const auto before = pattern(window.size(), 8);
  std::copy(before.begin(), before.end(), window.begin());
  world[1].expose_window(3, window);
  const auto small = pattern(100, 9), large = pattern(150000, 10);
  world.run([&](comm::Runtime& rt) {
    if (rt.rank() != 0) return;
    comm::Endpoint& ep = rt.endpoint();
    // Get first (the window is still `before`), then overwrite parts of it with puts.
    std::vector<std::byte> got(200000);
    int get_context = 0;
    courier::Backoff backoff;
    while (ep.get(1, 3, 50000, got, &get_context) == comm::Post::retry) backoff.pause();
    comm::Completion c;
    wait_until(rt, [&] { return ep.poll(c); });
    EXPECT_EQ(c.op, comm::Op::get);
    EXPECT_EQ(c.rank, 1);
    EXPECT_EQ(c.tag, 3u);
    EXPECT_EQ(c.size, got.size());
    EXPECT_EQ(c.data, got.data());
    EXPECT_EQ(c.context, &get_context);
    EXPECT_TRUE(std::equal(got.begin(), got.end(), before.begin() + 50000));

    while (ep.put(1, 3, 10, small) == comm::Post::retry) backoff.pause();
    comm::Post answer;
    while ((answer = ep.put(1, 3, 1000, large)) == comm::Post::retry) backoff.pause();
    EXPECT_EQ(answer, comm::Post::posted);
    wait_until(rt, [&] { return ep.poll(c); });
    EXPECT_EQ(c.op, comm::Op::put);
    EXPECT_EQ(c.size, large.size());
    // Read the window back with a get: both puts landed, the rest is untouched.
    std::vector<std::byte> all(window.size());
    while (ep.get(1, 3, 0, all) == comm::Post::retry) backoff.pause();
    wait_until(rt, [&] { return ep.poll(c); });
    EXPECT_EQ(c.op, comm::Op::get);
    auto expected = before;
    std::copy(small.begin(), small.end(), expected.begin() + 10);
    std::copy(large.begin(), large.end(), expected.begin() + 1000);
    EXPECT_EQ(all, expected);
    // Outside the window: the target's progress reports the error... on the target; here we only
    // check the origin validates ranks.
    EXPECT_THROW(ep.put(2, 3, 0, small), courier::Error);
  });
  EXPECT_EQ(world[0].stats().puts, 2u);
  EXPECT_EQ(world[0].stats().gets, 2u);
}

namespace {

// Counts what the runtime allocated for received messages and what the caller gave back.
struct CountingAllocator final : comm::Allocator {
  std::byte* allocate(std::size_t bytes) override {
    allocated.fetch_add(1);
    return new std::byte[bytes == 0 ? 1 : bytes];
  }
  void deallocate(std::byte* data, std::size_t) override {
    freed.fetch_add(1);
    delete[] data;
  }
  std::atomic<int> allocated{0}, freed{0};
};

}  // namespace

TEST(CommCompletion, CallerAllocatorAndEndpointsCreatedLate) {
  comm::RuntimeOptions options;
  options.progress_thread = false;
  options.eager_bytes = 256;
  World world(2, options);
  CountingAllocator allocator;
  // Rank 0 creates endpoint 1 and sends to it before rank 1 has created its endpoint 1.
  comm::Endpoint& sender = world[0].create_endpoint({});
  const auto small = pattern(40, 11), large = pattern(5000, 12);
  ASSERT_EQ(sender.send(1, 21, small), comm::Post::done);
  ASSERT_EQ(sender.send(1, 22, large), comm::Post::posted);
  for (int i = 0; i < 20; ++i) {
    world[0].progress();
    world[1].progress();
  }
  EXPECT_EQ(allocator.allocated.load(), 0);
  comm::EndpointOptions late;
  late.allocator = &allocator;
  comm::Endpoint& receiver = world[1].create_endpoint(late);
  std::vector<comm::Completion> got;
  for (int i = 0; i < 1000 && got.size() < 2; ++i) {
    world[0].progress();
    world[1].progress();
    comm::Completion c;
    while (receiver.poll(c)) got.push_back(c);
  }
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].tag, 21u);
  EXPECT_TRUE(equal(got[0], small));
  EXPECT_EQ(got[1].tag, 22u);
  EXPECT_TRUE(equal(got[1], large));
  EXPECT_EQ(&receiver.allocator(), &allocator);
  EXPECT_EQ(allocator.allocated.load(), 2);
  for (const auto& c : got) receiver.release(c);
  EXPECT_EQ(allocator.freed.load(), 2);
  world.run([&](comm::Runtime& rt) {
    if (rt.rank() != 0) return;
    comm::Completion c;
    wait_until(rt, [&] { return sender.poll(c); });  // the large send's origin completion
    EXPECT_EQ(c.op, comm::Op::send);
  });
}

// A message held for an endpoint not created yet must not stop the rank reading the transport:
// here rank 1 creates endpoint 1 only after a message on endpoint 0 arrives (a later phase of a
// program starting before the earlier one ended everywhere). Stalling the transport deadlocks.
TEST(CommCompletion, AMessageForALateEndpointDoesNotHoldUpTheOthers) {
  comm::RuntimeOptions options;
  options.progress_thread = false;
  World world(2, options);
  comm::Endpoint& early = world[0].create_endpoint({});
  const auto first = pattern(24, 1), second = pattern(32, 2);
  ASSERT_EQ(early.send(1, 1, first), comm::Post::done);
  for (int i = 0; i < 20; ++i) {  // it reaches rank 1, which has no endpoint 1 yet, and is held
    world[0].progress();
    world[1].progress();
  }
  ASSERT_EQ(world[0].endpoint().send(1, 2, second), comm::Post::done);
  comm::Completion c;
  bool arrived = false;
  for (int i = 0; i < 1000 && !arrived; ++i) {
    world[0].progress();
    world[1].progress();
    arrived = world[1].endpoint().poll(c);
  }
  ASSERT_TRUE(arrived) << "the held message stopped rank 1 from reading the transport";
  EXPECT_EQ(c.tag, 2u);
  EXPECT_TRUE(equal(c, second));
  world[1].endpoint().release(c);
  comm::Endpoint& late = world[1].create_endpoint({});
  arrived = false;
  for (int i = 0; i < 1000 && !arrived; ++i) {
    world[1].progress();
    arrived = late.poll(c);
  }
  ASSERT_TRUE(arrived);
  EXPECT_EQ(c.tag, 1u);
  EXPECT_TRUE(equal(c, first));
  late.release(c);
  world.run([](comm::Runtime&) {});
}

TEST(CommCompletion, HandlerRepliesFromInsideProgressActiveMessageStyle) {
  // Rank 1's handler answers every request with a reply carrying tag + 1000; rank 0 counts replies.
  World world(2);
  std::atomic<int> replies{0}, failed_replies{0};
  std::array<comm::Endpoint*, 2> am{};
  for (courier::rank_t r = 0; r < 2; ++r) {
    comm::EndpointOptions o;
    o.completion = comm::CompletionKind::handler;
    o.handler = [&, r](const comm::Completion& c) {
      if (c.op != comm::Op::recv) return;
      if (r == 1) {
        const std::vector<std::byte> answer(c.data, c.data + c.size);
        // Inside progress a handler must not wait; a full queue would count as a failed reply.
        if (am[1]->send(0, c.tag + 1000, answer) == comm::Post::retry) failed_replies.fetch_add(1);
      } else {
        EXPECT_GE(c.tag, 1000u);
        replies.fetch_add(1);
      }
      delete[] c.data;
    };
    am[r] = &world[r].create_endpoint(o);
  }
  std::atomic<bool> done{false};
  world.run([&](comm::Runtime& rt) {
    if (rt.rank() != 0) {
      // Posts end at shutdown, so rank 1 (whose handler replies) stays up until rank 0 is done.
      wait_until(rt, [&] { return done.load(); });
      return;
    }
    const auto request = pattern(16, 13);
    for (comm::tag_t t = 0; t < 50; ++t) send_all(rt, *am[0], 1, t, request);
    wait_until(rt, [&] { return replies.load() + failed_replies.load() == 50; });
    done.store(true);
  });
  EXPECT_EQ(failed_replies.load(), 0);
  EXPECT_EQ(replies.load(), 50);
}

}  // namespace completion_test
