#pragma once
// FrameRing: the frames from one rank to another on the local transport, a bounded SPSC ring of
// fixed-size slots that hold the frame's bytes in place. Each slot starts with its own sequence
// word, which says whose turn it is, followed by the length and the bytes, so a small frame (the
// runtime's 40-byte header and up to 8 bytes of data) travels in the one cache line the consumer
// polls: one line moves between the cores per message, as in MPI's shared-memory fast boxes,
// instead of an index line, a slot line and a separately allocated buffer.
//
// Turns (after Vyukov's bounded queue, doubled so that a ring of one slot works too): slot
// t % capacity is free for the producer's ticket t when its sequence is 2t, and holds ticket t's
// frame for the consumer when it is 2t + 1; the consumer hands it back by setting it to
// 2(t + capacity). Neither side ever reads the other's index.
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>

#include "courier/core/mpmc_queue.hpp"  // cache_line_bytes

namespace courier::net {

class FrameRing {
 public:
  // `slots` (rounded up to a power of two) frames of up to `frame_bytes` bytes each.
  FrameRing(std::size_t slots, std::size_t frame_bytes)
      : capacity_(std::bit_ceil(slots == 0 ? std::size_t{1} : slots)),
        mask_(capacity_ - 1),
        stride_((sizeof(Slot) + frame_bytes + cache_line_bytes - 1) / cache_line_bytes * cache_line_bytes),
        storage_(static_cast<std::byte*>(::operator new(capacity_ * stride_, std::align_val_t{cache_line_bytes}))) {
    for (std::size_t i = 0; i < capacity_; ++i) new (slot(i)) Slot{2 * i};
  }
  ~FrameRing() {
    for (std::size_t i = 0; i < capacity_; ++i) slot(i)->~Slot();
    ::operator delete(storage_, std::align_val_t{cache_line_bytes});
  }
  FrameRing(const FrameRing&) = delete;
  FrameRing& operator=(const FrameRing&) = delete;

  // Producer: copies `frame` (at most frame_bytes) into the next slot; false when the ring is full.
  bool try_push(std::span<const std::byte> frame) {
    Slot& s = *slot(tail_);
    if (s.sequence.load(std::memory_order_acquire) != 2 * tail_) return false;
    s.bytes = static_cast<std::uint32_t>(frame.size());
    if (!frame.empty()) std::memcpy(s.data(), frame.data(), frame.size());
    s.sequence.store(2 * tail_ + 1, std::memory_order_release);
    ++tail_;
    return true;
  }

  // Consumer: use(std::span<const std::byte>) reads the oldest frame in place, then its slot is
  // handed back. False when the ring is empty (use not called).
  template <class Use>
  bool try_pop_with(Use&& use) {
    Slot& s = *slot(head_);
    if (s.sequence.load(std::memory_order_acquire) != 2 * head_ + 1) return false;
    use(std::span<const std::byte>(s.data(), s.bytes));
    s.sequence.store(2 * (head_ + capacity_), std::memory_order_release);
    ++head_;
    return true;
  }

  std::size_t capacity() const { return capacity_; }

 private:
  struct Slot {
    explicit Slot(std::uint64_t turn) : sequence(turn) {}
    std::atomic<std::uint64_t> sequence;
    std::uint32_t bytes = 0;
    std::uint32_t reserved = 0;
    std::byte* data() { return reinterpret_cast<std::byte*>(this + 1); }
  };
  static_assert(sizeof(Slot) == 16);

  Slot* slot(std::uint64_t ticket) const {
    return std::launder(reinterpret_cast<Slot*>(storage_ + (ticket & mask_) * stride_));
  }

  const std::size_t capacity_;
  const std::size_t mask_;
  const std::size_t stride_;
  std::byte* const storage_;
  alignas(cache_line_bytes) std::uint64_t tail_ = 0;  // the producer's alone
  alignas(cache_line_bytes) std::uint64_t head_ = 0;  // the consumer's alone
};

}  // namespace courier::net
