#pragma once
// Channel: how master/mirror synchronisation communicates (the "communication layer" of paper 000, III-A). One
// synchronisation is a phase in which this rank sends one message to each rank in a known set and
// receives one from each rank in another; compute threads gather into buffers and hand them over,
// and take received buffers as they arrive, in any order, to scatter them. Three implementations
// (lci on comm/, mpi-probe and mpi-rma on MPI) sit behind this interface so every algorithm runs
// unchanged on each and they can be compared.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "courier/core/backoff.hpp"
#include "courier/core/rank.hpp"
#include "courier/sync/wait.hpp"

namespace courier::sync {

using Bytes = std::vector<std::byte>;

struct Received {
  rank_t source = -1;
  Bytes bytes;
};

struct ChannelStats {
  std::uint64_t messages_sent = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t phases = 0;
  std::uint64_t buffer_bytes_peak = 0;  // the most bytes of communication buffers alive at once
  double setup_seconds = 0;             // e.g. window creation
};

class Channel {
 public:
  virtual ~Channel() = default;

  virtual rank_t rank() const = 0;
  virtual rank_t ranks() const = 0;
  virtual std::string name() const = 0;

  // Once per pattern, before its first phase: the largest message this rank may send to each
  // peer and receive from each peer in one phase (indexed by rank). MPI-RMA sizes its windows
  // with it; the others ignore it. Collective.
  virtual void reserve(std::span<const std::size_t> max_send, std::span<const std::size_t> max_receive) = 0;

  // The largest message this channel wants, or 0 for any size. A channel that streams (lci) gets
  // every peer's share cut into messages of at most this many bytes, each sent as soon as it is
  // gathered and scattered as soon as it arrives, so that its buffers stay few and small however
  // large the graph. A sparse phase then sends one small message per peer, a dense one many.
  virtual std::size_t message_limit() const { return 0; }

  // Starts a phase: one message goes to each entry of `to` (a rank appears once per message);
  // one comes from each rank of `from`, or, on a streaming channel, as many as that rank cut its
  // share into (the messages say how many). Called by one thread; the calls below may come from
  // many threads at once.
  virtual void begin_phase(std::span<const rank_t> to, std::span<const rank_t> from) = 0;
  // A buffer of at least `bytes` capacity to gather into (recycled when possible), empty. Gather
  // no more than `bytes` into it: a buffer that grows escapes the channel's footprint accounting.
  virtual Bytes acquire(std::size_t bytes) = 0;
  // Whether `peer` has room for another message now (receive-side flow control). A caller that
  // gets false receives (try_receive) before asking again, so that two ranks waiting for each
  // other's room still progress. Advisory: send() never refuses, and a channel lets a few threads
  // that asked at once overshoot. Layers without flow control always answer true.
  virtual bool may_send(rank_t /*peer*/) { return true; }
  // Hands the message for `peer` over; the channel owns `message` from now on.
  virtual void send(rank_t peer, Bytes message) = 0;
  // The next message of this phase that has arrived, if any; nullopt when none has yet (or all
  // have been taken). Never blocks.
  virtual std::optional<Received> try_receive() = 0;
  // Gives a received buffer back for reuse.
  virtual void release(Bytes buffer) = 0;
  // Ends the phase after every message was sent and received. Called by one thread.
  virtual void end_phase() = 0;

  // Collectives over all ranks, called by one thread of each rank in the same order: termination
  // detection (are there active vertices anywhere?), global sums such as PageRank's dangling
  // mass, and timings.
  virtual std::uint64_t sum_all(std::uint64_t value) = 0;
  virtual double sum_all(double value) = 0;
  virtual double max_all(double value) = 0;

  virtual ChannelStats stats() const = 0;
  // How a thread that found nothing to receive (or no room to send) waits before it asks again.
  virtual Backoff::Limits wait_limits() const { return kPhaseWait; }
  // Starts the footprint anew, e.g. for a run after a load that used this channel: idle recycled
  // buffers are freed, and buffer_bytes_peak counts from the bytes still alive (such as RMA
  // windows). Called by one thread, outside a phase.
  virtual void restart_buffer_peak() {}
};

}  // namespace courier::sync
