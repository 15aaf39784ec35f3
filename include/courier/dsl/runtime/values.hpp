#pragma once
// What generated programs compute with. A node as a value (a variable, a node property, a
// comparison) is its global id; a node a loop visits is a local id of this rank's partition, so
// its properties are array slots. INF is the largest value of a number type. The reductions a
// program writes (Min Max += *= &&= ||=) are sync/'s, plus the two it lacks.
#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "courier/dist/local_graph.hpp"
#include "courier/sync/reduction.hpp"

namespace courier::dsl::rt {

using node = graph::vertex_t;
using local = dist::local_t;
using edge = graph::edge_t;
using NodeSet = std::vector<node>;  // SetN<g>: global ids

template <class T>
constexpr T inf() {
  if constexpr (std::numeric_limits<T>::has_infinity) {
    return std::numeric_limits<T>::infinity();
  } else {
    return std::numeric_limits<T>::max();
  }
}

using sync::Max;
using sync::Min;
using sync::Sum;
using Or = sync::LogicalOr;

// x *= e. A mirror's partial product starts again from 1 after a reduce, as a partial sum does.
struct Product {
  template <class T>
  static constexpr T identity() {
    return T{1};
  }
  template <class T>
  static bool combine(T& target, T value) {
    if (value == T{1}) return false;
    target *= value;
    return true;
  }
  static constexpr bool reset_mirrors = true;
};

// x &&= e: only a false changes anything, and once false stays false.
struct And {
  template <class T>
  static constexpr T identity() {
    return T{1};
  }
  template <class T>
  static bool combine(T& target, T value) {
    if (value || !target) return false;
    target = T{};
    return true;
  }
  static constexpr bool reset_mirrors = false;
};

// Combines `value` into `target` with Op, atomically (threads of a rank may meet at one slot);
// true when the target changed.
template <class Op, class T>
bool combine_atomic(T& target, T value) {
  std::atomic_ref<T> slot(target);
  T current = slot.load(std::memory_order_relaxed);
  T combined = current;
  while (Op::combine(combined, value)) {
    if (slot.compare_exchange_weak(current, combined, std::memory_order_relaxed)) return true;
    combined = current;
  }
  return false;
}

}  // namespace courier::dsl::rt
