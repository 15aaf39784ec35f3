#pragma once
// Where a mailbox application keeps per-vertex values on one rank: slots [0, owned) for the
// vertices this rank owns (RoundRobin's local index), then one slot per delegate, in the order of
// Delegates::ids(). A delegate this rank also owns keeps its value in its delegate slot; its
// owned slot goes unused.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "courier/algo/mailbox_delegates.hpp"
#include "courier/mailbox/round_robin.hpp"

namespace courier::algo::detail {

class Slots {
 public:
  static constexpr std::size_t npos = SIZE_MAX;

  Slots(const mailbox::RoundRobin& own, const Delegates& delegates) : own_(own), delegates_(&delegates), owned_(own.owned()) {}

  std::size_t count() const { return owned_ + delegates_->size(); }
  std::size_t owned() const { return owned_; }
  std::size_t of_delegate(std::uint32_t index) const { return owned_ + index; }
  bool is_delegate(std::size_t slot) const { return slot >= owned_; }
  std::uint32_t delegate_index(std::size_t slot) const { return static_cast<std::uint32_t>(slot - owned_); }

  // The slot holding v's value on this rank (its delegate slot, or its owned slot), or npos when
  // v is an ordinary vertex of another rank.
  std::size_t here(graph::vertex_t v) const {
    const std::uint32_t index = delegates_->index_of(v);
    if (index != Delegates::npos) return of_delegate(index);
    return own_.mine(v) ? own_.local(v) : npos;
  }

  // The value of each owned vertex, a delegate's taken from its delegate slot.
  template <class T>
  std::vector<T> owned_values(const std::vector<T>& by_slot) const {
    std::vector<T> out(by_slot.begin(), by_slot.begin() + static_cast<std::ptrdiff_t>(owned_));
    for (std::uint32_t i = 0; i < delegates_->size(); ++i)
      if (own_.mine(delegates_->id(i))) out[own_.local(delegates_->id(i))] = by_slot[of_delegate(i)];
    return out;
  }

  const mailbox::RoundRobin& round_robin() const { return own_; }

 private:
  mailbox::RoundRobin own_;
  const Delegates* delegates_;
  std::size_t owned_;
};

// Items grouped by a key in [0, keys): offsets[k]..offsets[k + 1] index the items of key k in
// `sorted` (a counting sort; equal keys keep their input order).
template <class Item>
struct Grouped {
  std::vector<std::size_t> offsets;
  std::vector<Item> sorted;
};

template <class Item, class Key>
Grouped<Item> group_by(const std::vector<Item>& items, std::size_t keys, Key&& key) {
  Grouped<Item> g;
  g.offsets.assign(keys + 1, 0);
  for (const Item& item : items) ++g.offsets[key(item) + 1];
  for (std::size_t k = 0; k < keys; ++k) g.offsets[k + 1] += g.offsets[k];
  std::vector<std::size_t> next(g.offsets.begin(), g.offsets.end() - 1);
  g.sorted.resize(items.size());
  for (const Item& item : items) g.sorted[next[key(item)]++] = item;
  return g;
}

}  // namespace courier::algo::detail
