#pragma once
// How a mailbox is set up: its capacity, its routing scheme and the topology routing sees.
#include <cstddef>
#include <optional>
#include <string>

#include "courier/mailbox/routing.hpp"
#include "courier/mailbox/topology.hpp"

namespace courier::mailbox {

// A rank hands batches larger than the transport's eager limit over by rendezvous, and the
// transport reads them later. At most this many capacities of such batches are in flight at once
// (one batch always may be); past that the rank waits in its exchange, handling what arrives,
// as it does when the transport refuses a batch. A handshake takes a few exchanges, so ranks
// that keep pace never wait; one that runs ahead no longer piles batches up without bound.
inline constexpr std::size_t max_in_flight_capacities = 4;

struct Config {
  // Bytes buffered (all next hops together) before the rank enters an exchange. Any value >= 1
  // works: a message larger than the capacity is sent on its own.
  std::size_t capacity_bytes = 64 * 1024;  // measured: batches that stay in cache beat larger ones
  Routing routing = Routing::no_route;
  // Simulated nodes ("--layout 4x2"); without it, the nodes the transport reports.
  std::optional<Layout> layout;
  // Compute threads that use the mailbox at once, each through Mailbox::thread(t) (paper 001's
  // section VII: MPI + threads). 1: the rank's one thread uses the Mailbox itself, as in YGM.
  unsigned threads = 1;
  // Rank 0 prints the configuration in force to stderr when the mailbox is built.
  bool echo_config = false;
};

// One line: capacity, routing, topology, transport, eager limit.
std::string describe(const Config& config, const Topology& topology);

}  // namespace courier::mailbox
