#pragma once
// Arrivals: what the transport brings, read by the progress lock's holder (paper 000,
// Algorithm 3). A frame is cut into its packets: EGR and RTS become messages at their endpoint
// (Delivery), RTR starts the origin's put and GET is answered with one (Rendezvous), one-sided
// puts land in their window, FIN counts towards shutdown. A packet for an endpoint not created
// here yet is kept (an orphan) and dispatched again each round until it is.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <utility>
#include <vector>

#include "counters.hpp"
#include "courier/net/device.hpp"
#include "delivery.hpp"
#include "endpoints.hpp"
#include "progress_lock.hpp"
#include "rendezvous.hpp"
#include "windows.hpp"
#include "wire.hpp"

namespace courier::comm {

class Arrivals {
 public:
  Arrivals(const Endpoints& endpoints, Windows& windows, Delivery& delivery, Rendezvous& rendezvous,
           rank_t ranks, std::size_t orphan_limit)
      : endpoints_(endpoints),
        windows_(windows),
        delivery_(delivery),
        rendezvous_(rendezvous),
        orphan_limit_(orphan_limit),
        held_(static_cast<std::size_t>(ranks)) {}

  class Sink;

  const Counters& counters() const { return counters_; }

  // Dispatches again the packets kept for endpoints not created yet. `blocked`: more of them
  // than the pool holds. The work done.
  std::size_t retry_orphans(ProgressToken token, bool closing, bool& blocked) {
    return held_.get(token).orphans.empty() ? 0 : retry_orphans_now(token, closing, blocked);
  }
  // Everything `source` announced in its FIN has arrived.
  bool heard_all(ProgressToken token, rank_t source) const {
    const Source& s = held_.get(token).sources[static_cast<std::size_t>(source)];
    return s.fin_received && s.packets_received >= s.fin_count;
  }

 private:
  // What arrived from one source, for the FIN exchange at shutdown.
  struct Source {
    std::uint64_t packets_received = 0;
    bool fin_received = false;
    std::uint64_t fin_count = 0;  // packets it sent to this rank before its FIN
  };
  struct Held {
    explicit Held(std::size_t ranks) : sources(ranks) {}
    std::vector<Source> sources;
    std::deque<std::pair<rank_t, std::vector<std::byte>>> orphans;  // for endpoints not created yet
  };

  // False when the packet's endpoint does not exist (yet): nothing was done.
  bool dispatch(ProgressToken token, rank_t source, const wire::Header& h, std::span<const std::byte> payload);
  std::size_t retry_orphans_now(ProgressToken token, bool closing, bool& blocked);
  // A message of `size` bytes for e, counted; its data not placed yet.
  Completion received(EndpointState& e, rank_t source, const wire::Header& h, std::size_t size);
  // A message for a match_tags endpoint: its data goes into the buffer of the recv posted for
  // it, if there is one (Matching::take_posted; truncated if larger), else into allocator
  // memory. True when matched (c has the recv's context).
  bool place_for_recv(EndpointState& e, Completion& c);

  const Endpoints& endpoints_;
  Windows& windows_;
  Delivery& delivery_;
  Rendezvous& rendezvous_;
  Counters counters_;
  const std::size_t orphan_limit_;
  Locked<Held> held_;
};

// The transport's events during one round (Device::progress), with the round's token.
class Arrivals::Sink final : public net::EventSink {
 public:
  Sink(Arrivals& arrivals, ProgressToken token) : arrivals_(arrivals), token_(token) {}
  void on_frame(rank_t source, std::span<const std::byte> frame) override;
  void on_put_sent(std::uint64_t context) override { arrivals_.rendezvous_.on_put_sent(token_, context); }
  void on_put_arrived(std::uint64_t context) override { arrivals_.rendezvous_.on_put_arrived(token_, context); }

 private:
  Arrivals& arrivals_;
  ProgressToken token_;  // the round's, for this call of Device::progress only
};

}  // namespace courier::comm
