#include "matching.hpp"

#include <algorithm>
#include <cstring>

namespace courier::comm {

namespace {

// The front of the list at `it`, taken; the key goes with its last entry.
template <class Map>
auto take_front(Map& map, typename Map::iterator it) {
  auto value = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) map.erase(it);
  return value;
}

}  // namespace

void place_in_caller_buffer(Allocator& allocator, Completion& c, std::span<std::byte> into) {
  const std::size_t kept = std::min(c.size, into.size());
  if (kept > 0) std::memcpy(into.data(), c.data, kept);
  allocator.deallocate(c.data, c.size);
  c.truncated = kept < c.size;
  c.caller_buffer = true;
  c.data = into.data();
  c.size = kept;
}

bool Matching::claim(rank_t source, tag_t tag, const PostedRecv& recv, Completion* out, bool or_post) {
  const Key key{source, tag};
  std::lock_guard lock(mutex_);
  auto it = unexpected_.find(key);
  if (it != unexpected_.end()) {
    *out = take_front(unexpected_, it);
    out->context = recv.context;
    --unexpected_count_;
    return true;
  }
  if (or_post) posted_[key].push_back(recv);
  return false;
}

bool Matching::take_posted(rank_t source, tag_t tag, PostedRecv& recv) {
  const Key key{source, tag};
  std::lock_guard lock(mutex_);
  auto it = posted_.find(key);
  if (it != posted_.end() && !in_flight_.contains(key)) {
    recv = take_front(posted_, it);
    return true;
  }
  ++in_flight_[key];
  return false;
}

Matching::Match Matching::match(const Completion& message, PostedRecv& recv) {
  const Key key{message.rank, message.tag};
  std::lock_guard lock(mutex_);
  if (auto flying = in_flight_.find(key); flying != in_flight_.end() && --flying->second == 0) in_flight_.erase(flying);
  auto it = posted_.find(key);
  if (it == posted_.end()) {
    unexpected_[key].push_back(message);
    return ++unexpected_count_ > max_unexpected ? Match::kept_too_many : Match::kept;
  }
  recv = take_front(posted_, it);
  return Match::recv;
}

}  // namespace courier::comm
