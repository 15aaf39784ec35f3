#pragma once
// Synchronizer: the completion mechanism a thread package can replace with its own type (paper
// 002): the runtime calls signal() once per completion, from whichever thread progresses, so it
// must be thread-safe and quick. Counter and Flag are the defaults.
#include <atomic>
#include <cstdint>
#include <mutex>

#include "courier/comm/completion.hpp"

namespace courier::comm {

class Synchronizer {
 public:
  virtual ~Synchronizer() = default;
  virtual void signal(const Completion& completion) = 0;
};

// Counts completions and keeps the latest one (for callers that want the metadata too).
class Counter final : public Synchronizer {
 public:
  void signal(const Completion& completion) override {
    {
      std::lock_guard lock(mutex_);
      last_ = completion;
    }
    count_.fetch_add(1, std::memory_order_release);
  }
  std::uint64_t count() const { return count_.load(std::memory_order_acquire); }
  Completion last() const {
    std::lock_guard lock(mutex_);
    return last_;
  }

 private:
  std::atomic<std::uint64_t> count_{0};
  mutable std::mutex mutex_;
  Completion last_{};
};

// A one-shot flag holding one completion: set by the runtime, read after ready(), reset to reuse.
class Flag final : public Synchronizer {
 public:
  void signal(const Completion& completion) override {
    completion_ = completion;
    ready_.store(true, std::memory_order_release);
  }
  bool ready() const { return ready_.load(std::memory_order_acquire); }
  const Completion& completion() const { return completion_; }  // valid once ready()
  void reset() { ready_.store(false, std::memory_order_relaxed); }

 private:
  std::atomic<bool> ready_{false};
  Completion completion_{};
};

}  // namespace courier::comm
