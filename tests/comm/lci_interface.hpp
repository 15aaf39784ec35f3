#pragma once
// The rest of LCI's interface (paper 002, issue 19), checked by every rank of a world at once, on
// the local transport (ranks as threads) and under mpirun: receives into the caller's buffers,
// endpoints addressed across ranks, and the synchronizer's compile-time form. Each function is
// collective: every rank of the world calls it with its runtime (progress thread on or off).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/core/backoff.hpp"

namespace courier::comm::testing {

inline std::byte pattern_byte(std::uint64_t seed, std::size_t i) {
  return static_cast<std::byte>((i * 131 + seed * 7 + (i >> 8)) & 0xff);
}
inline std::vector<std::byte> pattern_bytes(std::uint64_t seed, std::size_t size) {
  std::vector<std::byte> out(size);
  for (std::size_t i = 0; i < size; ++i) out[i] = pattern_byte(seed, i);
  return out;
}
inline bool holds_pattern(const std::byte* data, std::uint64_t seed, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] != pattern_byte(seed, i)) return false;
  }
  return true;
}

// Progresses (harmless with the server) until done() or 30 s, which fails the test.
template <class Done>
bool progress_until(Runtime& rt, Done&& done) {
  Backoff backoff;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!done()) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    if (!rt.progress()) backoff.pause();
  }
  return true;
}

inline void send_until_taken(Runtime& rt, Endpoint& ep, Address to, tag_t tag, std::span<const std::byte> data,
                             void* context = nullptr) {
  Backoff backoff;
  while (ep.send(to, tag, data, context) == Post::retry) {
    if (!rt.progress()) backoff.pause();
  }
}

// Counts what the runtime allocated for received messages and what was given back.
struct CountingAllocator final : Allocator {
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

// Meetings of every rank with every other on `ep` (a queue endpoint without tag matching, that
// carries nothing else): a message with the meeting's tag to each, then one from each. A peer
// may already be at the next meeting: its message is counted for that one.
class Meetings {
 public:
  Meetings(Runtime& rt, Endpoint& ep) : rt_(rt), ep_(ep) {}
  void meet(tag_t tag) {
    const std::byte one{1};
    for (rank_t p = 0; p < rt_.ranks(); ++p) {
      if (p != rt_.rank()) send_until_taken(rt_, ep_, {p, ep_.id()}, tag, std::span(&one, 1));
    }
    ASSERT_TRUE(progress_until(rt_,
                               [&] {
                                 Completion c;
                                 while (ep_.poll(c)) {
                                   ++heard_[c.tag];
                                   ep_.release(c);
                                 }
                                 return heard_[tag] == rt_.ranks() - 1;
                               }))
        << "meeting " << tag;
  }

 private:
  Runtime& rt_;
  Endpoint& ep_;
  std::map<tag_t, int> heard_;
};

// Receives into caller buffers. The four messages every rank sends every other, by size: small
// (eager), large (rendezvous), and each of them to a buffer too small (truncated). Phase 1 posts
// every recv before any peer sends (a barrier between): nothing may be allocated, every message
// goes straight into its buffer. Phase 2 sends first and receives afterwards: recv answers done
// with a copy, or posted when the message is still on its way; nothing allocated stays alive.
// Bytes past a buffer's end must stay untouched.
inline void explicit_receives(Runtime& rt) {
  const rank_t me = rt.rank(), ranks = rt.ranks();
  const std::size_t eager = rt.eager_limit();
  struct Kind {
    std::size_t message, buffer;
  };
  const Kind kinds[4] = {
      {eager / 2, eager}, {4 * eager + 3, 4 * eager + 3}, {eager / 2, eager / 4}, {3 * eager, eager + 5}};
  constexpr std::size_t guard = 16;
  constexpr std::byte untouched{0xee};
  CountingAllocator allocator;
  EndpointOptions options;
  options.match_tags = true;
  options.allocator = &allocator;
  Endpoint& ep = rt.create_endpoint(options);
  Meetings meetings(rt, rt.endpoint());

  auto seed = [](rank_t from, rank_t to, int phase, int kind) {
    return static_cast<std::uint64_t>(from * 1000 + to * 10 + phase * 4 + kind);
  };
  for (int phase = 1; phase <= 2; ++phase) {
    // buffers[peer][kind], each followed by `guard` bytes that must stay untouched.
    std::map<std::pair<rank_t, int>, std::vector<std::byte>> buffers;
    std::map<std::pair<rank_t, int>, std::vector<std::byte>> sources;
    int expected_recvs = 0, expected_sends = 0;
    for (rank_t p = 0; p < ranks; ++p) {
      if (p == me) continue;
      for (int k = 0; k < 4; ++k) {
        buffers[{p, k}].assign(kinds[k].buffer + guard, untouched);
        sources[{p, k}] = pattern_bytes(seed(me, p, phase, k), kinds[k].message);
        ++expected_recvs;
        expected_sends += kinds[k].message > eager;
      }
    }
    auto buffer_of = [&](rank_t p, int k) { return std::span(buffers[{p, k}]).first(kinds[k].buffer); };
    auto context_of = [&](rank_t p, int k) { return static_cast<void*>(&buffers[{p, k}]); };
    auto tag_of = [&](int k) { return static_cast<tag_t>(phase * 10 + k); };
    int recvs = 0, sends = 0;
    auto check = [&](const Completion& c) {
      if (c.op == Op::send) {
        EXPECT_EQ(c.endpoint, ep.id());
        ++sends;
        return;
      }
      ASSERT_EQ(c.op, Op::recv);
      const int k = static_cast<int>(c.tag % 10);
      ASSERT_LT(k, 4);
      EXPECT_EQ(c.context, context_of(c.rank, k)) << "phase " << phase << " kind " << k;
      EXPECT_TRUE(c.caller_buffer);
      EXPECT_EQ(c.data, buffer_of(c.rank, k).data());
      EXPECT_EQ(c.endpoint, ep.id());
      const bool truncated = kinds[k].message > kinds[k].buffer;
      EXPECT_EQ(c.truncated, truncated) << "phase " << phase << " kind " << k;
      EXPECT_EQ(c.size, std::min(kinds[k].message, kinds[k].buffer));
      EXPECT_TRUE(holds_pattern(c.data, seed(c.rank, me, phase, k), c.size)) << "phase " << phase << " kind " << k;
      const auto& whole = buffers[{c.rank, k}];
      for (std::size_t i = c.size; i < whole.size(); ++i) {
        ASSERT_EQ(whole[i], untouched) << "byte " << i << " past the message, phase " << phase << " kind " << k;
      }
      ep.release(c);  // must leave the caller's buffer alone
      ++recvs;
    };
    auto post_all = [&] {
      for (rank_t p = 0; p < ranks; ++p) {
        if (p == me) continue;
        for (int k = 0; k < 4; ++k) {
          Completion c;
          const Post answer = ep.recv(p, tag_of(k), buffer_of(p, k), context_of(p, k), &c);
          if (phase == 1) {
            EXPECT_EQ(answer, Post::posted) << "nothing was sent yet";
          }
          if (answer == Post::done) check(c);
        }
      }
    };
    auto send_all = [&] {
      for (rank_t p = 0; p < ranks; ++p) {
        if (p == me) continue;
        for (int k = 0; k < 4; ++k) send_until_taken(rt, ep, {p, ep.id()}, tag_of(k), sources[{p, k}]);
      }
    };
    if (phase == 1) {
      post_all();
      meetings.meet(100);  // every recv is posted everywhere
      send_all();
    } else {
      send_all();
      meetings.meet(200);  // sent (though not necessarily arrived) everywhere
      post_all();
    }
    ASSERT_TRUE(progress_until(rt,
                               [&] {
                                 Completion c;
                                 while (ep.poll(c)) check(c);
                                 return recvs == expected_recvs && sends == expected_sends;
                               }))
        << "phase " << phase << ": " << recvs << " of " << expected_recvs << " recvs, " << sends << " of "
        << expected_sends << " sends";
    if (phase == 1) {
      EXPECT_EQ(allocator.allocated.load(), 0) << "a recv posted first must take its message without allocating";
    }
    EXPECT_EQ(allocator.allocated.load(), allocator.freed.load());
    meetings.meet(300 + static_cast<tag_t>(phase));  // every rank is done with the buffers
  }
}

// Endpoints addressed across ranks: rank r creates r + 2 endpoints (after the initial one, which
// carries only the meetings), so the ranks have different numbers of them and a message reaches a
// peer's endpoint only by its address. Every endpoint of every rank sends to every endpoint of
// every other rank (eager and rendezvous); each endpoint must receive exactly one message of each
// size from every (rank, endpoint) of the others, told apart by Completion::endpoint, and each
// large send's completion must name the endpoint it went to.
inline void cross_endpoints(Runtime& rt) {
  const rank_t me = rt.rank(), ranks = rt.ranks();
  const std::size_t large = rt.eager_limit() * 2 + 1;
  auto count_of = [](rank_t r) { return static_cast<int>(r) + 2; };  // data endpoints of rank r
  Meetings meetings(rt, rt.endpoint());
  std::vector<Endpoint*> eps;
  for (int e = 0; e < count_of(me); ++e) eps.push_back(&rt.create_endpoint({}));
  const int base = eps[0]->id();  // the same on every rank: all created the same ones before
  meetings.meet(400);             // every rank has its endpoints
  auto tag_of = [](rank_t from, int from_ep, int to_ep, int size_kind) {
    return static_cast<tag_t>(((from * 64 + from_ep) * 64 + to_ep) * 2 + size_kind);
  };
  std::vector<std::vector<std::byte>> sources;  // alive until their sends complete
  sources.reserve(static_cast<std::size_t>(ranks) * 64);
  std::map<std::tuple<int, rank_t, int>, int> sends_done;  // (my ep, peer, its ep)
  int expected_sends = 0;
  for (rank_t p = 0; p < ranks; ++p) {
    if (p == me) continue;
    for (int f = 0; f < count_of(p); ++f) {
      for (int e = 0; e < count_of(me); ++e) {
        for (int kind = 0; kind < 2; ++kind) {
          const tag_t tag = tag_of(me, e, f, kind);
          sources.push_back(pattern_bytes(tag, kind == 0 ? 24 : large));
          const Address to{p, static_cast<endpoint_id>(base + f)};
          send_until_taken(rt, *eps[static_cast<std::size_t>(e)], to, tag, sources.back());
          expected_sends += kind;
        }
      }
    }
  }
  std::map<std::tuple<int, rank_t, int, int>, int> heard;  // (my ep, from rank, from ep, kind)
  int expected_recvs = 0;
  for (rank_t p = 0; p < ranks; ++p) expected_recvs += p == me ? 0 : 2 * count_of(p) * count_of(me);
  int recvs = 0, sends = 0;
  ASSERT_TRUE(progress_until(rt,
                             [&] {
                               for (int e = 0; e < count_of(me); ++e) {
                                 Endpoint& ep = *eps[static_cast<std::size_t>(e)];
                                 Completion c;
                                 while (ep.poll(c)) {
                                   const int peer_ep = static_cast<int>(c.endpoint) - base;
                                   if (c.op == Op::send) {
                                     ++sends_done[{e, c.rank, peer_ep}];
                                     ++sends;
                                     continue;
                                   }
                                   const int kind = static_cast<int>(c.tag % 2);
                                   EXPECT_EQ(c.tag, tag_of(c.rank, peer_ep, e, kind))
                                       << "from rank " << c.rank << " endpoint " << c.endpoint;
                                   EXPECT_EQ(c.size, kind == 0 ? 24 : large);
                                   EXPECT_TRUE(holds_pattern(c.data, c.tag, c.size));
                                   ++heard[{e, c.rank, peer_ep, kind}];
                                   ep.release(c);
                                   ++recvs;
                                 }
                               }
                               return recvs == expected_recvs && sends == expected_sends;
                             }))
      << recvs << " of " << expected_recvs << " recvs, " << sends << " of " << expected_sends << " sends";
  EXPECT_EQ(heard.size(), static_cast<std::size_t>(expected_recvs));
  for (const auto& [key, n] : heard) EXPECT_EQ(n, 1);
  // Each of my endpoints completed one large send to each endpoint of each peer.
  EXPECT_EQ(sends_done.size(), static_cast<std::size_t>(expected_sends));
  for (const auto& [key, n] : sends_done) EXPECT_EQ(n, 1);
  meetings.meet(401);
}

// A synchronizer of a plain type (no base class, no virtual function): the compile-time form.
// It takes the received bytes, which came from the default allocator (operator new[]).
struct Tally {
  void signal(const Completion& c) {
    if (c.op == Op::recv) {
      bytes.fetch_add(c.size, std::memory_order_relaxed);
      delete[] c.data;
    }
    count.fetch_add(1, std::memory_order_release);
  }
  std::atomic<std::uint64_t> count{0}, bytes{0};
};

// The same as a Synchronizer, passed as the abstract class: the runtime form.
struct VirtualTally final : Synchronizer {
  void signal(const Completion& c) override { tally.signal(c); }
  Tally tally;
};

// Each rank sends `messages` messages to every other on a compile-time-form endpoint and as many
// on a runtime-form one; every synchronizer must count exactly what arrived for it.
inline void both_synchronizer_forms(Runtime& rt, int messages) {
  Tally compile_time;
  VirtualTally runtime_form;
  EndpointOptions typed, dynamic;
  typed.completion = dynamic.completion = CompletionKind::synchronizer;
  typed.synchronizer = &compile_time;
  dynamic.synchronizer = static_cast<Synchronizer*>(&runtime_form);
  EXPECT_TRUE(typed.synchronizer.compile_time());
  EXPECT_FALSE(dynamic.synchronizer.compile_time());
  Meetings meetings(rt, rt.endpoint());
  Endpoint& a = rt.create_endpoint(typed);
  Endpoint& b = rt.create_endpoint(dynamic);
  meetings.meet(500);
  const auto payload = pattern_bytes(7, 40);
  for (rank_t p = 0; p < rt.ranks(); ++p) {
    if (p == rt.rank()) continue;
    for (int i = 0; i < messages; ++i) {
      send_until_taken(rt, a, {p, a.id()}, 1, payload);
      send_until_taken(rt, b, {p, b.id()}, 2, std::span(payload).first(20));
    }
  }
  const auto expected = static_cast<std::uint64_t>(messages) * static_cast<std::uint64_t>(rt.ranks() - 1);
  ASSERT_TRUE(progress_until(
      rt, [&] { return compile_time.count.load() == expected && runtime_form.tally.count.load() == expected; }))
      << compile_time.count.load() << " and " << runtime_form.tally.count.load() << " of " << expected;
  EXPECT_EQ(compile_time.bytes.load(), expected * 40);
  EXPECT_EQ(runtime_form.tally.bytes.load(), expected * 20);
  meetings.meet(501);
}

}  // namespace courier::comm::testing
