#pragma once
// detail::SharedUse: one rank's mailbox (Untyped) used by T compute threads at once (Config::threads,
// Mailbox::thread(t)). The threads share the rank's one Untyped -- its batches, its exchanges and
// its one termination detection -- under one lock; each fills coalescing buffers of its own
// (Stage) without it and takes the lock only to hand them over, to broadcast, and in test_empty /
// wait_empty. Callbacks run inside those locked steps, on the thread that holds the lock, so
// callbacks of one rank never run at the same time as each other.
//
// Ending an epoch: the rank counts as idle (answers the termination's probes) only while every one
// of its threads is idle. Thread t votes idle in each test_empty step that ran no callback on it,
// neither in the step nor in a hand-over since its last step (its callbacks may have given it
// work); a vote lasts until t's next step or hand-over. When the
// termination ends the epoch, every thread's next test_empty returns true once (or throws
// Cancelled), and the votes start afresh for the next epoch.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "courier/mailbox/untyped.hpp"

namespace courier::mailbox::detail {

class SharedUse {
 public:
  SharedUse(Untyped& untyped, unsigned threads);
  SharedUse(const SharedUse&) = delete;
  SharedUse& operator=(const SharedUse&) = delete;

  unsigned threads() const { return static_cast<unsigned>(votes_.size()); }

  // Runs `work(untyped)` for thread t under the rank's lock. must false: returns false at once
  // when another thread holds it (the caller keeps its records and tries later).
  template <class Work>
  bool locked(unsigned t, bool must, Work&& work) {
    if (held_here()) inside_callback();
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) {
      if (!must) return false;
      lock.lock();
    }
    const Holding holding(*this, t);
    votes_[t] = 0;  // t is sending: not idle
    const std::uint64_t delivered = untyped_.delivered();
    try {
      work(untyped_);
    } catch (...) {
      failed_ = true;
      throw;
    }
    if (untyped_.delivered() != delivered) fed_[t] = 1;
    return true;
  }

  // Thread t's test_empty, after it handed its records over; see the class comment.
  bool test_empty(unsigned t);
  // True once the run is being cancelled; never waits for the lock (an earlier answer will do).
  bool stopping();
  // A thread failed outside the mailbox: the other threads' next steps throw (check_healthy).
  void abandon() {
    const std::lock_guard<std::mutex> lock(mutex_);
    failed_ = true;
  }
  // Inside a callback: the thread running it. Elsewhere: meaningless.
  unsigned holder() const { return holder_; }
  // True when the calling thread holds this rank's lock (it is inside a callback or a hand-over).
  bool held_here() const { return holding_ == this; }

 private:
  class Holding {
   public:
    Holding(SharedUse& use, unsigned t) : use_(use), outer_(holding_) {
      use_.holder_ = t;
      holding_ = &use_;
    }
    ~Holding() { holding_ = outer_; }
    Holding(const Holding&) = delete;
    Holding& operator=(const Holding&) = delete;

   private:
    SharedUse& use_;
    const SharedUse* outer_;
  };

  [[noreturn]] static void inside_callback();
  void check_healthy() const;
  void end_epoch(unsigned t, bool cancelled);

  // The SharedUse whose lock this thread holds. Defined here with constant initialisation: other
  // translation units then read it directly, not through the TLS wrapper that UBSan reported as a
  // load of a null pointer.
  static inline constinit thread_local const SharedUse* holding_ = nullptr;

  Untyped& untyped_;
  std::mutex mutex_;
  // Under mutex_:
  unsigned holder_ = 0;
  std::vector<std::uint8_t> votes_;  // [thread]: idle in its last step
  std::vector<std::uint8_t> fed_;    // [thread]: ran callbacks in a hand-over since its last step
  std::vector<std::uint64_t> seen_;  // [thread]: epochs it has seen end
  std::uint64_t epoch_ = 0;          // epochs ended
  bool cancelled_ = false;           // the last epoch ended cancelled
  bool failed_ = false;              // a thread failed: a locked step threw (a callback), or abandon()
  std::atomic<bool> stopping_{false};
};

}  // namespace courier::mailbox::detail
