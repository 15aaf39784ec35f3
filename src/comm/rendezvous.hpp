#pragma once
// Rendezvous: the transfers too large for a packet (paper 000, III-D). A large send or put
// announces itself (RTS, with its origin slot); the target allocates or finds the destination,
// exposes it and answers RTR with the region; the origin puts the data there. The target learns
// from the transport that the put landed, the origin that its source may be reused; a get is
// answered with a put into the origin's exposed destination. All run by the progress lock's
// holder; a transfer the transport refuses (retry) waits and is offered again each round.
#include <cstdint>
#include <deque>
#include <span>
#include <unordered_map>

#include "counters.hpp"
#include "courier/net/device.hpp"
#include "delivery.hpp"
#include "endpoints.hpp"
#include "origin_slots.hpp"
#include "outgoing.hpp"
#include "progress_lock.hpp"

namespace courier::comm {

class Rendezvous {
 public:
  Rendezvous(net::Device& device, OriginSlots& slots, const Endpoints& endpoints, Outgoing& outgoing,
             Delivery& delivery, rank_t rank)
      : device_(device),
        slots_(slots),
        endpoints_(endpoints),
        outgoing_(outgoing),
        delivery_(delivery),
        rank_(rank) {}

  const Counters& counters() const { return counters_; }

  // Target side: exposes `region` for the origin's put into it and answers RTR (naming the
  // origin's `slot`). `arrival` (null for a put into a window) becomes ready when the put lands.
  void expose(ProgressToken token, rank_t origin, std::span<std::byte> region, Arrival* arrival,
              std::uint64_t slot);
  // Origin side: the target's RTR for `slot`; puts the data into `region`.
  void answer_rtr(ProgressToken token, rank_t target, const net::RemoteRegion& region, std::uint64_t slot);
  // Target of a get: puts `data` into the origin's exposed `region`.
  void answer_get(ProgressToken token, rank_t origin, const net::RemoteRegion& region,
                  std::span<const std::byte> data);
  // The transport's notices (net::EventSink).
  void on_put_sent(ProgressToken token, std::uint64_t context);
  void on_put_arrived(ProgressToken token, std::uint64_t context);

  // Offers the transport again what it refused.
  void retry_refused(ProgressToken token) {
    const Held& held = held_.get(token);
    if (!held.exposes.empty() || !held.puts.empty()) retry_refused_now(token);
  }
  bool refused_puts(ProgressToken token) const { return !held_.get(token).puts.empty(); }
  // A put into this rank is awaited (only the transport can bring its notice).
  bool awaiting_puts(ProgressToken token) const { return !held_.get(token).incoming.empty(); }
  // No transfer in flight at the origin, none waiting for the transport.
  bool idle(ProgressToken token) const {
    const Held& held = held_.get(token);
    return !slots_.busy() && held.puts.empty() && held.exposes.empty();
  }
  // Destruction: forgets the awaited puts.
  void forget_incoming(ProgressToken token) { held_.get(token).incoming.clear(); }

 private:
  static constexpr std::uint64_t get_answer_context = ~std::uint64_t{0};  // a put answering a get
  struct PendingExpose {
    rank_t origin = -1;
    std::span<std::byte> region;
    std::uint64_t context = 0;  // the key in Held::incoming
    std::uint64_t slot = 0;     // the origin's slot, echoed in the RTR
  };
  struct PendingPut {
    rank_t target = -1;
    net::RemoteRegion region;
    std::span<const std::byte> data;
    std::uint64_t context = 0;
  };
  struct Held {
    std::unordered_map<std::uint64_t, Arrival*> incoming;  // awaited puts; null: into a window
    std::uint64_t next_incoming = 1;
    std::deque<PendingPut> puts;
    std::deque<PendingExpose> exposes;
  };

  void expose_and_answer(ProgressToken token, PendingExpose expose);
  void start_put(ProgressToken token, rank_t target, const net::RemoteRegion& region,
                 std::span<const std::byte> data, std::uint64_t context);
  void complete_origin(ProgressToken token, std::uint32_t slot);
  void retry_refused_now(ProgressToken token);

  net::Device& device_;
  OriginSlots& slots_;
  const Endpoints& endpoints_;
  Outgoing& outgoing_;
  Delivery& delivery_;
  Counters counters_;
  const rank_t rank_;
  Locked<Held> held_;
};

}  // namespace courier::comm
