#include "courier/vertex/frontier.hpp"

namespace courier::vertex {

void Frontier::take(Bitset& updated) {
  bits_.swap(updated);
  updated.clear();  // the old frontier: its touched words only
  list_.clear();
  sparse_ = false;
}

std::uint64_t Frontier::prepare() {
  bits_.tidy();  // e.g. a set of pending vertices that is never cleared, only reset
  const std::uint64_t count = bits_.count();
  list_.clear();
  // A list pays off when it is much shorter than the bitset's words are many.
  sparse_ = count * 32 < bits_.size();
  if (sparse_) {
    list_.reserve(count);
    bits_.for_each([&](std::size_t v) { list_.push_back(static_cast<local_t>(v)); });
  }
  return count;
}

}  // namespace courier::vertex
