#pragma once
// Frontier: the active local vertices of a data-driven round. A bitset, which threads add to at
// once; when few are active it also keeps them as a sorted list so a round touches only them.
// Taking, counting, listing and clearing cost the active vertices' words, not the graph's size
// (the bitset lists the words it touched).
#include <cstdint>
#include <span>
#include <vector>

#include "courier/core/bitset.hpp"
#include "courier/dist/local_graph.hpp"

namespace courier::vertex {

using dist::local_t;

class Frontier {
 public:
  explicit Frontier(local_t proxies) : bits_(proxies) {}

  local_t size() const { return static_cast<local_t>(bits_.size()); }
  void add(local_t v) { bits_.set(v); }  // thread-safe
  bool contains(local_t v) const { return bits_.test(v); }
  void clear() {
    bits_.clear();
    list_.clear();
    sparse_ = false;
  }
  Bitset& bits() { return bits_; }
  const Bitset& bits() const { return bits_; }

  // Takes `updated` (e.g. a Field's updated set after a sync) as the new frontier and leaves
  // `updated` empty, ready for the next round.
  void take(Bitset& updated);
  // Counts the active vertices and, if they are few, lists them; call before a round.
  std::uint64_t prepare();
  bool sparse() const { return sparse_; }
  std::span<const local_t> list() const { return list_; }

 private:
  Bitset bits_;
  std::vector<local_t> list_;
  bool sparse_ = false;
};

}  // namespace courier::vertex
