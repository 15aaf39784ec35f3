#pragma once
// MpmcQueue<T>: a bounded multi-producer multi-consumer queue built on fetch-and-add.
//
// Producers and consumers take tickets with fetch_add on tail_ / head_; ticket t owns cell
// t % capacity, whose `turn` says whose go it is (t: the producer of t may write; t + 1: the
// consumer of t may read). Two admission counters (free_ slots, items_) are also moved by
// fetch_add and make try_push / try_pop fail softly instead of waiting when the queue is full or
// empty. After admission the only wait is for a peer that already holds the neighbouring ticket
// and is a few instructions from finishing (unless the OS preempted it), so waits back off.
// No locks anywhere. Failures may be spurious under contention ("retry").
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>

#include "courier/core/backoff.hpp"

namespace courier {

inline constexpr std::size_t cache_line_bytes = 64;

template <class T>
class MpmcQueue {
 public:
  // Capacity is rounded up to a power of two (at least 1).
  explicit MpmcQueue(std::size_t capacity)
      : capacity_(std::bit_ceil(capacity == 0 ? std::size_t{1} : capacity)),
        mask_(capacity_ - 1),
        cells_(new Cell[capacity_]),
        free_(static_cast<std::int64_t>(capacity_)) {
    for (std::size_t i = 0; i < capacity_; ++i) cells_[i].turn.store(i, std::memory_order_relaxed);
  }
  MpmcQueue(const MpmcQueue&) = delete;
  MpmcQueue& operator=(const MpmcQueue&) = delete;

  // False when the queue is full (nothing was stored).
  bool try_push(T value) {
    if (!admit(free_)) return false;
    const std::uint64_t ticket = tail_.fetch_add(1, std::memory_order_relaxed);
    Cell& cell = cells_[ticket & mask_];
    wait_for(cell.turn, ticket);
    cell.value = std::move(value);
    cell.turn.store(ticket + 1, std::memory_order_release);
    items_.fetch_add(1, std::memory_order_release);
    return true;
  }

  // False when the queue is empty (`out` untouched).
  bool try_pop(T& out) {
    if (!admit(items_)) return false;
    const std::uint64_t ticket = head_.fetch_add(1, std::memory_order_relaxed);
    Cell& cell = cells_[ticket & mask_];
    wait_for(cell.turn, ticket + 1);
    out = std::move(cell.value);
    cell.turn.store(ticket + capacity_, std::memory_order_release);
    free_.fetch_add(1, std::memory_order_release);
    return true;
  }

  std::size_t capacity() const { return capacity_; }
  // Items admitted for popping right now; exact only when no thread is pushing or popping.
  std::size_t size_approx() const {
    const auto n = items_.load(std::memory_order_relaxed);
    return n > 0 ? static_cast<std::size_t>(n) : 0;
  }
  bool empty_approx() const { return size_approx() == 0; }

 private:
  struct alignas(cache_line_bytes) Cell {
    std::atomic<std::uint64_t> turn{0};
    T value{};
  };

  // Takes one unit from `counter` if it has one; a failed take is given back.
  static bool admit(std::atomic<std::int64_t>& counter) {
    if (counter.load(std::memory_order_relaxed) <= 0) return false;
    if (counter.fetch_sub(1, std::memory_order_acquire) > 0) return true;
    counter.fetch_add(1, std::memory_order_relaxed);
    return false;
  }

  static void wait_for(const std::atomic<std::uint64_t>& turn, std::uint64_t expected) {
    if (turn.load(std::memory_order_acquire) == expected) return;
    Backoff backoff;
    while (turn.load(std::memory_order_acquire) != expected) backoff.pause();
  }

  const std::size_t capacity_;
  const std::size_t mask_;
  std::unique_ptr<Cell[]> cells_;
  alignas(cache_line_bytes) std::atomic<std::int64_t> free_;
  alignas(cache_line_bytes) std::atomic<std::int64_t> items_{0};
  alignas(cache_line_bytes) std::atomic<std::uint64_t> tail_{0};
  alignas(cache_line_bytes) std::atomic<std::uint64_t> head_{0};
};

}  // namespace courier
