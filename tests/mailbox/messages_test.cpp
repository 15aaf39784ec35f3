// Messages of every shape: variable-length STL types through cereal, a message far larger than the
// capacity, ranks that only receive, programs with their own work queue polling test_empty, and
// misuse that must fail clearly.
#include <gtest/gtest.h>

#include <cereal/types/map.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "courier/comm/local_world.hpp"
#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "courier/mailbox/mailbox.hpp"

namespace messages_test {

namespace comm = courier::comm;
namespace mb = courier::mailbox;

namespace {

mb::Config config(std::size_t capacity, mb::Routing routing, std::optional<mb::Layout> layout = std::nullopt) {
  mb::Config c;
  c.capacity_bytes = capacity;
  c.routing = routing;
  c.layout = layout;
  return c;
}

struct Record {
  std::string name;
  std::map<std::uint32_t, std::vector<std::uint64_t>> values;
  template <class Archive>
  void serialize(Archive& archive) {
    archive(name, values);
  }
};

// A rank's own loop (HavoqGT-style): does the work its callbacks queued, one item at a time, and
// polls test_empty whenever the queue is empty, until the mailbox is empty on every rank.
template <class Box, class Handle>
void work_until_empty(Box& box, std::deque<std::uint32_t>& work, Handle&& handle) {
  courier::Backoff backoff;
  for (;;) {
    if (!work.empty()) backoff.reset();
    while (!work.empty()) {
      const std::uint32_t item = work.front();
      work.pop_front();
      handle(item);
    }
    if (box.test_empty()) break;
    backoff.pause();
  }
}

}  // namespace

TEST(MailboxMessages, VariableLengthVectorsThroughEveryScheme) {
  for (mb::Routing routing : {mb::Routing::no_route, mb::Routing::node_local, mb::Routing::node_remote, mb::Routing::nlnr}) {
    constexpr int ranks = 7;
    std::vector<std::uint64_t> sums(ranks, 0), counts(ranks, 0);
    comm::run_local(ranks, [&](comm::Runtime& rt) {
      const int me = rt.rank();
      mb::Mailbox<std::vector<std::uint64_t>> box(
          rt,
          [&](auto&, const std::vector<std::uint64_t>& v) {
            ++counts[static_cast<std::size_t>(me)];
            sums[static_cast<std::size_t>(me)] += std::accumulate(v.begin(), v.end(), std::uint64_t{0});
          },
          config(700, routing, mb::Layout{2, 4}));
      for (int i = 0; i < 300; ++i) {
        std::vector<std::uint64_t> v(static_cast<std::size_t>(i % 37));
        std::iota(v.begin(), v.end(), static_cast<std::uint64_t>(me));
        box.async_send((me + i) % ranks, v);
      }
      box.async_bcast(std::vector<std::uint64_t>{1000});
      box.wait_empty();
    });
    // What every sender sent, summed: the receivers' totals must match.
    std::uint64_t expected_sum = 0, got_sum = 0, got_count = 0;
    for (int me = 0; me < ranks; ++me) {
      for (int i = 0; i < 300; ++i) {
        const std::uint64_t n = static_cast<std::uint64_t>(i % 37);
        expected_sum += n * static_cast<std::uint64_t>(me) + n * (n - (n > 0 ? 1 : 0)) / 2;
      }
      expected_sum += 1000 * ranks;
    }
    for (int r = 0; r < ranks; ++r) {
      got_sum += sums[static_cast<std::size_t>(r)];
      got_count += counts[static_cast<std::size_t>(r)];
    }
    EXPECT_EQ(got_count, 300u * ranks + ranks * ranks) << mb::to_string(routing);
    EXPECT_EQ(got_sum, expected_sum) << mb::to_string(routing);
  }
}

TEST(MailboxMessages, StructsWithStringsAndMaps) {
  std::vector<Record> received(3);
  comm::run_local(3, [&](comm::Runtime& rt) {
    mb::Mailbox<Record> box(rt, [&](auto&, const Record& r) { received[static_cast<std::size_t>(rt.rank())] = r; }, 64);
    if (rt.rank() == 0) {
      box.async_send(1, Record{"one", {{1, {10, 11}}, {2, {}}}});
      box.async_send(2, Record{std::string(1000, 'x'), {{7, std::vector<std::uint64_t>(500, 3)}}});
    }
    box.wait_empty();
  });
  EXPECT_EQ(received[1].name, "one");
  EXPECT_EQ(received[1].values.at(1), (std::vector<std::uint64_t>{10, 11}));
  EXPECT_TRUE(received[1].values.at(2).empty());
  EXPECT_EQ(received[2].name.size(), 1000u);
  EXPECT_EQ(received[2].values.at(7).size(), 500u);
  EXPECT_TRUE(received[0].name.empty());
}

TEST(MailboxMessages, MessagesFarLargerThanTheCapacityToRanksThatOnlyReceive) {
  constexpr std::size_t big = 200'000;  // 1.6 MB per message, capacity 16 bytes
  std::vector<std::uint64_t> sums(4, 0);
  comm::run_local(4, [&](comm::Runtime& rt) {
    mb::Mailbox<std::vector<std::uint64_t>> box(
        rt,
        [&](auto&, const std::vector<std::uint64_t>& v) {
          sums[static_cast<std::size_t>(rt.rank())] += std::accumulate(v.begin(), v.end(), std::uint64_t{0});
        },
        config(16, mb::Routing::nlnr, mb::Layout{2, 2}));
    if (rt.rank() == 0) {
      std::vector<std::uint64_t> v(big, 1);
      for (int d = 1; d < 4; ++d) box.async_send(d, v);
      box.async_bcast(std::vector<std::uint64_t>(big, 2));
    }
    box.wait_empty();
  });
  EXPECT_EQ(sums[0], 2 * big);
  for (int r = 1; r < 4; ++r) EXPECT_EQ(sums[static_cast<std::size_t>(r)], 3 * big) << "rank " << r;
}

TEST(MailboxMessages, OwnWorkQueuePollingTestEmpty) {
  // HavoqGT-style: callbacks only queue work; the rank drains its queue and polls test_empty when
  // it has nothing left. Each token hops `hops` times around the ring.
  constexpr int ranks = 5, tokens = 100, hops = 20;
  std::vector<std::uint64_t> finished(ranks, 0);
  comm::run_local(ranks, [&](comm::Runtime& rt) {
    const int me = rt.rank();
    std::deque<std::uint32_t> work;
    mb::Mailbox<std::uint32_t> box(rt, [&](auto&, std::uint32_t left) { work.push_back(left); },
                                   config(128, mb::Routing::node_remote, mb::Layout{3, 2}));
    for (int t = 0; t < tokens; ++t) box.async_send((me + 1) % ranks, hops);
    work_until_empty(box, work, [&](std::uint32_t left) {
      if (left == 1) {
        ++finished[static_cast<std::size_t>(me)];
      } else {
        box.async_send((me + 1) % ranks, left - 1);
      }
    });
    EXPECT_TRUE(work.empty()) << "rank " << me;
  });
  EXPECT_EQ(std::accumulate(finished.begin(), finished.end(), std::uint64_t{0}), std::uint64_t{ranks} * tokens);
}

TEST(MailboxMessages, OwnWorkQueueFedByMessagesToItself) {
  // Messages to this rank never cross the transport, so the termination counts never see them:
  // test_empty must still not end while callbacks keep handing the rank work of its own. Rank 1
  // passes a token to itself, one hop per pass of its loop and slowly, while the other ranks are
  // idle and termination waves come and go.
  constexpr int ranks = 3, hops = 400;
  std::vector<std::uint64_t> passes(ranks, 0);
  comm::run_local(ranks, [&](comm::Runtime& rt) {
    const int me = rt.rank();
    std::deque<std::uint32_t> work;
    mb::Mailbox<std::uint32_t> box(rt, [&](auto&, std::uint32_t left) { work.push_back(left); },
                                   config(64, mb::Routing::no_route));
    if (me == 1) box.async_send(me, hops);
    work_until_empty(box, work, [&](std::uint32_t left) {
      ++passes[static_cast<std::size_t>(me)];
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      if (left > 1) box.async_send(me, left - 1);
    });
    EXPECT_TRUE(work.empty()) << "rank " << me;
  });
  EXPECT_EQ(passes[1], hops);
}

TEST(MailboxMessages, MisuseFailsWithAClearError) {
  comm::run_local(2, [&](comm::Runtime& rt) {
    bool nested_failed = false;
    mb::Mailbox<int> box(
        rt,
        [&](mb::Mailbox<int>& self, int) {
          try {
            self.wait_empty();
          } catch (const courier::Error& e) {
            nested_failed = std::string(e.what()).find("receive callback") != std::string::npos;
          }
        },
        8);
    EXPECT_THROW(box.async_send(2, 1), courier::InputError);
    EXPECT_THROW(box.async_send(-1, 1), courier::InputError);
    box.async_send(rt.rank(), 1);
    box.wait_empty();
    EXPECT_TRUE(nested_failed);
  });
  EXPECT_THROW(comm::run_local(1, [](comm::Runtime& rt) { mb::Mailbox<int> box(rt, [](auto&, int) {}, 0); }),
               courier::InputError);
  EXPECT_THROW(comm::run_local(3, [](comm::Runtime& rt) {
                 mb::Mailbox<int> box(rt, [](auto&, int) {}, config(8, mb::Routing::nlnr, mb::Layout{2, 1}));
               }),
               courier::InputError);
}

TEST(MailboxMessages, CountsWhatARankHandsToItselfApart) {
  mb::Stats stats;
  std::mutex mutex;
  comm::run_local(2, [&](comm::Runtime& rt) {
    mb::Mailbox<int> box(
        rt, [](auto&, int) {}, config(64, mb::Routing::no_route, mb::Layout{1, 2}));
    for (int i = 0; i < 3; ++i) box.async_send(rt.rank(), i);
    for (int i = 0; i < 5; ++i) box.async_send(1 - rt.rank(), i);
    box.wait_empty();
    const mb::Stats mine = box.local_stats();
    std::lock_guard lock(mutex);
    stats += mine;
  });
  EXPECT_EQ(stats.messages_delivered, 16u);
  EXPECT_EQ(stats.messages_self, 6u);    // 3 each
  EXPECT_EQ(stats.messages_local, 16u);  // one node: every record, the rank's own included
  EXPECT_EQ(stats.messages_remote, 0u);
}

TEST(MailboxMessages, EchoesItsConfigurationAndFormatsStatistics) {
  ::testing::internal::CaptureStderr();
  mb::Stats stats;
  std::mutex mutex;
  comm::run_local(4, [&](comm::Runtime& rt) {
    mb::Config c = config(100, mb::Routing::nlnr, mb::Layout{2, 2});
    c.echo_config = true;
    mb::Mailbox<int> box(rt, [](auto&, int) {}, c);
    box.async_send((rt.rank() + 2) % 4, 1);
    box.wait_empty();
    const mb::Stats mine = box.local_stats();
    std::lock_guard lock(mutex);
    stats += mine;
  });
  const std::string echoed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(echoed, "mailbox: capacity 100 B, routing nlnr, 2 nodes x 2 cores (4 ranks), simulated layout 2x2\n");
  // Each rank sends once to the other node: under NLNR on 2x2 every message takes one local hop
  // (to its node's channel, or from the receiving channel) and one remote hop.
  EXPECT_EQ(stats.messages_delivered, 4u);
  EXPECT_EQ(stats.messages_remote, 4u);
  EXPECT_EQ(stats.messages_local, 4u);
  EXPECT_EQ(stats.messages_forwarded, 4u);
  const std::string text = mb::format(stats);
  EXPECT_NE(text.find("messages_remote 4\n"), std::string::npos) << text;
  EXPECT_NE(text.find("average_remote_batch_bytes "), std::string::npos) << text;
}

// Fixed-size messages without routing take the fast path (appends inside a per-hop window, counted
// when the window ends): the statistics and the exchange points must be those of exact counting.
TEST(MailboxMessages, FastPathCountsEveryMessageAndExchangesAtTheCapacity) {
  constexpr std::size_t capacity = 256, per_rank = 10'000;
  mb::Stats stats;
  std::uint64_t delivered_sum = 0, sent_sum = 0;
  std::mutex mutex;
  comm::run_local(3, [&](comm::Runtime& rt) {
    std::uint64_t sum = 0, sent = 0;
    auto box = mb::make_mailbox<std::uint64_t>(rt, [&sum](auto&, std::uint64_t v) { sum += v; },
                                               config(capacity, mb::Routing::no_route));
    for (std::uint64_t i = 0; i < per_rank; ++i) {
      const std::uint64_t value = i * 3 + static_cast<std::uint64_t>(rt.rank());
      // Runs of 40 to one rank, then shorter ones: windows both fill up and end early.
      const std::uint64_t run = i < per_rank / 2 ? i / 40 : i * 7 + i / 5;
      box.async_send(static_cast<courier::rank_t>(run % 3), value);
      sent += value;
    }
    box.wait_empty();
    const mb::Stats mine = box.local_stats();
    // An exchange starts every time the buffered bytes reach the capacity, never earlier (a batch
    // the transport refused stays buffered, and then the next exchange comes sooner).
    const std::uint64_t full = per_rank * sizeof(std::uint64_t) / capacity;
    if (mine.send_retries == 0) {
      EXPECT_EQ(mine.exchanges, full) << "rank " << rt.rank();
      EXPECT_EQ(mine.peak_buffered_bytes, capacity) << "rank " << rt.rank();
    } else {
      EXPECT_GE(mine.exchanges, full) << "rank " << rt.rank();
    }
    std::lock_guard lock(mutex);
    stats += mine;
    delivered_sum += sum;
    sent_sum += sent;
  });
  EXPECT_EQ(delivered_sum, sent_sum);
  EXPECT_EQ(stats.messages_delivered, 3 * per_rank);
  EXPECT_EQ(stats.messages_local + stats.messages_remote, 3 * per_rank);
  EXPECT_EQ(stats.bytes_local + stats.bytes_remote, 3 * per_rank * sizeof(std::uint64_t));
}

}  // namespace messages_test
