#pragma once
// Mailbox<Message>: asynchronous point-to-point and broadcast messages with coalescing, routing
// and termination detection (YGM, paper 001 sections III and IV), on a comm::Runtime.
//
//   std::vector<std::uint64_t> degree(local_vertices);
//   mailbox::Config config;                          // capacity 64 KiB, no routing
//   config.routing = mailbox::Routing::nlnr;
//   auto mb = mailbox::make_mailbox<std::uint64_t>(runtime, [&](auto&, std::uint64_t v) { ++degree[v / p]; }, config);
//   for (auto [u, v] : my_edges) { mb.async_send(u % p, u); mb.async_send(v % p, v); }
//   mb.wait_empty();  // collective: every message, and every message its callback sent, handled
//
// (Mailbox<Message> mb(runtime, callback, config) does the same with a std::function callback.)
//
// Names follow YGM: async_* may run the callback on another rank later; no prefix means every rank
// takes part; local_* concerns this rank only.
//
// Messages are buffered per next hop. When the buffered bytes reach the capacity the rank enters
// an exchange: it hands every batch to the transport, handles the batches that have arrived, and
// returns to the caller without waiting for other ranks. Receive callbacks run on the thread that
// uses the mailbox, inside async_send (during an exchange), test_empty or wait_empty; they may call
// async_send and async_bcast, which then only buffer. One thread uses a mailbox at a time.
//
// Memory: buffered bytes stay near the capacity (peaks of about twice it), also while callbacks
// send, because full buffers go to the transport between records (callbacks never nest). A
// batch in flight to a peer is only taken when that peer makes progress, so one callback that
// sends many capacities' worth (a cascade) can still pile up behind a slow peer: such programs
// queue the work in the callback and do it from their own loop, polling test_empty (as
// algo/mailbox_cc does).
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <utility>

#include "courier/comm/runtime.hpp"
#include "courier/mailbox/codec.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/stats.hpp"
#include "courier/mailbox/untyped.hpp"

namespace courier::mailbox {

// Callback: the receive callback's type. void (the default) keeps it in a std::function; a
// lambda's own type (see make_mailbox) lets the compiler inline it into the receive loop, which
// matters when messages are a few bytes each. It is called as callback(mailbox, message).
template <class Message, class Callback = void>
class Mailbox {
 public:
  using Receive = std::conditional_t<std::is_void_v<Callback>, std::function<void(Mailbox&, const Message&)>, Callback>;

  // Creates an endpoint on `runtime`: build mailboxes in the same order on every rank.
  Mailbox(comm::Runtime& runtime, Receive receive, const Config& config = {})
      : receive_(std::move(receive)),
        untyped_(runtime, config, Codec::fixed_bytes, &Mailbox::deliver, &Mailbox::deliver_run, this) {}
  Mailbox(comm::Runtime& runtime, Receive receive, std::size_t capacity_bytes)
      : Mailbox(runtime, std::move(receive), with_capacity(capacity_bytes)) {}
  Mailbox(const Mailbox&) = delete;
  Mailbox& operator=(const Mailbox&) = delete;

  // Runs the receive callback on `message` at rank `dest` (this rank included), once.
  void async_send(rank_t dest, const Message& message) {
    const auto payload = codec_.encode(message);
    untyped_.template send<Codec::fixed_bytes>(dest, payload.data(), payload.size());
  }
  // Runs the receive callback on `message` at every rank, this one included, once each.
  void async_bcast(const Message& message) {
    const auto payload = codec_.encode(message);
    untyped_.bcast(payload.data(), payload.size());
  }

  // Collective: returns on every rank once no message is buffered, in flight or being handled
  // anywhere, including messages sent by callbacks. The mailbox may be used again afterwards.
  // Throws Cancelled on every rank at the end of the same epoch when the run was asked to stop
  // (courier/core/cancel.hpp): from the request on, callbacks are skipped so that work drains.
  void wait_empty() { untyped_.wait_empty(); }
  // The non-blocking form of wait_empty, for programs with their own work queues: call it when
  // this rank has no work of its own; true once wait_empty would return (then, on every rank).
  // A call that ran callbacks does not count this rank as idle, so work they queued (also through
  // messages to this rank) is done before the ranks agree on the end. Throws Cancelled as
  // wait_empty does.
  bool test_empty() { return untyped_.test_empty(); }
  // True once the run is being cancelled (on this rank or, as far as it has heard, another):
  // callbacks no longer run, and a program with its own work queue may drop it, so that the next
  // test_empty or wait_empty comes soon (and throws Cancelled).
  bool stopping() { return untyped_.stopping(); }

  rank_t rank() const { return untyped_.rank(); }
  rank_t ranks() const { return untyped_.ranks(); }
  const Topology& topology() const { return untyped_.topology(); }
  const Config& config() const { return untyped_.config(); }
  Stats local_stats() const { return untyped_.stats(); }

 private:
  using Codec = detail::Codec<Message>;

  static Config with_capacity(std::size_t capacity_bytes) {
    Config config;
    config.capacity_bytes = capacity_bytes;
    return config;
  }

  static void deliver(void* owner, const std::byte* payload, std::size_t bytes) {
    auto& self = *static_cast<Mailbox*>(owner);
    self.decoder_.decode(payload, bytes, [&self](const Message& message) { self.receive_(self, message); });
  }

  static std::size_t deliver_run(void* owner, const std::byte* data, std::size_t bytes) {
    auto& self = *static_cast<Mailbox*>(owner);
    return detail::decode_batch(self.decoder_, data, bytes,
                                [&self](const Message& message) { self.receive_(self, message); });
  }

  Receive receive_;
  Codec codec_;    // sends
  Codec decoder_;  // receives (a callback may send while its message is still being read)
  detail::Untyped untyped_;
};

// A mailbox whose callback type is the lambda's own (inlined on receipt):
//   auto box = mailbox::make_mailbox<std::uint64_t>(runtime, [&](auto&, std::uint64_t v) { ... }, config);
template <class Message, class Callback>
Mailbox<Message, Callback> make_mailbox(comm::Runtime& runtime, Callback callback, const Config& config = {}) {
  return Mailbox<Message, Callback>(runtime, std::move(callback), config);
}

}  // namespace courier::mailbox
