#pragma once
// Outgoing: what this rank sends, per destination. Posting threads push packets (from the pool)
// into the destination's MPMC queue and mark it in a bitmap (dirty); the progress lock's holder
// takes the marked destinations, packs their packets -- the runtime's own control packets (RTR,
// FIN) first -- into one frame of up to max_frame_bytes and hands it to the transport in one
// try_send. This is what makes many small messages cheaper than one transport message each.
//
// The latency path: when nothing is queued for a destination and nobody is progressing, a
// poster packs its eager packet straight into the destination's frame and hands it to the
// transport itself (try_send_direct): no pool packet, no queue, no hand-off.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "counters.hpp"
#include "courier/core/mpmc_queue.hpp"
#include "courier/core/packet_pool.hpp"
#include "courier/net/device.hpp"
#include "origin_slots.hpp"
#include "progress_lock.hpp"
#include "wire.hpp"

namespace courier::comm {

class Outgoing {
 public:
  Outgoing(net::Device& device, PacketPool& pool, ProgressLock& lock, const OriginSlots& slots, rank_t ranks,
           std::size_t queue_packets);

  const Counters& counters() const { return counters_; }

  // Posting side (any thread). A packet carrying `h` (its payload field set to payload_bytes)
  // and `payload` into dest's queue; false (nothing queued) when no packet is free or the queue
  // is full.
  bool enqueue(rank_t dest, wire::Header h, std::span<const std::byte> payload, std::size_t payload_bytes);
  // An eager packet for `dest` goes straight into a frame and to the device when nothing of
  // dest's is queued, nobody is progressing, and no packet went to dest this way since the last
  // round of progress; false (nothing done) otherwise. The last condition keeps bursts packed:
  // the first packet of a burst leaves at once, the rest share the next round's frames.
  bool try_send_direct(rank_t dest, const wire::Header& h, std::span<const std::byte> payload);

  // The progress lock's holder.
  void new_round(ProgressToken token) { ++held_.get(token).round; }
  // A packet of the runtime's own (RTR, FIN), sent before dest's queued packets.
  void send_control(ProgressToken token, rank_t dest, const wire::Header& h,
                    std::span<const std::byte> payload = {});
  // Packs and hands over what the marked and listed destinations hold; the frames sent.
  std::size_t flush_listed(ProgressToken token);
  // Something posted or packed still waits to go to the transport.
  bool holds_packets(ProgressToken token) const;
  // Control packets and frames of dest's all went to the transport (queued packets not counted).
  bool control_sent(ProgressToken token, rank_t dest) const;
  std::uint64_t packets_sent(ProgressToken token, rank_t dest) const;  // for FIN
  // Shutdown timed out: queued and packed packets are dropped (Counters::dropped).
  void drop_unsent(ProgressToken token);
  // Destruction: queued packets go back to the pool.
  void release_queued(ProgressToken token);

 private:
  // A destination's frame and what waits to go into it.
  struct Packing {
    explicit Packing(std::size_t frame_bytes) : frame(frame_bytes) {}
    std::deque<std::vector<std::byte>> control;  // packets the runtime itself sends (RTR, FIN)
    std::byte* carry = nullptr;                  // dequeued, did not fit the last frame
    std::vector<std::byte> frame;
    std::size_t frame_used = 0;                  // a packed frame the transport has not taken yet
    std::uint64_t packets_sent = 0;
    bool listed = false;                         // in Held::flushing
    std::uint64_t direct_round = ~std::uint64_t{0};  // the round of the last direct send
    // Nothing of this destination's is between a poster and the transport but its queue.
    bool nothing_held() const { return control.empty() && carry == nullptr && frame_used == 0; }
  };
  // One destination: the posters' packets, and what the lock holder packs for it.
  struct Destination {
    Destination(std::size_t queue_packets, std::size_t frame_bytes) : packets(queue_packets), packing(frame_bytes) {}
    MpmcQueue<std::byte*> packets;
    // Raised by posters after a push, cleared by the lock holder; its own line, away from the queue's.
    alignas(cache_line_bytes) std::atomic<bool> queued{false};
    alignas(cache_line_bytes) Locked<Packing> packing;
  };
  struct Held {
    explicit Held(rank_t ranks) { flushing.reserve(static_cast<std::size_t>(ranks)); }
    std::vector<rank_t> flushing;  // destinations with something left to send
    std::uint64_t round = 0;       // rounds of progress so far
  };

  void mark_dirty(rank_t dest);
  void list_for_flush(Held& held, rank_t dest, Packing& p);
  bool flush(rank_t dest, Destination& d, Packing& p);  // true when dest has nothing left to send
  void fill_frame(rank_t dest, Destination& d, Packing& p);
  bool send_frame(rank_t dest, Packing& p, std::size_t used);
  void count_packed(const wire::Header& h);
  Destination& destination(rank_t dest) { return *destinations_[static_cast<std::size_t>(dest)]; }

  net::Device& device_;
  PacketPool& pool_;
  ProgressLock& lock_;
  const OriginSlots& slots_;
  Counters counters_;
  const std::size_t frame_bytes_;
  std::vector<std::unique_ptr<Destination>> destinations_;
  // Destinations whose queue got packets since the lock holder last looked, one bit each, set
  // by posters and taken by the holder.
  std::vector<std::atomic<std::uint64_t>> dirty_;
  Locked<Held> held_;
};

}  // namespace courier::comm
