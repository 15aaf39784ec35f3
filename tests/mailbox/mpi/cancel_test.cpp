// Cancelling a mailbox run across processes: only the asking process sees its request, so the
// mailbox's own messages must carry it to every rank. Tokens relayed forever keep the epoch from
// ending on its own; every rank must throw Cancelled from the same wait_empty, whichever rank asked.
#include "courier/core/cancel.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>

#include "courier/comm/runtime.hpp"
#include "courier/mailbox/mailbox.hpp"
#include "courier/net/mpi_device.hpp"

namespace comm = courier::comm;
namespace mb = courier::mailbox;

namespace {

struct Token {
  std::uint64_t hops;
};

int ranks_that_threw(bool threw) {
  int mine = threw ? 1 : 0, total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

void relay_until_cancelled(int asker, mb::Routing routing) {
  courier::clear_cancellation();
  comm::Runtime rt(courier::net::make_mpi_device());
  const int P = rt.ranks();
  std::uint64_t seen = 0;
  bool threw = false;
  {
    mb::Config config;
    config.routing = routing;
    config.capacity_bytes = 64;
    mb::Mailbox<Token> box(
        rt,
        [&](mb::Mailbox<Token>& self, const Token& t) {
          if (++seen == 1000 && self.rank() == asker) courier::request_cancellation();
          self.async_send((self.rank() + 1) % self.ranks(), Token{t.hops + 1});
        },
        config);
    box.async_send((rt.rank() + 1) % P, Token{0});
    try {
      box.wait_empty();
    } catch (const courier::Cancelled&) {
      threw = true;
    }
  }
  rt.shutdown();
  courier::clear_cancellation();
  EXPECT_EQ(ranks_that_threw(threw), P) << "asked on rank " << asker << ", " << mb::to_string(routing);
}

}  // namespace

TEST(MailboxCancelOverMpi, EveryProcessThrowsWhicheverRankWasAsked) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (const mb::Routing routing : {mb::Routing::no_route, mb::Routing::nlnr}) {
    relay_until_cancelled(0, routing);
    relay_until_cancelled(size - 1, routing);
  }
}
