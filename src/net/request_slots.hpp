#pragma once
// Bookkeeping shared by the transports: which of a fixed set of request slots are busy.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace courier::net::detail {

// The slots of one kind of request, one bit each. The lowest free slot is handed out first, so
// busy slots cluster at the front and progress() tests only up to the highest busy one. Taking
// and giving a slot are a few bit operations: they sit on every frame's path.
class RequestSlots {
 public:
  explicit RequestSlots(std::size_t count) : count_(count), busy_((count + 63) / 64, 0) {}

  bool full() const { return busy_count_ == count_; }
  std::size_t take() {
    std::size_t w = 0;
    while (busy_[w] == ~std::uint64_t{0}) ++w;  // the caller checked full() first
    const std::size_t slot = w * 64 + static_cast<std::size_t>(std::countr_one(busy_[w]));
    busy_[w] |= std::uint64_t{1} << (slot % 64);
    ++busy_count_;
    if (slot + 1 > end_) end_ = slot + 1;
    return slot;
  }
  void give(std::size_t slot) {
    busy_[slot / 64] &= ~(std::uint64_t{1} << (slot % 64));
    --busy_count_;
    while (end_ > 0 && !busy(end_ - 1)) --end_;
  }
  // One past the highest busy slot; 0 when none is busy.
  std::size_t end() const { return end_; }
  std::size_t busy_count() const { return busy_count_; }

 private:
  bool busy(std::size_t slot) const { return (busy_[slot / 64] >> (slot % 64)) & 1; }

  std::size_t count_;
  std::vector<std::uint64_t> busy_;
  std::size_t busy_count_ = 0;
  std::size_t end_ = 0;
};

}  // namespace courier::net::detail
