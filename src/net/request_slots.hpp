#pragma once
// Bookkeeping shared by the transports: which of a fixed set of request slots are busy.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace courier::net::detail {

// The slots of one kind of request. The lowest free slot is handed out first, so busy slots
// cluster at the front and progress() tests only up to the highest busy one.
class RequestSlots {
 public:
  explicit RequestSlots(std::size_t count) : busy_(count, false) {
    free_.reserve(count);
    for (std::size_t i = 0; i < count; ++i) free_.push_back(i);
    std::make_heap(free_.begin(), free_.end(), std::greater<>());
  }
  bool full() const { return free_.empty(); }
  std::size_t take() {
    std::pop_heap(free_.begin(), free_.end(), std::greater<>());
    std::size_t slot = free_.back();
    free_.pop_back();
    busy_[slot] = true;
    end_ = std::max(end_, slot + 1);
    return slot;
  }
  void give(std::size_t slot) {
    busy_[slot] = false;
    free_.push_back(slot);
    std::push_heap(free_.begin(), free_.end(), std::greater<>());
    while (end_ > 0 && !busy_[end_ - 1]) --end_;
  }
  // One past the highest busy slot; 0 when none is busy.
  std::size_t end() const { return end_; }

 private:
  std::vector<std::size_t> free_;  // a min-heap
  std::vector<bool> busy_;
  std::size_t end_ = 0;
};

}  // namespace courier::net::detail
