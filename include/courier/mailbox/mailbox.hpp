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
// async_send and async_bcast, which then only buffer.
//
// Threads (Config::threads = T > 1; paper 001's section VII future work): T compute threads of a
// rank use its mailbox at once, thread t through thread(t) only, each with coalescing buffers of
// its own (a share of the capacity) that it hands to the rank's batches under one lock. The rank
// keeps one set of batches and one termination detection. Callbacks run on whichever of the
// rank's threads is inside the mailbox (handing over, test_empty, wait_empty), one at a time:
// callbacks of a rank never run concurrently with each other, but they do run concurrently with
// the other threads' own code, so data both touch needs atomics or a split by thread.
// callback_thread() says which thread runs the callback; work a callback gives the program must
// be done by that thread (queue it per thread), since a thread that calls test_empty declares
// that it has none. Every thread calls wait_empty (or test_empty until true) in every epoch.
//
// Threading contract, method by method: with T = 1 one thread uses the mailbox at a time (any
// thread, one after another); with T > 1 the Mailbox's own async_send / async_bcast only from
// callbacks, wait_empty / test_empty only through thread(t), and local_stats once the threads
// have left the epoch.
//
// Memory: buffered bytes stay near the capacity (peaks of about twice it), also while callbacks
// send, because full buffers go to the transport between records (callbacks never nest). A
// batch in flight to a peer is only taken when that peer makes progress, so one callback that
// sends many capacities' worth (a cascade) can still pile up behind a slow peer: such programs
// queue the work in the callback and do it from their own loop, polling test_empty (as
// algo/mailbox_cc does).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/core/backoff.hpp"
#include "courier/core/error.hpp"
#include "courier/mailbox/codec.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/shared_use.hpp"
#include "courier/mailbox/stage.hpp"
#include "courier/mailbox/stats.hpp"
#include "courier/mailbox/untyped.hpp"

namespace courier::mailbox {

// Callback: the receive callback's type. void (the default) keeps it in a std::function; a
// lambda's own type (see make_mailbox) lets the compiler inline it into the receive loop, which
// matters when messages are a few bytes each. It is called as callback(mailbox, message).
template <class Message, class Callback = void>
class Mailbox {
  using Codec = detail::Codec<Message>;

 public:
  using Receive = std::conditional_t<std::is_void_v<Callback>, std::function<void(Mailbox&, const Message&)>, Callback>;

  // Creates an endpoint on `runtime`: build mailboxes in the same order on every rank. Threads:
  // one thread builds it; the threads that use it start afterwards.
  Mailbox(comm::Runtime& runtime, Receive receive, const Config& config = {})
      : receive_(std::move(receive)),
        untyped_(runtime, config, Codec::fixed_bytes, &Mailbox::deliver, &Mailbox::deliver_run, this) {
    if (config.threads > 1) {
      shared_ = std::make_unique<detail::SharedUse>(untyped_, config.threads);
      stage_limit_ = std::max<std::size_t>(config.capacity_bytes / config.threads, 1);
    }
    for (unsigned t = 0; t < std::max(config.threads, 1u); ++t) threads_.push_back(std::make_unique<Thread>(*this, t));
  }
  Mailbox(comm::Runtime& runtime, Receive receive, std::size_t capacity_bytes)
      : Mailbox(runtime, std::move(receive), with_capacity(capacity_bytes)) {}
  Mailbox(const Mailbox&) = delete;
  Mailbox& operator=(const Mailbox&) = delete;

  // One compute thread's use of a mailbox (T = Config::threads). Threads: thread t's object is
  // used by one thread at a time (thread t); the T objects by T threads at once. Never from a
  // callback (callbacks send through the Mailbox they are given). With T = 1 it forwards to the
  // Mailbox itself.
  class Thread {
   public:
    // Its buffers exist only when T > 1 (T = 1 forwards to the Mailbox).
    Thread(Mailbox& box, unsigned index)
        : box_(box), index_(index), stage_(box.shared_ ? box.ranks() : 0, Codec::fixed_bytes) {}
    Thread(const Thread&) = delete;
    Thread& operator=(const Thread&) = delete;

    unsigned index() const { return index_; }
    // As Mailbox::async_send: buffered in this thread's own buffers, handed to the rank's once
    // they hold their share of the capacity (callbacks may then run on this thread, one at a
    // time with the other threads').
    void async_send(rank_t dest, const Message& message) {
      if (!box_.shared_) return box_.async_send(dest, message);
      if (static_cast<std::uint32_t>(dest) >= static_cast<std::uint32_t>(box_.ranks()))
        box_.untyped_.bad_destination(dest);
      const auto payload = codec_.encode(message);
      stage_.add(dest, payload.data(), payload.size());
      if (stage_.bytes() >= box_.stage_limit_) hand_over(false);
    }
    // As Mailbox::async_bcast; this thread's buffered sends are handed over first (callbacks may
    // run on this thread).
    void async_bcast(const Message& message) {
      if (!box_.shared_) return box_.async_bcast(message);
      const auto payload = codec_.encode(message);
      box_.shared_->locked(index_, true, [&](detail::Untyped& untyped) {
        stage_.template hand_over<Codec::fixed_bytes>(untyped);
        untyped.bcast(payload.data(), payload.size());
      });
    }
    // As Mailbox::test_empty, for this thread: call it when this thread has no work of its own
    // (work callbacks gave it included). True once every thread of every rank is done with the
    // epoch, then once on each thread. Runs callbacks on this thread; throws Cancelled on every
    // thread when the epoch ended cancelled.
    bool test_empty() {
      if (!box_.shared_) return box_.test_empty();
      hand_over(true);
      return box_.shared_->test_empty(index_);
    }
    // As Mailbox::wait_empty: every thread of every rank calls it in every epoch, and each
    // returns once all are done (callbacks run on whichever is inside).
    void wait_empty() {
      if (!box_.shared_) return box_.wait_empty();
      Backoff backoff;
      while (!test_empty()) backoff.pause();
    }
    // As Mailbox::stopping; never waits for the rank's lock (an answer a moment old will do).
    bool stopping() { return box_.shared_ ? box_.shared_->stopping() : box_.stopping(); }
    // This thread stops for good: its own code failed outside the mailbox. The rank's other
    // threads would wait for it in test_empty / wait_empty forever; from now on those calls throw
    // Error instead, so they stop too (the failing thread reports why). No-op with T = 1.
    void abandon() {
      if (box_.shared_) box_.shared_->abandon();
    }

   private:
    // must false: skipped while another thread holds the rank's lock, unless this thread's
    // buffers have grown to four shares (then it waits).
    void hand_over(bool must) {
      if (stage_.bytes() == 0) return;
      box_.shared_->locked(index_, must || stage_.bytes() >= 4 * box_.stage_limit_, [this](detail::Untyped& untyped) {
        stage_.template hand_over<Codec::fixed_bytes>(untyped);
      });
    }

    Mailbox& box_;
    unsigned index_;
    Codec codec_;
    detail::Stage stage_;
  };

  // Thread t's handle, t < Config::threads. Threads: any thread, at any time (the handles live
  // as long as the mailbox).
  Thread& thread(unsigned t) { return *threads_.at(t); }
  unsigned threads() const { return static_cast<unsigned>(threads_.size()); }
  // Inside a callback: the index of the thread running it (0 when T = 1). Elsewhere meaningless.
  unsigned callback_thread() const { return shared_ ? shared_->holder() : 0; }

  // Runs the receive callback on `message` at rank `dest` (this rank included), once. Threads:
  // T = 1, one thread at a time; T > 1, only from callbacks (threads use thread(t)).
  void async_send(rank_t dest, const Message& message) {
    if (shared_ && !shared_->held_here()) [[unlikely]]
      outside_callback("async_send");
    const auto payload = codec_.encode(message);
    untyped_.template send<Codec::fixed_bytes>(dest, payload.data(), payload.size());
  }
  // Runs the receive callback on `message` at every rank, this one included, once each. Threads:
  // as async_send.
  void async_bcast(const Message& message) {
    if (shared_ && !shared_->held_here()) [[unlikely]]
      outside_callback("async_bcast");
    const auto payload = codec_.encode(message);
    untyped_.bcast(payload.data(), payload.size());
  }

  // Collective: returns on every rank once no message is buffered, in flight or being handled
  // anywhere, including messages sent by callbacks. The mailbox may be used again afterwards.
  // Throws Cancelled on every rank at the end of the same epoch when the run was asked to stop
  // (courier/core/cancel.hpp): from the request on, callbacks are skipped so that work drains.
  // Threads: T = 1 only, never from a callback (T > 1: every thread calls thread(t).wait_empty).
  void wait_empty() {
    if (shared_) use_thread_handles("wait_empty");
    untyped_.wait_empty();
  }
  // The non-blocking form of wait_empty, for programs with their own work queues: call it when
  // this rank has no work of its own; true once wait_empty would return (then, on every rank).
  // A call that ran callbacks does not count this rank as idle, so work they queued (also through
  // messages to this rank) is done before the ranks agree on the end. Throws Cancelled as
  // wait_empty does. Threads: as wait_empty.
  bool test_empty() {
    if (shared_) use_thread_handles("test_empty");
    return untyped_.test_empty();
  }
  // True once the run is being cancelled (on this rank or, as far as it has heard, another):
  // callbacks no longer run, and a program with its own work queue may drop it, so that the next
  // test_empty or wait_empty comes soon (and throws Cancelled). Threads: any thread, callbacks
  // included.
  bool stopping() { return shared_ ? shared_->stopping() : untyped_.stopping(); }

  rank_t rank() const { return untyped_.rank(); }
  rank_t ranks() const { return untyped_.ranks(); }
  const Topology& topology() const { return untyped_.topology(); }
  const Config& config() const { return untyped_.config(); }
  // Threads: the accessors above from any thread; local_stats from one thread while no other
  // uses the mailbox (after the epoch, once the threads are joined).
  Stats local_stats() const { return untyped_.stats(); }

 private:
  [[noreturn]] static void outside_callback(const char* method) {
    throw Error(std::string("mailbox: ") + method +
                " on a mailbox of several threads from outside its callbacks; threads use thread(t)." + method);
  }
  [[noreturn]] static void use_thread_handles(const char* method) {
    throw Error(std::string("mailbox: ") + method + " on a mailbox of several threads; every thread calls thread(t)." +
                method);
  }

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
  std::unique_ptr<detail::SharedUse> shared_;  // T > 1
  std::size_t stage_limit_ = 0;                // T > 1: a thread's share of the capacity
  std::vector<std::unique_ptr<Thread>> threads_;
};

// A mailbox whose callback type is the lambda's own (inlined on receipt):
//   auto box = mailbox::make_mailbox<std::uint64_t>(runtime, [&](auto&, std::uint64_t v) { ... }, config);
template <class Message, class Callback>
Mailbox<Message, Callback> make_mailbox(comm::Runtime& runtime, Callback callback, const Config& config = {}) {
  return Mailbox<Message, Callback>(runtime, std::move(callback), config);
}

}  // namespace courier::mailbox
