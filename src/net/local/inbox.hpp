#pragma once
// Inbox: everything that waits for one rank of the local transport, from all its peers together:
// a bounded multi-producer, single-consumer ring of cache-line cells (after Vyukov's bounded
// queue). A producer claims ticket t by moving the tail from t to t + 1 when cell t % capacity
// has turn t (free for t), writes the cell and sets its turn to t + 1; the consumer reads the cell
// of its head when its turn is head + 1 and hands it back with turn head + capacity. A full ring
// refuses (the device answers retry); nobody waits.
//
// A cell holds a small frame (up to 48 bytes: the runtime's header and 8 bytes of data) in
// place, so one cache line moves between the cores per small message; a larger frame stays in a
// buffer of its sender's FramePool and the cell names it; a put notice is a word.
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

#include "courier/core/mpmc_queue.hpp"  // cache_line_bytes
#include "courier/core/rank.hpp"

namespace courier::net {

class Inbox {
 public:
  enum class Kind : std::uint8_t { inline_frame, pooled_frame, notice };
  static constexpr std::size_t inline_bytes = 48;

  struct alignas(cache_line_bytes) Cell {
    std::atomic<std::uint64_t> turn{0};
    rank_t source = 0;
    Kind kind = Kind::inline_frame;
    std::uint8_t reserved = 0;
    std::uint16_t reserved2 = 0;
    std::byte data[inline_bytes];  // the frame, or a buffer index, or the notice (by kind)
  };
  static_assert(sizeof(Cell) == cache_line_bytes);

  explicit Inbox(std::size_t cells)
      : capacity_(std::bit_ceil(cells == 0 ? std::size_t{1} : cells)),
        mask_(capacity_ - 1),
        cells_(new Cell[capacity_]) {
    for (std::size_t i = 0; i < capacity_; ++i) cells_[i].turn.store(i, std::memory_order_relaxed);
  }
  Inbox(const Inbox&) = delete;
  Inbox& operator=(const Inbox&) = delete;

  // Any producer: fill(Cell&) writes the claimed cell; false (fill not called) when full.
  template <class Fill>
  bool try_push(Fill&& fill) {
    std::uint64_t ticket = tail_.load(std::memory_order_relaxed);
    Cell* cell = nullptr;
    for (;;) {
      cell = &cells_[ticket & mask_];
      const std::uint64_t turn = cell->turn.load(std::memory_order_acquire);
      const auto ahead = static_cast<std::int64_t>(turn - ticket);
      if (ahead == 0) {
        if (tail_.compare_exchange_weak(ticket, ticket + 1, std::memory_order_relaxed)) break;
      } else if (ahead < 0) {
        return false;  // the cell still holds the frame of a lap ago: full
      } else {
        ticket = tail_.load(std::memory_order_relaxed);
      }
    }
    fill(*cell);
    cell->turn.store(ticket + 1, std::memory_order_release);
    return true;
  }

  // The consumer: use(const Cell&) reads the oldest cell in place, which is then handed back.
  // False when nothing (finished) waits.
  template <class Use>
  bool try_pop_with(Use&& use) {
    Cell& cell = cells_[head_ & mask_];
    if (cell.turn.load(std::memory_order_acquire) != head_ + 1) return false;
    use(static_cast<const Cell&>(cell));
    cell.turn.store(head_ + capacity_, std::memory_order_release);
    ++head_;
    return true;
  }

  std::size_t capacity() const { return capacity_; }

 private:
  const std::size_t capacity_;
  const std::size_t mask_;
  std::unique_ptr<Cell[]> cells_;
  alignas(cache_line_bytes) std::atomic<std::uint64_t> tail_{0};  // the producers'
  alignas(cache_line_bytes) std::uint64_t head_ = 0;              // the consumer's alone
};

// FramePool: one rank's buffers for frames above Inbox::inline_bytes, and its count of those in
// flight. (Frames that fit a cell are bounded by the receivers' inboxes alone: a sender's burst
// of small frames to many peers, an all-to-all, does not wait for each peer in turn.) The owner (the rank's device
// driver) takes; the receiver that read a frame gives its buffer and its count back. Free buffers form a stack (last
// freed, first reused, so the buffers touched stay few) popped by the owner alone, which makes the compare-and-swap
// stack safe from ABA. Buffers are allocated once and touched as used.
class FramePool {
 public:
  FramePool(std::size_t frames, std::size_t frame_bytes)
      : frames_(frames),
        stride_((frame_bytes + cache_line_bytes - 1) / cache_line_bytes * cache_line_bytes),
        storage_(static_cast<std::byte*>(::operator new (frames_* stride_, std::align_val_t{cache_line_bytes}))),
        next_(new std::atomic<std::uint32_t>[frames_]) {
    // Stack of indices + 1 (0: empty), 0 on top.
    for (std::size_t i = 0; i < frames_; ++i) {
      next_[i].store(i + 1 < frames_ ? static_cast<std::uint32_t>(i + 2) : 0, std::memory_order_relaxed);
    }
    top_.store(frames_ > 0 ? 1 : 0, std::memory_order_relaxed);
  }
  ~FramePool() { ::operator delete (storage_, std::align_val_t{cache_line_bytes}); }
  FramePool(const FramePool&) = delete;
  FramePool& operator=(const FramePool&) = delete;

  // The owner: room for one more frame in flight; false at the limit.
  bool try_admit() {
    if (in_flight_.load(std::memory_order_relaxed) >= frames_) return false;
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  // The owner, after try_admit: a free buffer's index (there is one: in flight <= frames).
  std::uint32_t take() {
    std::uint32_t top = top_.load(std::memory_order_acquire);
    while (!top_.compare_exchange_weak(top, next_[top - 1].load(std::memory_order_relaxed), std::memory_order_acquire,
                                       std::memory_order_acquire)) {
    }
    return top - 1;
  }
  std::byte* buffer(std::uint32_t index) const { return storage_ + std::size_t{index} * stride_; }
  // Any receiver: the buffer and its count come back.
  void give_back(std::uint32_t index) {
    std::uint32_t top = top_.load(std::memory_order_relaxed);
    do {
      next_[index].store(top, std::memory_order_relaxed);
    } while (!top_.compare_exchange_weak(top, index + 1, std::memory_order_release, std::memory_order_relaxed));
    retire();
  }
  void retire() { in_flight_.fetch_sub(1, std::memory_order_release); }

 private:
  const std::size_t frames_;
  const std::size_t stride_;
  std::byte* const storage_;
  std::unique_ptr<std::atomic<std::uint32_t>[]> next_;
  alignas(cache_line_bytes) std::atomic<std::uint32_t> top_{0};
  alignas(cache_line_bytes) std::atomic<std::size_t> in_flight_{0};
};

}  // namespace courier::net
