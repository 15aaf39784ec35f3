// The mailbox over the mpi transport, one process per rank: nodes discovered through
// MPI_Comm_split_type (one machine: one node), simulated layouts for routing, and exactly-once
// delivery of point-to-point messages, broadcasts and callback sends, summed over ranks.
#include <mpi.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/mailbox/mailbox.hpp"
#include "courier/net/mpi_device.hpp"

namespace comm = courier::comm;
namespace mb = courier::mailbox;

namespace {

std::uint64_t sum_over_ranks(std::uint64_t value) {
  std::uint64_t total = 0;
  MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

struct Item {
  std::uint64_t value;
  std::uint32_t ttl;
};

void exactly_once(mb::Routing routing, std::optional<mb::Layout> layout, std::size_t capacity) {
  comm::Runtime rt(courier::net::make_mpi_device());
  const int P = rt.ranks(), me = rt.rank();
  std::uint64_t delivered = 0, value_sum = 0;
  mb::Config config;
  config.capacity_bytes = capacity;
  config.routing = routing;
  config.layout = layout;
  mb::Mailbox<Item> box(
      rt,
      [&](mb::Mailbox<Item>& self, const Item& item) {
        if (item.ttl > 0) {
          self.async_send(static_cast<int>((item.value + static_cast<std::uint64_t>(me)) % static_cast<std::uint64_t>(P)),
                          Item{item.value, item.ttl - 1});
          return;
        }
        ++delivered;
        value_sum += item.value;
      },
      config);
  constexpr int per_rank = 3000;
  for (int i = 0; i < per_rank; ++i) box.async_send(i % P, Item{static_cast<std::uint64_t>(i), static_cast<std::uint32_t>(i % 3)});
  box.async_bcast(Item{1'000'000, 0});
  box.wait_empty();
  const std::uint64_t n = per_rank;
  EXPECT_EQ(sum_over_ranks(delivered), static_cast<std::uint64_t>(P) * (n + static_cast<std::uint64_t>(P)));
  EXPECT_EQ(sum_over_ranks(value_sum), static_cast<std::uint64_t>(P) * (n * (n - 1) / 2 + 1'000'000ull * static_cast<std::uint64_t>(P)));
  const mb::Stats s = box.local_stats();
  if (layout && layout->nodes > 1) {
    EXPECT_GT(sum_over_ranks(s.messages_remote), 0u);
  }
  rt.shutdown();
}

}  // namespace

TEST(MailboxOverMpi, DiscoversOneNodeOnOneMachine) {
  comm::Runtime rt(courier::net::make_mpi_device());
  mb::Mailbox<int> box(rt, [](auto&, int) {}, 64);
  EXPECT_EQ(box.topology().nodes(), 1);
  EXPECT_EQ(box.topology().cores_per_node(), rt.ranks());
  EXPECT_EQ(box.topology().core(), rt.rank());
  box.wait_empty();
  rt.shutdown();
}

TEST(MailboxOverMpi, ExactlyOnceThroughEveryScheme) {
  const int P = world_size();
  // Two simulated nodes: 1 rank each at np 2, 2 + 1 at np 3, 2 + 2 at np 4.
  const mb::Layout two_nodes{2, (P + 1) / 2};
  for (mb::Routing routing : {mb::Routing::no_route, mb::Routing::node_local, mb::Routing::node_remote, mb::Routing::nlnr}) {
    exactly_once(routing, two_nodes, 1024);
    exactly_once(routing, std::nullopt, 1024);
  }
  exactly_once(mb::Routing::nlnr, mb::Layout{P, 1}, 1);
  exactly_once(mb::Routing::node_remote, two_nodes, 1 << 20);  // batches by rendezvous
}
