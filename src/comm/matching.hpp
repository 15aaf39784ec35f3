#pragma once
// Matching: the tag matching of a match_tags endpoint, exact (source, tag) only: messages that
// arrived before anybody claimed them, and recvs posted before their message arrived. Shared by
// recv (any thread) and the progress lock's holder, under its own mutex.
//
// A message is matched when it is delivered, in first-packet order; but a recv posted before its
// message arrived is taken as the first packet arrives (take_posted), so that the message goes
// straight into the recv's buffer -- unless an earlier message with the same key is still on its
// way to delivery (it must match first): the keys of those are counted (in flight).
#include <atomic>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <span>
#include <utility>

#include "courier/comm/allocator.hpp"
#include "courier/comm/completion.hpp"

namespace courier::comm {

// A recv waiting for its message.
struct PostedRecv {
  void* context = nullptr;
  bool caller_buffer = false;  // into the caller's `into`; otherwise into allocator memory
  std::span<std::byte> into;
};

// A message that waited in allocator memory goes into the caller's buffer of the recv it
// matched: copied (up to into.size() bytes; truncated if it was larger), the memory freed, and
// `c` describes it there.
void place_in_caller_buffer(Allocator& allocator, Completion& c, std::span<std::byte> into);

class Matching {
 public:
  // Unclaimed messages on one endpoint before the runtime stops reading the transport.
  static constexpr std::size_t max_unexpected = 4096;

  // recv: takes the message from `source` with `tag` into *out (allocator memory, with recv's
  // context), if it is here; if not and `or_post`, posts `recv` for it, under the same lock as
  // the look, so a message arriving in between cannot slip past.
  bool claim(rank_t source, tag_t tag, const PostedRecv& recv, Completion* out, bool or_post);

  // The lock holder, as a message's first packet arrives: the recv posted for it, if there is
  // one and no earlier message with its key is in flight (true, *recv filled); otherwise the
  // message is in flight until match() sees it.
  bool take_posted(rank_t source, tag_t tag, PostedRecv& recv);
  // The lock holder, delivering a message in flight: the recv that waited for it (taken, in
  // *recv), or kept for a later recv (and whether that makes too many unclaimed).
  enum class Match { recv, kept, kept_too_many };
  Match match(const Completion& message, PostedRecv& recv);

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
  std::map<Key, std::deque<PostedRecv>> posted_;
  std::map<Key, std::size_t> in_flight_;  // messages arrived, not yet matched nor kept
  std::atomic<std::size_t> unexpected_count_{0};
};

}  // namespace courier::comm
