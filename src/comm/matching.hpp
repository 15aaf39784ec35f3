#pragma once
// Matching: the tag matching of a match_tags endpoint, exact (source, tag) only: messages that
// arrived before anybody claimed them, and recvs posted before their message arrived. Shared by
// recv (any thread) and the progress lock's holder, under its own mutex.
#include <atomic>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <utility>

#include "courier/comm/completion.hpp"

namespace courier::comm {

class Matching {
 public:
  // Unclaimed messages on one endpoint before the runtime stops reading the transport.
  static constexpr std::size_t max_unexpected = 4096;

  // recv: takes the message from `source` with `tag` into *out, with `context`, if it is here;
  // if not and `or_post`, leaves `context` for it, under the same lock as the look, so a message
  // arriving in between cannot slip past.
  bool claim(rank_t source, tag_t tag, void* context, Completion* out, bool or_post);

  // The lock holder, for an arriving message: the recv that waited for it (taken, its context in
  // `context`), or kept for a later recv (and whether that makes too many unclaimed).
  enum class Match { recv, kept, kept_too_many };
  Match match(const Completion& message, void*& context);
  // The matched message found no room: its recv waits again, first in line.
  void unmatch(const Completion& message, void* context);

  // Read by the lock holder without the mutex.
  std::size_t unexpected_count() const { return unexpected_count_.load(std::memory_order_relaxed); }

  // Destruction: calls `free` on every unclaimed message, then forgets them.
  template <class Free>
  void free_unexpected(Free&& free) {
    std::lock_guard lock(mutex_);
    for (auto& [key, list] : unexpected_) {
      for (const Completion& c : list) free(c);
    }
    unexpected_.clear();
  }

 private:
  using Key = std::pair<rank_t, tag_t>;
  std::mutex mutex_;
  std::map<Key, std::deque<Completion>> unexpected_;
  std::map<Key, std::deque<void*>> posted_;
  std::atomic<std::size_t> unexpected_count_{0};
};

}  // namespace courier::comm
