#pragma once
// Mailbox<Message>: asynchronous point-to-point and broadcast messages with coalescing, routing
// and termination detection (YGM, paper 001 sections III and IV), on a comm::Runtime.
//
//   std::vector<std::uint64_t> degree(local_vertices);
//   mailbox::Mailbox<std::uint64_t> mb(runtime, [&](auto&, std::uint64_t v) { ++degree[v / p]; },
//                                      {.capacity_bytes = 1 << 18, .routing = mailbox::Routing::nlnr});
//   for (auto [u, v] : my_edges) { mb.async_send(u % p, u); mb.async_send(v % p, v); }
//   mb.wait_empty();  // collective: every message, and every message its callback sent, handled
//
// Names follow YGM: async_* may run the callback on another rank later; no prefix means every rank
// takes part; local_* concerns this rank only.
//
// Messages are buffered per next hop. When the buffered bytes reach the capacity the rank enters
// an exchange: it hands every batch to the transport, handles the batches that have arrived, and
// returns to the caller without waiting for other ranks. Receive callbacks run on the thread that
// uses the mailbox, inside async_send (during an exchange), test_empty or wait_empty; they may call
// async_send and async_bcast, which then only buffer. One thread uses a mailbox at a time.
#include <functional>
#include <utility>

#include "courier/comm/runtime.hpp"
#include "courier/mailbox/codec.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/core.hpp"
#include "courier/mailbox/stats.hpp"

namespace courier::mailbox {

template <class Message>
class Mailbox {
 public:
  using Receive = std::function<void(Mailbox&, const Message&)>;

  // Creates an endpoint on `runtime`: build mailboxes in the same order on every rank.
  Mailbox(comm::Runtime& runtime, Receive receive, const Config& config = {})
      : receive_(std::move(receive)), core_(runtime, config, Codec::fixed_bytes, &Mailbox::deliver, this) {}
  Mailbox(comm::Runtime& runtime, Receive receive, std::size_t capacity_bytes)
      : Mailbox(runtime, std::move(receive), with_capacity(capacity_bytes)) {}
  Mailbox(const Mailbox&) = delete;
  Mailbox& operator=(const Mailbox&) = delete;

  // Runs the receive callback on `message` at rank `dest` (this rank included), once.
  void async_send(rank_t dest, const Message& message) {
    const auto payload = codec_.encode(message);
    core_.template send<Codec::fixed_bytes>(dest, payload.data(), payload.size());
  }
  // Runs the receive callback on `message` at every rank, this one included, once each.
  void async_bcast(const Message& message) {
    const auto payload = codec_.encode(message);
    core_.bcast(payload.data(), payload.size());
  }

  // Collective: returns on every rank once no message is buffered, in flight or being handled
  // anywhere, including messages sent by callbacks. The mailbox may be used again afterwards.
  void wait_empty() { core_.wait_empty(); }
  // The non-blocking form of wait_empty, for programs with their own work queues: call it when
  // this rank has no work of its own; true once wait_empty would return (then, on every rank).
  bool test_empty() { return core_.test_empty(); }

  rank_t rank() const { return core_.rank(); }
  rank_t size() const { return core_.size(); }
  const Topology& topology() const { return core_.topology(); }
  const Config& config() const { return core_.config(); }
  Stats local_stats() const { return core_.stats(); }

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

  Receive receive_;
  Codec codec_;    // sends
  Codec decoder_;  // receives (a callback may send while its message is still being read)
  detail::Core core_;
};

}  // namespace courier::mailbox
