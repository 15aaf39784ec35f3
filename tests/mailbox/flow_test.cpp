// Back pressure (src/mailbox/flow.hpp): ranks that fall behind ask the ranks that feed them to
// pause, under every routing scheme, and every message still arrives exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "courier/comm/local_world.hpp"
#include "courier/mailbox/mailbox.hpp"

namespace flow_test {

namespace comm = courier::comm;
namespace mb = courier::mailbox;

namespace {

struct Note {
  std::uint32_t origin;
  std::uint32_t seq;
};

// Busy for about `micros` microseconds: a callback with real work in it.
void work(int micros) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(micros);
  while (std::chrono::steady_clock::now() < until) {
  }
}

struct Outcome {
  std::vector<mb::Stats> stats;
  std::vector<std::uint64_t> got, seq_sum;  // [receiver]: notes from rank 0 or 3 for it
};

// 2 simulated nodes of 2 ranks under `routing`: ranks 0 and 3 send `per_rank` notes each to the
// other node's ranks (through ranks 1 and 2 under nl and nlnr), whose callbacks take time.
Outcome feed_slow_node(mb::Routing routing, std::uint32_t per_rank, std::size_t capacity, std::size_t pause) {
  Outcome out{std::vector<mb::Stats>(4), std::vector<std::uint64_t>(4, 0), std::vector<std::uint64_t>(4, 0)};
  comm::run_local(4, [&](comm::Runtime& rt) {
    const auto me = static_cast<std::size_t>(rt.rank());
    mb::Config config;
    config.capacity_bytes = capacity;
    config.routing = routing;
    config.layout = mb::Layout{2, 2};
    config.pause_backlog_bytes = pause;
    mb::Mailbox<Note> box(
        rt,
        [&, me](mb::Mailbox<Note>&, const Note& n) {
          ++out.got[me];
          out.seq_sum[me] += n.seq;
          if (me == 1 || me == 2) work(2);
        },
        config);
    if (me == 0 || me == 3) {
      const std::uint32_t other[2] = {me == 0 ? 2u : 0u, me == 0 ? 3u : 1u};
      for (std::uint32_t i = 0; i < per_rank; ++i)
        box.async_send(static_cast<int>(other[i % 2]), Note{static_cast<std::uint32_t>(me), i});
    }
    box.wait_empty();
    out.stats[me] = box.local_stats();
  });
  return out;
}

class MailboxFlow : public ::testing::TestWithParam<mb::Routing> {};

TEST_P(MailboxFlow, SlowIntermediariesMakeSendersPause) {
  constexpr std::uint32_t per_rank = 60'000;
  constexpr std::size_t capacity = 2048, pause = 16 * 1024;
  const Outcome o = feed_slow_node(GetParam(), per_rank, capacity, pause);
  // Exactly once: each receiver gets half of each sender's notes (even i from one, odd from the other).
  const std::uint64_t half = per_rank / 2;
  const std::uint64_t evens = half * (half - 1), odds = half * half;  // sums of even and odd i
  EXPECT_EQ(o.got[0], half);
  EXPECT_EQ(o.seq_sum[0], evens);  // from 3
  EXPECT_EQ(o.got[1], half);
  EXPECT_EQ(o.seq_sum[1], odds);
  EXPECT_EQ(o.got[2], half);
  EXPECT_EQ(o.seq_sum[2], evens);  // from 0
  EXPECT_EQ(o.got[3], half);
  EXPECT_EQ(o.seq_sum[3], odds);
  // The slow ranks' backlog passed the pause mark, so they asked for pauses: the run above went
  // through pauses and resumes and still delivered everything once. (That the backlog stays
  // bounded under a sustained overload is shown by bench/soak_layers --max-backlog, a CTest of
  // the Release build: a short burst here can outrun any pause on a loaded machine.)
  EXPECT_GT(o.stats[1].pauses + o.stats[2].pauses, 0u);
}

INSTANTIATE_TEST_SUITE_P(Routing, MailboxFlow,
                         ::testing::Values(mb::Routing::no_route, mb::Routing::node_local, mb::Routing::node_remote,
                                           mb::Routing::nlnr),
                         [](const auto& info) {
                           std::string name = mb::to_string(info.param);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace

}  // namespace flow_test
