// A mailbox used by several compute threads per rank (Config::threads): exactly-once delivery of
// what every thread of every rank sends, relays from callbacks and broadcasts, under no_route and
// nlnr, over several epochs; programs with per-thread work queues ending through test_empty only
// when every thread's work is done; callbacks of a rank never running at once; cancellation
// reaching every thread of every rank; a thread that fails stopping its siblings; misuse refused.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <string>
#include <thread>
#include <vector>

#include "courier/comm/local_world.hpp"
#include "courier/core/backoff.hpp"
#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"
#include "courier/mailbox/mailbox.hpp"

namespace threads_test {

namespace comm = courier::comm;
namespace mb = courier::mailbox;

namespace {

struct Note {
  std::uint32_t origin;  // rank * 16 + thread
  std::uint32_t seq;
  std::uint32_t ttl;  // further hops the callback relays it
  std::uint32_t bcast;
  std::uint32_t epoch = 0;  // a rank may start the next epoch's sends before another has left this one
};

template <class Body>
void on_threads(unsigned threads, Body&& body) {
  std::vector<std::jthread> others;
  for (unsigned t = 1; t < threads; ++t) others.emplace_back(body, t);
  body(0u);
}

// Every thread sends `per_dest` notes to every rank, each relayed `ttl` times by callbacks, and
// one broadcast; each rank counts what reached it per (origin, seq) in plain integers (callbacks
// of a rank never run at once: TSan would see them otherwise). Three epochs.
void check_exactly_once(int ranks, unsigned threads, mb::Routing routing, std::size_t capacity) {
  const std::string what = std::to_string(ranks) + "x" + std::to_string(threads) + ", " + mb::to_string(routing) +
                           ", capacity " + std::to_string(capacity);
  constexpr std::uint32_t per_dest = 300, ttl = 2;
  comm::run_local(ranks, [&](comm::Runtime& rt) {
    mb::Config config;
    config.capacity_bytes = capacity;
    config.routing = routing;
    config.layout = mb::Layout{static_cast<int>((ranks + 1) / 2), 2};
    if (ranks % 2 != 0) config.layout.reset();
    config.threads = threads;
    const std::size_t origins = static_cast<std::size_t>(ranks) * 16;
    constexpr int epochs = 3;
    std::vector<std::vector<std::uint32_t>> got(epochs, std::vector<std::uint32_t>(origins * per_dest, 0));
    std::vector<std::vector<std::uint32_t>> bcasts(epochs, std::vector<std::uint32_t>(origins, 0));
    std::vector<std::uint32_t> by_thread(threads, 0);
    mb::Mailbox<Note> box(
        rt,
        [&](mb::Mailbox<Note>& self, const Note& n) {
          ++by_thread.at(self.callback_thread());
          if (n.bcast) {
            ++bcasts[n.epoch][n.origin];
          } else if (n.ttl > 0) {
            self.async_send(static_cast<int>((n.seq + n.ttl) % static_cast<std::uint32_t>(ranks)),
                            Note{n.origin, n.seq, n.ttl - 1, 0, n.epoch});
          } else {
            ++got[n.epoch][n.origin * per_dest + n.seq];
          }
        },
        config);
    ASSERT_EQ(box.threads(), threads);
    for (std::uint32_t epoch = 0; epoch < epochs; ++epoch) {
      on_threads(threads, [&](unsigned t) {
        auto& mine = box.thread(t);
        const auto origin = static_cast<std::uint32_t>(rt.rank() * 16) + t;
        for (std::uint32_t seq = 0; seq < per_dest; ++seq)
          for (int dest = 0; dest < ranks; ++dest)
            if (static_cast<std::uint32_t>(dest) == seq % static_cast<std::uint32_t>(ranks))
              mine.async_send(dest, Note{origin, seq, ttl, 0, epoch});
        mine.async_bcast(Note{origin, 0, 0, 1, epoch});
        mine.wait_empty();
      });
      // Relayed with ttl 2 to rank seq + 2, then with ttl 1 to seq + 1 (mod P), which counts it.
      for (int r = 0; r < ranks; ++r)
        for (unsigned t = 0; t < threads; ++t) {
          const std::size_t origin = static_cast<std::size_t>(r) * 16 + t;
          EXPECT_EQ(bcasts[epoch][origin], 1u) << what << ": broadcast of rank " << r << " thread " << t;
          for (std::uint32_t seq = 0; seq < per_dest; ++seq) {
            const std::uint32_t last = (seq + 1) % static_cast<std::uint32_t>(ranks);
            const std::uint32_t expected = static_cast<std::uint32_t>(rt.rank()) == last ? 1 : 0;
            ASSERT_EQ(got[epoch][origin * per_dest + seq], expected)
                << what << ", epoch " << epoch << ", rank " << rt.rank() << " from " << r << "/" << t << " seq " << seq;
          }
        }
    }
    std::uint32_t handled = 0;
    for (const std::uint32_t n : by_thread) handled += n;
    EXPECT_GT(handled, 0u) << what;
  });
}

TEST(MailboxThreads, EveryThreadsMessagesArriveExactlyOnce) {
  for (int ranks : {1, 2, 3, 4})
    for (unsigned threads : {1u, 2u, 3u}) check_exactly_once(ranks, threads, mb::Routing::no_route, 4096);
}

TEST(MailboxThreads, ExactlyOnceThroughRoutingAndTinyCapacities) {
  for (int ranks : {2, 4}) {
    check_exactly_once(ranks, 2, mb::Routing::nlnr, 64);
    check_exactly_once(ranks, 2, mb::Routing::node_remote, 64);
  }
  check_exactly_once(2, 2, mb::Routing::nlnr, 1);  // every message its own hand-over and batch
}

// A program with work queues of its own: a token's callback queues it on the thread that ran the
// callback, whose loop passes it on (to a rank chosen by its hop) until its hops are spent. The
// epoch may end only after every thread's queue is empty: each token is retired exactly once.
void check_work_queues(int ranks, unsigned threads) {
  const std::string what = std::to_string(ranks) + "x" + std::to_string(threads);
  constexpr std::uint32_t tokens = 200, hops = 6;
  std::atomic<std::uint64_t> retired{0};
  comm::run_local(ranks, [&](comm::Runtime& rt) {
    mb::Config config;
    config.capacity_bytes = 256;
    config.threads = threads;
    std::vector<std::deque<Note>> queues(threads);
    mb::Mailbox<Note> box(
        rt, [&](mb::Mailbox<Note>& self, const Note& n) { queues[self.callback_thread()].push_back(n); }, config);
    on_threads(threads, [&](unsigned t) {
      auto& mine = box.thread(t);
      for (std::uint32_t seq = t; seq < tokens; seq += threads)
        queues[t].push_back(Note{static_cast<std::uint32_t>(rt.rank()), seq, hops, 0});
      courier::Backoff backoff;
      for (;;) {
        while (!queues[t].empty()) {
          const Note n = queues[t].front();
          queues[t].pop_front();
          if (n.ttl == 0) {
            retired.fetch_add(1);
            continue;
          }
          mine.async_send(static_cast<int>((n.seq * 7 + n.ttl + n.origin) % static_cast<std::uint32_t>(ranks)),
                          Note{n.origin, n.seq, n.ttl - 1, 0});
        }
        if (mine.test_empty()) break;
        backoff.pause();
      }
      EXPECT_TRUE(queues[t].empty()) << what << ": the epoch ended with work queued on thread " << t;
    });
  });
  EXPECT_EQ(retired.load(), std::uint64_t{tokens} * static_cast<std::uint64_t>(ranks)) << what;
}

TEST(MailboxThreads, TestEmptyEndsOnlyWhenEveryThreadsQueueIsEmpty) {
  for (int ranks : {1, 2, 3})
    for (unsigned threads : {1u, 2u, 3u}) check_work_queues(ranks, threads);
  // A thread whose test_empty hands its sends over may run callbacks there that queue it work: its
  // step must not then vote idle (CI once saw 1x3 end with 15 tokens queued). Races: run it often.
  for (int repeat = 0; repeat < 20; ++repeat) check_work_queues(1, 3);
}

// Tokens relayed from callbacks forever: only cancellation (asked by one rank's callback) ends the
// epoch, and then every thread of every rank throws Cancelled.
TEST(MailboxThreads, CancellationReachesEveryThreadOfEveryRank) {
  for (int ranks : {1, 2, 3}) {
    courier::clear_cancellation();
    constexpr unsigned threads = 2;
    std::atomic<int> cancelled{0};
    comm::run_local(ranks, [&](comm::Runtime& rt) {
      std::uint64_t seen = 0;
      mb::Config config;
      config.capacity_bytes = 64;
      config.threads = threads;
      mb::Mailbox<Note> box(
          rt,
          [&](mb::Mailbox<Note>& self, const Note& n) {
            if (++seen == 1000 && rt.rank() == ranks - 1) courier::request_cancellation();
            self.async_send((self.rank() + 1) % self.ranks(), n);
          },
          config);
      on_threads(threads, [&](unsigned t) {
        box.thread(t).async_send((rt.rank() + 1) % rt.ranks(), Note{t, 0, 0, 0});
        try {
          box.thread(t).wait_empty();
        } catch (const courier::Cancelled&) {
          cancelled.fetch_add(1);
        }
      });
    });
    courier::clear_cancellation();
    EXPECT_EQ(cancelled.load(), ranks * static_cast<int>(threads)) << ranks << " ranks";
  }
}

// A thread whose own code fails abandons its handle; the rank's other threads then stop with an
// Error instead of waiting for it in wait_empty forever (without abandon() this test hangs).
TEST(MailboxThreads, AThreadThatFailsOutsideTheMailboxStopsItsSiblings) {
  std::atomic<int> stopped{0};
  comm::run_local(1, [&](comm::Runtime& rt) {
    mb::Config config;
    config.threads = 2;
    mb::Mailbox<std::uint64_t> box(
        rt, [](mb::Mailbox<std::uint64_t>&, std::uint64_t) {}, config);
    on_threads(2, [&](unsigned t) {
      box.thread(t).async_send(0, t);
      if (t == 1) {
        box.thread(1).abandon();  // as algo's on_threads does when the thread's body throws
        return;
      }
      try {
        box.thread(0).wait_empty();
      } catch (const courier::Error& e) {
        EXPECT_NE(std::string(e.what()).find("another thread of this rank failed"), std::string::npos) << e.what();
        stopped.fetch_add(1);
      }
    });
  });
  EXPECT_EQ(stopped.load(), 1);
}

TEST(MailboxThreads, ThreadsUseTheirHandlesAndCallbacksTheMailbox) {
  comm::run_local(1, [&](comm::Runtime& rt) {
    mb::Config config;
    config.threads = 2;
    bool tried = false;
    mb::Mailbox<std::uint64_t> box(
        rt,
        [&](mb::Mailbox<std::uint64_t>& self, std::uint64_t) {
          if (tried) return;
          tried = true;
          EXPECT_THROW(self.thread(self.callback_thread()).wait_empty(), courier::Error);  // a handle in a callback
        },
        config);
    EXPECT_THROW(box.async_send(0, 1), courier::Error);  // outside callbacks: thread(t)
    EXPECT_THROW(box.wait_empty(), courier::Error);
    EXPECT_THROW(box.thread(0).async_send(1, 1), courier::InputError);  // no rank 1
    on_threads(2, [&](unsigned t) {
      box.thread(t).async_send(0, t);
      box.thread(t).wait_empty();
    });
    EXPECT_TRUE(tried);
  });
}

}  // namespace

}  // namespace threads_test
