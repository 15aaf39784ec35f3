#pragma once
// What one rank's mailbox did. A message is one record (one send, or one copy of a broadcast on
// one hop, forwarded ones included); a batch is the coalesced buffer of records handed to the
// transport for one next hop, i.e. the "message" of paper 001's section III-E. Local means the
// next hop is on this rank's node (this rank included), remote on another node.
#include <cstdint>
#include <string>

namespace courier::mailbox {

struct Stats {
  std::uint64_t messages_local = 0;     // records in batches sent to ranks of this node
  std::uint64_t messages_remote = 0;    // records in batches sent to ranks of other nodes
  std::uint64_t messages_self = 0;      // of messages_local, those this rank handed to itself
  std::uint64_t bytes_local = 0;        // batch bytes to ranks of this node (records and headers)
  std::uint64_t bytes_remote = 0;       // batch bytes to ranks of other nodes
  std::uint64_t batches_local = 0;      // batches to ranks of this node (to itself included)
  std::uint64_t batches_remote = 0;     // batches to ranks of other nodes
  std::uint64_t messages_forwarded = 0; // records this rank passed on as an intermediary
  std::uint64_t messages_delivered = 0; // receive callbacks run on this rank
  std::uint64_t exchanges = 0;          // times the buffers reached capacity
  std::uint64_t send_retries = 0;       // batches the transport could not take at once
  std::uint64_t termination_waves = 0;  // counting waves this rank answered
  std::uint64_t pauses = 0;             // back pressure: times this rank asked every other to pause
  std::uint64_t peak_buffered_bytes = 0;
  std::uint64_t peak_in_flight_bytes = 0;  // rendezvous batches handed over and not yet read
  std::uint64_t peak_backlog_bytes = 0;    // batches arrived and not handled yet (the backlog)

  // The measured counterpart of section III-E's average message size: bytes per remote batch.
  double average_remote_batch_bytes() const {
    return batches_remote == 0 ? 0.0 : static_cast<double>(bytes_remote) / static_cast<double>(batches_remote);
  }
  Stats& operator+=(const Stats& other);  // sums counters; peak takes the larger
};

// One line per counter, "name value", for printing at the end of a run.
std::string format(const Stats& stats);

}  // namespace courier::mailbox
