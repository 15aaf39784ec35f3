#pragma once
// ProgressLock: who drives the runtime's progress (and its device) right now. Any thread may try
// to take it -- the progress server, a caller's progress(), a poll() that found nothing, a send
// that hands its frame to the device itself -- and one that finds it taken goes on without
// waiting. A flag rather than a std::mutex: trying a mutex the thread already holds is
// undefined, and a handler running inside progress may post (whose fast path tries the lock) or
// poll.
//
// The rule "only the holder touches this" is kept by the types: a Guard holds the lock, and only
// a Guard that holds it makes a ProgressToken; nothing else can make one. State that only the
// holder touches sits in a Locked<T>, reachable through get(token); functions that need it take
// a ProgressToken. Code that does not hold the lock has no token to pass, so it cannot name that
// state. A token is passed by value: it is empty, so it takes no register and the proof costs
// nothing on the hot paths (by reference it cost 2% of a round trip's instructions). It is
// copyable only for that: pass it down the calls made while the guard lives, never keep it.
// (The token says that a progress lock is held, not which one: each runtime passes the token of
// its own lock.)
#include <atomic>
#include <cassert>
#include <utility>

#include "courier/core/backoff.hpp"
#include "courier/core/mpmc_queue.hpp"  // cache_line_bytes

namespace courier::comm {

class ProgressToken {
 public:
  ProgressToken(const ProgressToken&) = default;
  ProgressToken& operator=(const ProgressToken&) = delete;

 private:
  friend class ProgressLock;
  ProgressToken() = default;
};

class alignas(cache_line_bytes) ProgressLock {
 public:
  // Holds the lock from its making (if it got it) to its end; token() is the proof.
  class [[nodiscard]] Guard {
   public:
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    ~Guard() {
      if (held_) lock_.unlock();
    }
    explicit operator bool() const { return held_; }
    ProgressToken token() const {  // only while it holds the lock
      assert(held_);
      return token_;
    }

   private:
    friend class ProgressLock;
    Guard(ProgressLock& lock, bool held) : lock_(lock), held_(held) {}
    ProgressLock& lock_;
    const bool held_;
    ProgressToken token_;
  };

  // Holds the lock if nobody does; check the guard before using its token.
  Guard try_hold() { return Guard(*this, try_lock()); }
  // For the rare callers that must have it (shutdown, the server's failure path, destruction).
  Guard hold() {
    Backoff backoff;
    while (!try_lock()) backoff.pause();
    return Guard(*this, true);
  }

 private:
  bool try_lock() {
    // Read first: a poller that finds it taken leaves the line shared instead of stealing it.
    return !taken_.load(std::memory_order_relaxed) && !taken_.exchange(true, std::memory_order_acquire);
  }
  void unlock() { taken_.store(false, std::memory_order_release); }

  std::atomic<bool> taken_{false};
};

// A T that only the progress lock's holder touches.
template <class T>
class Locked {
 public:
  template <class... Args>
  explicit Locked(Args&&... args) : value_(std::forward<Args>(args)...) {}
  T& get(ProgressToken) { return value_; }
  const T& get(ProgressToken) const { return value_; }

 private:
  T value_;
};

}  // namespace courier::comm
