#pragma once
// SpscRing<T>: a bounded single-producer single-consumer ring (Lamport's queue with cached
// indices, so the common case touches only the caller's own cache line). Slots are reused in
// place: try_push_with / try_pop_with hand the slot itself to a callable, so a slot that owns a
// buffer (e.g. a std::vector frame) keeps its allocation and nothing is copied twice.
//
// One thread pushes and one thread pops at a time; "one thread" may change over time when the
// hand-over is synchronised (e.g. by a mutex), as with a runtime's progress lock.
#include <atomic>
#include <bit>
#include <cstddef>
#include <utility>
#include <vector>

#include "courier/core/mpmc_queue.hpp"  // cache_line_bytes

namespace courier {

template <class T>
class SpscRing {
 public:
  // Capacity is rounded up to a power of two (at least 1).
  explicit SpscRing(std::size_t capacity)
      : slots_(std::bit_ceil(capacity == 0 ? std::size_t{1} : capacity)), mask_(slots_.size() - 1) {}
  SpscRing(const SpscRing&) = delete;
  SpscRing& operator=(const SpscRing&) = delete;

  // Producer: fill(T& slot) writes the next slot in place. False when full (fill not called).
  template <class Fill>
  bool try_push_with(Fill&& fill) {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - cached_head_ == slots_.size()) {
      cached_head_ = head_.load(std::memory_order_acquire);
      if (tail - cached_head_ == slots_.size()) return false;
    }
    fill(slots_[tail & mask_]);
    tail_.store(tail + 1, std::memory_order_release);
    return true;
  }
  bool try_push(T value) {
    return try_push_with([&](T& slot) { slot = std::move(value); });
  }
  // Producer: true when a push would fail now.
  bool full() {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - cached_head_ < slots_.size()) return false;
    cached_head_ = head_.load(std::memory_order_acquire);
    return tail - cached_head_ == slots_.size();
  }

  // Consumer: use(T& slot) reads the oldest slot in place. False when empty (use not called).
  template <class Use>
  bool try_pop_with(Use&& use) {
    const std::size_t head = head_.load(std::memory_order_relaxed);
    if (head == cached_tail_) {
      cached_tail_ = tail_.load(std::memory_order_acquire);
      if (head == cached_tail_) return false;
    }
    use(slots_[head & mask_]);
    head_.store(head + 1, std::memory_order_release);
    return true;
  }
  bool try_pop(T& out) {
    return try_pop_with([&](T& slot) { out = std::move(slot); });
  }

  std::size_t capacity() const { return slots_.size(); }
  // Exact only when neither side is active.
  std::size_t size_approx() const {
    return tail_.load(std::memory_order_acquire) - head_.load(std::memory_order_acquire);
  }

 private:
  std::vector<T> slots_;
  const std::size_t mask_;
  alignas(cache_line_bytes) std::atomic<std::size_t> head_{0};  // written by the consumer
  std::size_t cached_tail_ = 0;                                  // consumer's view of tail_
  alignas(cache_line_bytes) std::atomic<std::size_t> tail_{0};  // written by the producer
  std::size_t cached_head_ = 0;                                  // producer's view of head_
};

}  // namespace courier
