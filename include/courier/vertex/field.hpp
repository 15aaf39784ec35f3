#pragma once
// Field: a label synchronised between proxies, declared once: its type T, its reduction Op (Min,
// Max, Sum, LogicalOr from sync/reduction.hpp), where operators write and read it (Access), and
// the bitset of proxies updated in the current round. Algorithms only write values and mark them;
// Engine::sync moves the marked ones as the policy requires. Marks cost an atomic each, so a field
// keeps none when its policy and access need no sync (e.g. on one rank), unless it is asked to
// track updates because its updated set is the next frontier.
#include <atomic>
#include <vector>

#include "courier/core/bitset.hpp"
#include "courier/dist/local_graph.hpp"
#include "courier/vertex/access.hpp"

namespace courier::vertex {

using dist::local_t;

// Whether a field keeps its updated set only when it must travel, or always (a frontier).
enum class Track { when_synced, always };

template <class T, class Op>
class Field {
 public:
  using value_type = T;
  using reduction = Op;

  Field(const dist::LocalGraph& graph, T initial, Access access, Track track = Track::when_synced)
      : value_(graph.proxies(), initial), updated_(graph.proxies()), access_(access) {
    const SyncPlan plan = sync_plan(graph.plan().policy(), graph.ranks(), access);
    tracking_ = track == Track::always || plan.reduce || plan.broadcast;
  }

  T& operator[](local_t v) { return value_[v]; }
  const T& operator[](local_t v) const { return value_[v]; }
  // A relaxed atomic read, for a label other threads may be combining into right now.
  T load(local_t v) const { return std::atomic_ref<const T>(value_[v]).load(std::memory_order_relaxed); }

  // Combines `value` into v's label with Op, atomically (two threads may meet at v, as in push);
  // marks v updated and returns true when the label changed.
  bool combine(local_t v, T value) {
    std::atomic_ref<T> target(value_[v]);
    T current = target.load(std::memory_order_relaxed);
    T combined = current;
    while (Op::combine(combined, value)) {
      if (target.compare_exchange_weak(current, combined, std::memory_order_relaxed)) {
        mark(v);
        return true;
      }
      combined = current;
    }
    return false;
  }
  // The same for a label only this thread writes (pull: each vertex is written by one thread).
  bool combine_local(local_t v, T value) {
    if (!Op::combine(value_[v], value)) return false;
    mark(v);
    return true;
  }
  // Writes v's label and marks it (one writer per vertex).
  // Atomic but unordered, so other threads may load() it meanwhile.
  void set(local_t v, T value) {
    std::atomic_ref<T>(value_[v]).store(value, std::memory_order_relaxed);
    mark(v);
  }
  // The same for an operator that is the only writer of v's whole 64-vertex word of marks
  // (Engine::pull and for_each_vertex hand out chunks of whole words): no atomic read-modify-write.
  void set_exclusive(local_t v, T value) {
    std::atomic_ref<T>(value_[v]).store(value, std::memory_order_relaxed);
    if (tracking_) updated_.set_exclusive(v);
  }
  void mark(local_t v) {
    if (tracking_) updated_.set(v);
  }

  std::vector<T>& values() { return value_; }
  const std::vector<T>& values() const { return value_; }
  Bitset& updated() { return updated_; }
  Access access() const { return access_; }

 private:
  std::vector<T> value_;
  Bitset updated_;
  Access access_;
  bool tracking_ = true;
};

}  // namespace courier::vertex
