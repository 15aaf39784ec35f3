#pragma once
// net::Device: the three primitives a transport gives the runtime above it (paper 000, III-D):
// send a bounded frame of bytes to a rank (the eager path), put a byte range into a region a
// remote rank exposed (the rendezvous data path), and progress (which reports what arrived and
// what completed). Nothing blocks: a call that lacks resources answers `retry`.
//
// A Device is driven by one thread at a time (the runtime's progress server, or whichever caller
// holds the runtime's progress lock); it need not be thread-safe. Worker threads reach it only
// through that lock: they hand packets to the runtime, whose progress round packs the packets
// queued for one destination into one frame (or, on the latency path, hand their own frame).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "courier/core/rank.hpp"

namespace courier::net {

enum class Post : std::uint8_t {
  done,    // finished: the caller's bytes may be reused now
  posted,  // under way: completion is reported later by progress()
  retry,   // no resources now: nothing happened, call again later
};

// A region a rank exposed for one incoming put, named so the origin can address it. The runtime
// carries it from target to origin inside its RTR packet, so it is plain bytes.
struct RemoteRegion {
  std::uint64_t address = 0;  // transport-defined: a pointer, a window displacement, a tag
  std::uint64_t key = 0;      // transport-defined: a registration key or a match tag
  std::uint64_t bytes = 0;
};

// What progress() reports. Spans are valid only during the call.
class EventSink {
 public:
  virtual ~EventSink() = default;
  // A frame sent by try_send arrived from `source`, intact and whole.
  virtual void on_frame(rank_t source, std::span<const std::byte> frame) = 0;
  // A put this rank started (try_put returned `posted`) finished: its source bytes may be reused.
  virtual void on_put_sent(std::uint64_t context) = 0;
  // A region this rank exposed has been filled by its origin's put; the bytes are in place.
  virtual void on_put_arrived(std::uint64_t context) = 0;
};

class Device {
 public:
  virtual ~Device() = default;

  virtual rank_t rank() const = 0;
  virtual rank_t ranks() const = 0;
  virtual std::string name() const = 0;  // "local", "mpi", "ofi"
  // Largest frame try_send takes; the runtime's eager limit and packing are sized by it.
  virtual std::size_t max_frame_bytes() const = 0;
  // Each rank's node, indexed by rank: equal values share a machine's memory (the mailbox routes
  // by it). A transport that cannot tell reports every rank on node 0.
  virtual std::vector<int> rank_nodes() const { return std::vector<int>(static_cast<std::size_t>(ranks()), 0); }

  // Sends `frame` to `dest` (which may be this rank). `done` means the bytes were copied or sent
  // and the span may be reused; `retry` means nothing was sent. Frames from one source to one
  // destination may arrive in any order.
  virtual Post try_send(rank_t dest, std::span<const std::byte> frame) = 0;

  // Prepares `region` to receive exactly one put of region.size() bytes from `origin`. `context`
  // comes back in on_put_arrived. `retry` when the transport is out of resources.
  virtual Post try_expose(rank_t origin, std::span<std::byte> region, std::uint64_t context,
                          RemoteRegion& named) = 0;

  // Writes `data` into the region `target` exposed (named by `region`); on_put_sent(context)
  // here and on_put_arrived(its context) there report completion. `done` when the copy already
  // completed (no on_put_sent follows); `posted` when it is under way; `retry` on no resources.
  virtual Post try_put(rank_t target, const RemoteRegion& region, std::span<const std::byte> data,
                       std::uint64_t context) = 0;

  // Moves the network along and reports events to `sink`; returns how many it reported.
  virtual std::size_t progress(EventSink& sink) = 0;

  // Collective across ranks: returns when every rank has called it. Used at start-up and
  // shut-down only, never on a hot path.
  virtual void barrier() = 0;
};

}  // namespace courier::net
