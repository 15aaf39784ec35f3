#pragma once
// The runtime's statistics (one rank): what it sent and received, how often a post answered
// retry, and how close the packet pool came to running out.
#include <cstdint>
#include <string>

namespace courier::comm {

struct Stats {
  // Posted by the caller's threads, counted as their first packet leaves in a frame.
  std::uint64_t messages_sent = 0;     // sends answered done or posted
  std::uint64_t eager_sent = 0;        // ... of which eager (EGR: data in the packet)
  std::uint64_t rendezvous_sent = 0;   // ... of which rendezvous (RTS -> RTR -> put)
  std::uint64_t bytes_sent = 0;        // message bytes of those sends
  std::uint64_t puts = 0, gets = 0;    // one-sided posts answered done or posted
  std::uint64_t retries = 0;           // posts answered retry (no packet, queue full, no slot)
  // Counted as the runtime progresses.
  std::uint64_t messages_received = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t packets_sent = 0, packets_received = 0;  // packets packed into / read from frames
  std::uint64_t frames_sent = 0, frames_received = 0;    // transport frames (many packets each)
  std::uint64_t frame_bytes_sent = 0;
  std::uint64_t device_retries = 0;    // the transport answered retry (ring / network full)
  std::uint64_t discarded = 0;         // messages that arrived during shutdown with nowhere to go
  std::uint64_t dropped = 0;           // packets still queued when the shutdown timeout expired
  std::uint64_t freed_undelivered = 0; // received messages nobody took, freed at destruction
  // The packet pool.
  std::uint64_t pool_packets = 0;
  std::uint64_t pool_high_water = 0;   // most packets in use at once
};

// One line per group, "name value" pairs; for logs and benchmark output.
std::string to_string(const Stats& stats);

}  // namespace courier::comm
