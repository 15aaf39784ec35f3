#pragma once
// Synchronizer: the completion mechanism a thread package can replace with its own type (paper
// 002): the runtime calls signal() once per completion, from whichever thread progresses, so it
// must be thread-safe and quick, and must not block or wait for progress. Counter and Flag are
// the defaults.
//
// Two forms, chosen where the endpoint is created (EndpointOptions::synchronizer, a
// SynchronizerRef):
//   runtime       a Synchronizer* (the abstract class below): the runtime calls the virtual
//                 signal(), so the object behind it may be of any derived type, chosen at run time.
//   compile time  a pointer to a type S known there -- Counter, Flag, or a thread package's own
//                 type with `void signal(const Completion&)`, deriving from nothing: the runtime
//                 calls a function instantiated for S, in which S::signal is a direct call
//                 (inlined); no virtual call on the completion path.
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "courier/comm/completion.hpp"

namespace courier::comm {

class Synchronizer {
 public:
  virtual ~Synchronizer() = default;
  virtual void signal(const Completion& completion) = 0;
};

// A type the runtime can signal at compile time.
template <class S>
concept Signalled = requires(S& s, const Completion& c) {
  s.signal(c);
};

// Which synchronizer an endpoint signals, and in which form (see above). Empty by default;
// copies refer to the same object, which must outlive the runtime.
class SynchronizerRef {
 public:
  SynchronizerRef() = default;
  SynchronizerRef(std::nullptr_t) {}
  // The runtime form: a virtual call.
  SynchronizerRef(Synchronizer* runtime_form) : object_(runtime_form) {}
  // The compile-time form, for any S but the abstract class itself.
  template <Signalled S>
  requires(!std::same_as<S, Synchronizer>) SynchronizerRef(S* compile_time_form)
      : object_(compile_time_form), signal_(compile_time_form ? &signal_as<S> : nullptr) {}

  explicit operator bool() const { return object_ != nullptr; }
  bool compile_time() const { return signal_ != nullptr; }
  void signal(const Completion& completion) const {
    if (signal_ != nullptr) [[likely]] {
      signal_(object_, completion);
    } else {
      static_cast<Synchronizer*>(object_)->signal(completion);
    }
  }

 private:
  template <class S>
  static void signal_as(void* object, const Completion& completion) {
    static_cast<S*>(object)->signal(completion);
  }

  void* object_ = nullptr;
  void (*signal_)(void*, const Completion&) = nullptr;  // null: the runtime form
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
