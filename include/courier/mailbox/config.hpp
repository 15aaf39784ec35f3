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
  // Back pressure (src/mailbox/flow.hpp): batches arrived and not handled yet are this rank's
  // backlog. Past this many bytes it asks every rank to pause its own sends; at half, they
  // resume. A paused rank, like one whose own backlog is past half, stays in its exchange,
  // handling and forwarding, until then. Without it an intermediary of nl / nr / nlnr falls
  // behind the ranks that only send and its backlog grows with the run (bench/soak_layers: 442 MB
  // on one rank over 4x10^6 messages under nlnr; 7.7-10.6 MB over 4-16x10^6 at a 1 MiB mark).
  // A safety bound, not a tuning knob: while a pause lasts the other ranks wait, and cc on kron:17
  // under nlnr (8 ranks as 2x4, backlog 26 MB with no pauses) ran 2x slower at 16 MiB.
  std::size_t pause_backlog_bytes = std::size_t{64} << 20;
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
