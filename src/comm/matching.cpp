#include "matching.hpp"

namespace courier::comm {

bool Matching::claim(rank_t source, tag_t tag, void* context, Completion* out, bool or_post) {
  const Key key{source, tag};
  std::lock_guard lock(mutex_);
  auto it = unexpected_.find(key);
  if (it != unexpected_.end()) {
    *out = it->second.front();
    out->context = context;
    it->second.pop_front();
    if (it->second.empty()) unexpected_.erase(it);
    --unexpected_count_;
    return true;
  }
  if (or_post) posted_[key].push_back(context);
  return false;
}

Matching::Match Matching::match(const Completion& message, void*& context) {
  const Key key{message.rank, message.tag};
  std::lock_guard lock(mutex_);
  auto it = posted_.find(key);
  if (it == posted_.end()) {
    unexpected_[key].push_back(message);
    return ++unexpected_count_ > max_unexpected ? Match::kept_too_many : Match::kept;
  }
  context = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) posted_.erase(it);
  return Match::recv;
}

void Matching::unmatch(const Completion& message, void* context) {
  std::lock_guard lock(mutex_);
  posted_[Key{message.rank, message.tag}].push_front(context);
}

}  // namespace courier::comm
