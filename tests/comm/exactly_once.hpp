#pragma once
// Exactly once and intact, the check every transport must pass: every rank's threads send
// messages of random sizes (0 B .. 1 MiB, across the eager limit) to random ranks; every message
// must arrive exactly once and unaltered, and the counts must match.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <thread>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/core/backoff.hpp"

namespace courier::comm::testing {


inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

struct Plan {
  rank_t ranks;
  int threads;
  int messages;  // per thread

  // Message i of (rank, thread): its destination and size, decided by a hash so that every rank
  // can count what it will receive.
  rank_t dest(rank_t r, int t, int i) const {
    return static_cast<rank_t>(mix(key(r, t, i)) % static_cast<std::uint64_t>(ranks));
  }
  std::size_t size(rank_t r, int t, int i) const {
    const std::uint64_t h = mix(key(r, t, i) ^ 0xabcdef);
    const std::uint64_t bucket = h % 100;
    if (bucket < 70) return h / 100 % 257;                 // tiny, including 0
    if (bucket < 92) return h / 100 % (32 * 1024);          // around the eager limit
    return h / 100 % (1024 * 1024 + 1);                      // up to 1 MiB
  }
  static std::uint64_t key(rank_t r, int t, int i) {
    return (static_cast<std::uint64_t>(r) << 40) | (static_cast<std::uint64_t>(t) << 32) | static_cast<std::uint64_t>(i);
  }
  int expected(rank_t me, int thread) const {
    int n = 0;
    for (rank_t r = 0; r < ranks; ++r) {
      for (int i = 0; i < messages; ++i) n += dest(r, thread, i) == me;
    }
    return n;
  }
};

inline std::byte content(std::uint64_t tag, std::size_t i) { return static_cast<std::byte>(mix(tag * 31 + i / 64) >> (i % 64 / 8 * 8)); }

inline std::vector<std::byte> make_message(std::uint64_t tag, std::size_t size) {
  std::vector<std::byte> out(size);
  for (std::size_t i = 0; i < size; ++i) out[i] = content(tag, i);
  return out;
}

inline bool intact(const comm::Completion& c) {
  for (std::size_t i = 0; i < c.size; ++i) {
    if (c.data[i] != content(c.tag, i)) return false;
  }
  return true;
}

// One thread of one rank: send its planned messages on endpoint `ep`, receive the messages the
// plan sends to this endpoint, check each.
inline void run_thread(comm::Runtime& rt, comm::Endpoint& ep, const Plan& plan, int thread, bool explicit_progress) {
  const rank_t me = rt.rank();
  const int expected = plan.expected(me, thread);
  std::map<void*, std::vector<std::byte>> in_flight;  // rendezvous sources, until Op::send
  std::set<std::pair<rank_t, comm::tag_t>> seen;
  int sent = 0, received = 0;
  std::vector<std::byte> next;
  bool built = false;
  courier::Backoff backoff;
  while (sent < plan.messages || received < expected || !in_flight.empty()) {
    bool worked = false;
    if (sent < plan.messages) {
      const comm::tag_t tag = Plan::key(me, thread, sent);
      if (!built) {
        next = make_message(tag, plan.size(me, thread, sent));
        built = true;
      }
      void* context = reinterpret_cast<void*>(static_cast<std::uintptr_t>(tag + 1));
      const comm::Post answer = ep.send(plan.dest(me, thread, sent), tag, next, context);
      if (answer != comm::Post::retry) {
        if (answer == comm::Post::posted) in_flight.emplace(context, std::move(next));
        ++sent;
        built = false;
        worked = true;
      }
    }
    comm::Completion c;
    while (ep.poll(c)) {
      worked = true;
      if (c.op == comm::Op::send) {
        auto it = in_flight.find(c.context);
        ASSERT_NE(it, in_flight.end()) << "completion for a send not in flight";
        ASSERT_EQ(c.size, it->second.size());
        ASSERT_EQ(c.data, it->second.data());
        in_flight.erase(it);
        continue;
      }
      ASSERT_EQ(c.op, comm::Op::recv);
      const rank_t from = static_cast<rank_t>(c.tag >> 40);
      const int from_thread = static_cast<int>((c.tag >> 32) & 0xff);
      const int index = static_cast<int>(c.tag & 0xffffffff);
      ASSERT_EQ(from, c.rank);
      ASSERT_EQ(from_thread, thread);
      ASSERT_EQ(c.size, plan.size(from, from_thread, index));
      ASSERT_TRUE(intact(c)) << "message " << c.tag << " altered";
      ASSERT_TRUE(seen.emplace(c.rank, c.tag).second) << "message " << c.tag << " arrived twice";
      ep.release(c);
      ++received;
    }
    if (explicit_progress) worked = rt.progress() || worked;
    if (worked) {
      backoff.reset();
    } else {
      backoff.pause();
    }
  }
  EXPECT_EQ(received, expected);
}

// Every thread of this rank sends its planned messages and checks what arrives for it.
inline void exchange_exactly_once(Runtime& rt, const Plan& plan, bool explicit_progress) {
  std::vector<Endpoint*> endpoints{&rt.endpoint()};
  for (int t = 1; t < plan.threads; ++t) endpoints.push_back(&rt.create_endpoint({}));
  std::vector<std::thread> workers;
  for (int t = 0; t < plan.threads; ++t)
    workers.emplace_back([&, t] { run_thread(rt, *endpoints[t], plan, t, explicit_progress); });
  for (auto& w : workers) w.join();
}

}  // namespace courier::comm::testing
