// Cancelling a mailbox run (courier/core/cancel.hpp): messages relayed from callbacks forever keep
// an epoch from ever ending on its own, so only the cancellation can end it. Every rank must throw
// Cancelled from the same wait_empty (or test_empty), whichever rank was asked, under every routing
// scheme, and nothing is left to hang the runtime's shutdown.
#include "courier/core/cancel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "courier/comm/local_world.hpp"
#include "courier/mailbox/mailbox.hpp"

namespace cancel_test {

namespace comm = courier::comm;
namespace mb = courier::mailbox;

namespace {

struct Token {
  std::uint64_t hops;
};

// Each rank starts a token that its receivers pass on to the next rank forever; rank `asker`'s
// callback asks to stop after 1,000 tokens. Returns how many ranks threw Cancelled.
int relay_until_cancelled(int ranks, mb::Routing routing, int asker, bool poll) {
  courier::clear_cancellation();
  std::atomic<int> cancelled{0};
  comm::run_local(ranks, [&](comm::Runtime& rt) {
    std::uint64_t seen = 0;
    mb::Config config;
    config.routing = routing;
    config.capacity_bytes = 64;  // small: tokens travel in many small batches
    mb::Mailbox<Token> box(
        rt,
        [&](mb::Mailbox<Token>& self, const Token& t) {
          if (++seen == 1000 && rt.rank() == asker) courier::request_cancellation();
          self.async_send((self.rank() + 1) % self.ranks(), Token{t.hops + 1});
        },
        config);
    box.async_send((rt.rank() + 1) % rt.ranks(), Token{0});
    try {
      if (poll) {
        while (!box.test_empty()) {
        }
      } else {
        box.wait_empty();
      }
    } catch (const courier::Cancelled&) {
      cancelled.fetch_add(1);
    }
  });
  courier::clear_cancellation();
  return cancelled.load();
}

TEST(MailboxCancel, EveryRankThrowsFromTheSameEpochWhicheverRankWasAsked) {
  for (const mb::Routing routing : {mb::Routing::no_route, mb::Routing::node_remote, mb::Routing::nlnr})
    for (const int ranks : {1, 2, 4})
      for (const int asker : {0, ranks - 1})
        EXPECT_EQ(relay_until_cancelled(ranks, routing, asker, false), ranks)
            << ranks << " ranks, " << mb::to_string(routing) << ", asked on rank " << asker;
}

TEST(MailboxCancel, TestEmptyThrowsAsWaitEmptyDoes) {
  EXPECT_EQ(relay_until_cancelled(3, mb::Routing::no_route, 2, true), 3);
}

// A request made before an epoch that ends on its own anyway: the ranks still agree (all throw).
TEST(MailboxCancel, ARequestBeforeAFiniteEpochStopsEveryRank) {
  std::atomic<int> cancelled{0}, delivered{0};
  courier::request_cancellation();
  comm::run_local(3, [&](comm::Runtime& rt) {
    mb::Mailbox<Token> box(rt, [&](mb::Mailbox<Token>&, const Token&) { delivered.fetch_add(1); });
    for (int r = 0; r < rt.ranks(); ++r) box.async_send(r, Token{0});
    try {
      box.wait_empty();
    } catch (const courier::Cancelled&) {
      cancelled.fetch_add(1);
    }
  });
  courier::clear_cancellation();
  EXPECT_EQ(cancelled.load(), 3);
}

}  // namespace

}  // namespace cancel_test
