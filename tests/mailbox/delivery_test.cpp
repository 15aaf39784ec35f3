// Exactly-once delivery through every routing scheme and simulated layout on the local transport:
// point-to-point messages, broadcasts and messages sent from callbacks, all handled before
// wait_empty returns; tiny capacities; a rank that only receives; repeated epochs.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "courier/comm/local_world.hpp"
#include "courier/mailbox/mailbox.hpp"

namespace delivery_test {

namespace comm = courier::comm;
namespace mb = courier::mailbox;

namespace {

struct Probe {
  std::uint32_t origin;
  std::uint32_t seq;
  std::uint32_t ttl;  // further hops the receiver sends it on, from its callback
};

struct Scenario {
  int ranks;
  std::optional<mb::Layout> layout;
  mb::Routing routing;
  std::size_t capacity;
};

std::string name(const Scenario& s) {
  return std::to_string(s.ranks) + " ranks" + (s.layout ? " as " + to_string(*s.layout) : std::string()) + ", " +
         mb::to_string(s.routing) + ", capacity " + std::to_string(s.capacity);
}

// Every rank sends `per_dest` probes to every rank (each relayed `ttl` more times from callbacks)
// and broadcasts `bcasts` probes; checks each (origin, seq) arrives exactly once where it should.
// Returns the rendezvous messages the runtimes sent, summed over ranks; the largest peak of
// buffered bytes on any rank in *peak.
std::uint64_t run_exchange(const Scenario& s, int per_dest, int bcasts, std::uint32_t ttl, int epochs = 1,
                           comm::RuntimeOptions options = {}, courier::net::LocalOptions local = {},
                           std::uint64_t* peak = nullptr) {
  const auto P = static_cast<std::size_t>(s.ranks);
  // got[receiver][origin]: point probes arriving at their last hop, and broadcast copies.
  std::vector<std::vector<std::uint64_t>> got(P, std::vector<std::uint64_t>(P, 0));
  std::vector<std::vector<std::uint64_t>> seq_sum(P, std::vector<std::uint64_t>(P, 0));
  std::vector<std::vector<std::uint64_t>> bcast_got(P, std::vector<std::uint64_t>(P, 0));
  std::vector<mb::Stats> stats(P);
  std::vector<std::uint64_t> rendezvous(P, 0);
  comm::run_local(
      s.ranks,
      [&](comm::Runtime& rt) {
        const auto me = static_cast<std::size_t>(rt.rank());
        mb::Config config;
        config.capacity_bytes = s.capacity;
        config.routing = s.routing;
        config.layout = s.layout;
        mb::Mailbox<Probe> box(
            rt,
            [&](mb::Mailbox<Probe>& self, const Probe& p) {
              if (p.ttl == 0) {
                ++got[me][p.origin];
                seq_sum[me][p.origin] += p.seq;
              } else if (p.ttl == UINT32_MAX) {
                ++bcast_got[me][p.origin];
              } else {
                self.async_send(static_cast<int>((me + p.origin + 1) % P), Probe{p.origin, p.seq, p.ttl - 1});
              }
            },
            config);
        for (int epoch = 0; epoch < epochs; ++epoch) {
          std::uint32_t seq = 0;
          for (int i = 0; i < per_dest; ++i) {
            for (std::size_t d = 0; d < P; ++d) {
              box.async_send(static_cast<int>((d + me) % P), Probe{static_cast<std::uint32_t>(me), seq++, ttl});
            }
          }
          for (int b = 0; b < bcasts; ++b) box.async_bcast(Probe{static_cast<std::uint32_t>(me), 0, UINT32_MAX});
          box.wait_empty();
          // After wait_empty every broadcast of this epoch has been handled everywhere; a rank
          // that left wait_empty earlier may already have sent some of the next epoch's.
          const auto done = static_cast<std::uint64_t>(bcasts) * static_cast<std::uint64_t>(epoch + 1);
          for (std::size_t o = 0; o < P; ++o) {
            EXPECT_GE(bcast_got[me][o], done) << name(s) << ": rank " << me << " heard origin " << o;
            EXPECT_LE(bcast_got[me][o], done + static_cast<std::uint64_t>(bcasts)) << name(s) << ": rank " << me;
          }
        }
        stats[me] = box.local_stats();
        rendezvous[me] = rt.stats().rendezvous_sent;
      },
      options, local);
  const std::uint64_t per_origin = static_cast<std::uint64_t>(per_dest) * P * static_cast<std::uint64_t>(epochs);
  const std::uint64_t n = static_cast<std::uint64_t>(per_dest) * P;
  std::vector<std::uint64_t> arrived(P, 0), seqs(P, 0);
  for (std::size_t r = 0; r < P; ++r) {
    for (std::size_t o = 0; o < P; ++o) {
      arrived[o] += got[r][o];
      seqs[o] += seq_sum[r][o];
    }
  }
  mb::Stats total;
  for (const auto& st : stats) total += st;
  for (std::size_t r = 0; r < P; ++r) {
    for (std::size_t o = 0; o < P; ++o) {
      EXPECT_EQ(bcast_got[r][o], static_cast<std::uint64_t>(bcasts * epochs)) << name(s) << ": rank " << r << " origin " << o;
    }
  }
  for (std::size_t o = 0; o < P; ++o) {
    EXPECT_EQ(arrived[o], per_origin) << name(s) << ": probes of origin " << o;
    EXPECT_EQ(seqs[o], static_cast<std::uint64_t>(epochs) * n * (n - 1) / 2) << name(s) << ": sequence numbers of origin " << o;
  }
  // Every probe is delivered ttl + 1 times (relays included), every broadcast once per rank.
  EXPECT_EQ(total.messages_delivered,
            per_origin * P * (ttl + 1) + static_cast<std::uint64_t>(bcasts) * P * P * static_cast<std::uint64_t>(epochs))
      << name(s);
  if (s.ranks > 1 && s.layout && s.layout->nodes > 1) {
    EXPECT_GT(total.messages_remote, 0u) << name(s);
  }
  if (!s.layout || s.layout->nodes == 1) {
    EXPECT_EQ(total.messages_remote, 0u) << name(s);
  }
  if (peak != nullptr) *peak = total.peak_buffered_bytes;
  std::uint64_t rendezvous_total = 0;
  for (auto r : rendezvous) rendezvous_total += r;
  return rendezvous_total;
}

std::vector<Scenario> layouts_and_schemes(std::size_t capacity) {
  std::vector<Scenario> all;
  const std::vector<std::pair<int, std::optional<mb::Layout>>> layouts = {
      {1, std::nullopt}, {2, std::nullopt}, {3, std::nullopt}, {4, mb::Layout{2, 2}},
      {8, mb::Layout{4, 2}}, {8, mb::Layout{2, 4}}, {7, mb::Layout{2, 4}}, {5, mb::Layout{3, 2}}};
  for (const auto& [ranks, layout] : layouts) {
    for (mb::Routing r : {mb::Routing::no_route, mb::Routing::node_local, mb::Routing::node_remote, mb::Routing::nlnr}) {
      all.push_back({ranks, layout, r, capacity});
    }
  }
  return all;
}

}  // namespace

TEST(MailboxDelivery, ExactlyOnceThroughEverySchemeAndLayout) {
  for (const Scenario& s : layouts_and_schemes(4096)) run_exchange(s, 200, 3, 0);
}

TEST(MailboxDelivery, BufferedBytesStayNearTheCapacity) {
  // Forwarding appends what arrives; the buffers are flushed before more is taken in, so a rank
  // holds at most the capacity plus one received batch (itself at most a capacity plus a record).
  constexpr std::size_t capacity = 4096, record = 16;
  for (mb::Routing r : {mb::Routing::no_route, mb::Routing::node_local, mb::Routing::node_remote, mb::Routing::nlnr}) {
    std::uint64_t peak = 0;
    run_exchange({8, mb::Layout{2, 4}, r, capacity}, 2000, 0, 0, 1, {}, {}, &peak);
    EXPECT_LE(peak, 2 * (capacity + record)) << mb::to_string(r);
    EXPECT_GE(peak, capacity) << mb::to_string(r);
  }
}

TEST(MailboxDelivery, CallbacksThatSendAreFinishedBeforeWaitEmpty) {
  for (const Scenario& s : layouts_and_schemes(512)) run_exchange(s, 40, 1, 3);
}

TEST(MailboxDelivery, CapacityOfOneByte) {
  for (mb::Routing r : {mb::Routing::no_route, mb::Routing::nlnr}) run_exchange({7, mb::Layout{2, 4}, r, 1}, 20, 2, 2);
}

TEST(MailboxDelivery, LargeCapacityGoesByRendezvous) {
  // One exchange's batches exceed the eager limit, so they travel by rendezvous.
  EXPECT_GT(run_exchange({4, mb::Layout{2, 2}, mb::Routing::node_remote, 1 << 20}, 5000, 2, 1), 0u);
}

TEST(MailboxDelivery, RepeatedEpochs) {
  run_exchange({4, mb::Layout{2, 2}, mb::Routing::nlnr, 300}, 30, 2, 1, 6);
}

TEST(MailboxDelivery, TinyPacketPoolAndFaultyTransport) {
  comm::RuntimeOptions options;
  options.packet_count = 8;
  courier::net::LocalOptions local;
  local.faults.enabled = true;
  local.faults.seed = 7;
  local.pool_frames = 4;
  for (mb::Routing r : {mb::Routing::no_route, mb::Routing::node_local, mb::Routing::node_remote, mb::Routing::nlnr}) {
    run_exchange({8, mb::Layout{4, 2}, r, 256}, 50, 2, 2, 2, options, local);
  }
}

TEST(MailboxDelivery, ExplicitProgressWithoutAServerThread) {
  comm::RuntimeOptions options;
  options.progress_thread = false;
  run_exchange({3, std::nullopt, mb::Routing::no_route, 1000}, 100, 2, 1, 2, options);
}

TEST(MailboxDelivery, RendezvousBatchesInFlightStayBounded) {
  // Rank 0 sends batches larger than the eager limit to rank 1, which does not progress for a
  // while (no server thread, and it sleeps): nothing rank 0 hands over can be read meanwhile.
  // It must stop at max_in_flight_capacities capacities in flight and wait, not pile up batches.
  constexpr std::size_t capacity = 16 * 1024;  // above the runtime's 8 KiB eager limit
  constexpr std::uint64_t messages = 40'000;   // 20 capacities
  comm::RuntimeOptions options;
  options.progress_thread = false;
  std::vector<mb::Stats> stats(2);
  std::vector<std::uint64_t> sums(2, 0), counts(2, 0);
  comm::run_local(
      2,
      [&](comm::Runtime& rt) {
        const auto me = static_cast<std::size_t>(rt.rank());
        mb::Config config;
        config.capacity_bytes = capacity;
        auto box = mb::make_mailbox<std::uint64_t>(
            rt, [&, me](auto&, std::uint64_t v) { sums[me] += v; ++counts[me]; }, config);
        if (me == 0) {
          for (std::uint64_t i = 0; i < messages; ++i) box.async_send(1, i);
        } else {
          std::this_thread::sleep_for(std::chrono::milliseconds(300));
        }
        box.wait_empty();
        stats[me] = box.local_stats();
      },
      options);
  EXPECT_EQ(counts[1], messages);
  EXPECT_EQ(sums[1], messages * (messages - 1) / 2);
  EXPECT_EQ(counts[0], 0u);
  EXPECT_GT(stats[0].peak_in_flight_bytes, 0u);  // it did go by rendezvous
  EXPECT_LE(stats[0].peak_in_flight_bytes, mb::max_in_flight_capacities * capacity);
  EXPECT_GT(stats[0].send_retries, 0u);  // and it did wait
}

TEST(MailboxDelivery, CallbacksThatFanOutStayNearTheCapacity) {
  // Each seed's callback sends `fan` messages on. Handling one full batch of seeds appends `fan`
  // times its bytes; the mailbox sends what its buffers hold as they fill during handling, so a
  // rank holds about a capacity plus a few callbacks' sends, not `fan` capacities (40 KB before).
  struct Fan {
    std::uint32_t origin;
    std::uint32_t seed;  // UINT32_MAX: a leaf, counted where it lands
  };
  constexpr std::size_t capacity = 4096, fan = 16;
  constexpr int seeds_per_rank = 600;
  for (const auto& setting :
       {std::pair{mb::Routing::no_route, mb::Layout{1, 4}}, std::pair{mb::Routing::nlnr, mb::Layout{2, 2}}}) {
    const mb::Routing routing = setting.first;
    const mb::Layout layout = setting.second;
    const int P = 4;
    std::vector<std::uint64_t> leaves(P, 0);
    std::vector<mb::Stats> stats(P);
    comm::run_local(P, [&](comm::Runtime& rt) {
      const auto me = static_cast<std::size_t>(rt.rank());
      const mb::Config config{.capacity_bytes = capacity, .routing = routing, .layout = layout};
      mb::Mailbox<Fan> box(
          rt,
          [&](mb::Mailbox<Fan>& self, const Fan& f) {
            if (f.seed == UINT32_MAX) {
              ++leaves[me];
              return;
            }
            for (std::size_t i = 0; i < fan; ++i) {
              self.async_send(static_cast<int>((me + 1 + i % (P - 1)) % P), Fan{f.origin, UINT32_MAX});
            }
          },
          config);
      for (int s = 0; s < seeds_per_rank; ++s) {
        box.async_send(static_cast<int>((me + 1 + static_cast<std::size_t>(s) % (P - 1)) % P),
                       Fan{static_cast<std::uint32_t>(me), static_cast<std::uint32_t>(s)});
      }
      box.wait_empty();
      stats[me] = box.local_stats();
    });
    std::uint64_t total_leaves = 0;
    for (auto l : leaves) total_leaves += l;
    EXPECT_EQ(total_leaves, static_cast<std::uint64_t>(P) * seeds_per_rank * fan) << mb::to_string(routing);
    for (int r = 0; r < P; ++r) {
      EXPECT_LE(stats[static_cast<std::size_t>(r)].peak_buffered_bytes, 3 * capacity)
          << mb::to_string(routing) << ", rank " << r;
    }
  }
}

TEST(MailboxDelivery, OneCallbackThatSendsManyStaysNearTheCapacity) {
  // A hub's label reaching all its neighbours: a single callback sends `many` messages. What it
  // has sent goes to the transport as the buffers fill, not only once the callback returns.
  constexpr std::size_t capacity = 1024;
  constexpr std::uint64_t many = 5000;
  for (const auto& setting :
       {std::pair{mb::Routing::no_route, mb::Layout{1, 3}}, std::pair{mb::Routing::nlnr, mb::Layout{3, 1}}}) {
    const mb::Routing routing = setting.first;
    const mb::Layout layout = setting.second;
    const int P = 3;
    std::vector<std::uint64_t> got(P, 0);
    std::vector<mb::Stats> stats(P);
    comm::run_local(P, [&](comm::Runtime& rt) {
      const auto me = static_cast<std::size_t>(rt.rank());
      const mb::Config config{.capacity_bytes = capacity, .routing = routing, .layout = layout};
      mb::Mailbox<std::uint64_t> box(
          rt,
          [&](mb::Mailbox<std::uint64_t>& self, std::uint64_t v) {
            if (v != UINT64_MAX) {
              ++got[me];
              return;
            }
            for (std::uint64_t i = 0; i < many; ++i) self.async_send(static_cast<int>((me + 1 + i % 2) % P), i);
          },
          config);
      if (me == 0) box.async_send(1, UINT64_MAX);
      box.wait_empty();
      stats[me] = box.local_stats();
    });
    EXPECT_EQ(got[0] + got[2], many) << mb::to_string(routing);
    EXPECT_LE(stats[1].peak_buffered_bytes, 3 * capacity) << mb::to_string(routing);
  }
}

}  // namespace delivery_test
