#pragma once
// Match tags for exposed regions: each region open at one time gets its own tag in [1, tag_ub]
// (tag 0 carries frames), so a put can only land in the region it was addressed to. Tags are
// handed out round-robin, skipping any still open after the counter wraps.
#include <cstdint>
#include <unordered_set>

namespace courier::net::detail {

class TagPool {
 public:
  explicit TagPool(int tag_ub) : tag_ub_(tag_ub) {}

  // The caller bounds the open tags far below tag_ub, so the loop ends quickly.
  int acquire() {
    for (;;) {
      next_ = next_ >= tag_ub_ ? 1 : next_ + 1;
      if (open_.insert(next_).second) return next_;
    }
  }
  void release(int tag) { open_.erase(tag); }
  std::size_t open() const { return open_.size(); }

 private:
  int tag_ub_;
  int next_ = 0;
  std::unordered_set<int> open_;
};

}  // namespace courier::net::detail
