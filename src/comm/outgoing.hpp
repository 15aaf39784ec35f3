#pragma once
// Outgoing: what this rank sends. Posting threads push packets (from the pool) into one MPMC
// queue of (packet, destination) for the whole rank, and count them per destination; the progress
// lock's holder moves them to their destination's list, packs each listed destination's packets --
// the runtime's own control packets (RTR, FIN) first -- into one frame of up to max_frame_bytes
// and hands it to the transport in one try_send. This is what makes many small messages cheaper
// than one transport message each.
//
// Per-peer state is small and made only for peers this rank sends to: a count of queued packets
// (4 bytes for every peer) and, once a peer is sent to, its Packing (a hundred-odd bytes; lists,
// not buffers). The frame being packed is one buffer for all destinations; a frame the transport
// refuses is kept, in a buffer of its own size, until it goes.
//
// The latency path: when nothing is queued for a destination and nobody is progressing, a
// poster packs its eager packet straight into the frame and hands it to the transport itself
// (try_send_direct): no pool packet, no queue, no hand-off.
#include <atomic>
#include <cstddef>
#include <cstdint>
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
  // and `payload` queued for dest; false (nothing queued) when no packet is free or dest already
  // has queue_packets queued.
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
  // Packs and hands over what the queued and listed destinations hold; the frames sent.
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
  // Destinations this rank has a Packing for (peers it sent to), for tests and estimates.
  std::size_t destinations_made(ProgressToken token) const { return held_.get(token).made; }

  // Bytes this part holds for `ranks` peers before anything is sent, and per destination sent to.
  static std::size_t fixed_bytes(rank_t ranks, std::size_t packet_count, std::size_t frame_bytes);
  static constexpr std::size_t bytes_per_destination = 160;

 private:
  // A destination's packets waiting for a frame. Only the lock holder touches it.
  struct Packing {
    std::vector<std::vector<std::byte>> control;  // packets the runtime itself sends (RTR, FIN)
    std::size_t control_next = 0;
    std::vector<std::byte*> queued;  // pooled packets taken from the queue, in posting order
    std::size_t queued_next = 0;
    std::vector<std::byte> kept;  // a packed frame the transport has not taken yet
    std::uint64_t packets_sent = 0;
    std::uint64_t direct_round = ~std::uint64_t{0};  // the round of the last direct send
    bool listed = false;                             // in Held::flushing
    // Nothing of this destination's is between a poster and the transport but the queue.
    bool nothing_held() const { return control_next == control.size() && queued_next == queued.size() && kept.empty(); }
  };
  struct Queued {
    std::byte* packet = nullptr;
    rank_t dest = 0;
  };
  struct Held {
    Held(rank_t ranks, std::size_t frame_bytes) : packings(static_cast<std::size_t>(ranks)), frame(frame_bytes) {}
    std::vector<std::unique_ptr<Packing>> packings;  // by destination; made on first use
    std::vector<rank_t> flushing;                    // destinations with something left to send
    std::vector<std::byte> frame;                    // the frame being packed, for every destination
    std::uint64_t round = 0;                         // rounds of progress so far
    std::size_t made = 0;                            // packings made
  };

  Packing& packing(Held& held, rank_t dest);
  void take_queued(Held& held);
  std::uint64_t return_queued(Held& held);  // every queued packet back to the pool; how many
  void list_for_flush(Held& held, rank_t dest, Packing& p);
  bool flush(Held& held, rank_t dest, Packing& p);  // true when dest has nothing left to send
  std::size_t fill_frame(Held& held, rank_t dest, Packing& p);
  bool send_frame(rank_t dest, std::span<const std::byte> frame);
  void count_packed(const wire::Header& h);
  void unqueued(rank_t dest) { pending_[static_cast<std::size_t>(dest)].fetch_sub(1, std::memory_order_release); }

  net::Device& device_;
  PacketPool& pool_;
  ProgressLock& lock_;
  const OriginSlots& slots_;
  Counters counters_;
  const std::size_t frame_bytes_;
  const std::size_t queue_packets_;
  // Packets posted and not yet packed, by destination: bounds a destination's share of the pool
  // and tells the latency path that something of dest's is on its way.
  std::unique_ptr<std::atomic<std::uint32_t>[]> pending_;
  MpmcQueue<Queued> queue_;  // room for every packet of the pool
  Locked<Held> held_;
};

}  // namespace courier::comm
