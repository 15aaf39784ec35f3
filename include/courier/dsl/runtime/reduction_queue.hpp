#pragma once
// ReductionQueue<T>: the updates of one reduction statement where no analysis allows more (the
// optimised generation's pulses that are not reduction-exclusive): every update, to a local node
// or not, is an entry (global id, value) for the node's owner, and the statement's entries travel
// in one exchange through the run's channel where the pulse ends, applied by each owner in turn.
// Paper 004, section V: per destination a list of arrays, each sized to fit the L1 cache divided
// by the rank count; a full array starts the next, so an entry is written once and read once.
#include <unistd.h>

#include <cstring>
#include <vector>

#include "courier/core/timer.hpp"
#include "courier/dsl/runtime/graph.hpp"
#include "courier/dsl/runtime/node_property.hpp"

namespace courier::dsl::rt {

template <class T>
class ReductionQueue {
 public:
  struct Entry {
    node id;
    T value;
  };

  explicit ReductionQueue(Graph& g) : g_(g), lists_(g.members()) {
    long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
    if (l1 <= 0) l1 = 32 * 1024;
    per_array_ =
        std::max<std::size_t>(16, static_cast<std::size_t>(l1) / static_cast<std::size_t>(g.ranks()) / sizeof(Entry));
    for (auto& list : lists_) list.resize(static_cast<std::size_t>(g.ranks()));
  }

  void push(unsigned member, local target, T value) {
    std::vector<std::vector<Entry>>& arrays = lists_[member][static_cast<std::size_t>(g_.owner(target))];
    if (arrays.empty() || arrays.back().size() == per_array_) arrays.emplace_back().reserve(per_array_);
    arrays.back().push_back({g_.id(target), value});
  }

  // Collective: the entries to their owners, applied to `property` with Op; also(m) for each
  // master an entry changed.
  template <class Op, class Property, class Also = NoAlso>
  void finish(Property& property, Also&& also = {}) {
    Timer timer;
    const auto ranks = static_cast<std::size_t>(g_.ranks());
    std::vector<sync::Bytes> outgoing(ranks);
    for (std::size_t to = 0; to < ranks; ++to) {
      std::size_t entries = 0;
      for (const auto& list : lists_)
        for (const auto& array : list[to]) entries += array.size();
      outgoing[to].resize(entries * sizeof(Entry));
      std::byte* at = outgoing[to].data();
      for (auto& list : lists_) {
        for (const auto& array : list[to]) {
          if (array.empty()) continue;
          std::memcpy(at, array.data(), array.size() * sizeof(Entry));
          at += array.size() * sizeof(Entry);
        }
        list[to].clear();
      }
      g_.phases().queued += entries;
    }
    const std::vector<sync::Bytes> incoming = g_.engine().exchange(std::move(outgoing));
    for (const sync::Bytes& bytes : incoming) {
      for (std::size_t at = 0; at + sizeof(Entry) <= bytes.size(); at += sizeof(Entry)) {
        Entry entry;
        std::memcpy(&entry, bytes.data() + at, sizeof(Entry));
        const local m = g_.proxy(entry.id);
        if (property.template apply<Op>(m, static_cast<typename Property::value_type>(entry.value))) also(m);
      }
    }
    property.wrote();
    g_.phases().reduction_seconds += timer.elapsed();
    ++g_.phases().reductions;
  }

 private:
  Graph& g_;
  std::size_t per_array_;
  std::vector<std::vector<std::vector<std::vector<Entry>>>> lists_;  // by member, destination: arrays
};

}  // namespace courier::dsl::rt
