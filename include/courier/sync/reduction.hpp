#pragma once
// Reductions a synchronised label may use to combine a mirror's value into its master's.
// Each has an identity (what a mirror holds when it has contributed nothing) and says whether
// combining changed the target, which is how a master learns it was updated.
#include <algorithm>
#include <limits>

namespace courier::sync {

struct Min {
  template <class T>
  static constexpr T identity() { return std::numeric_limits<T>::max(); }
  template <class T>
  static bool combine(T& target, T value) {
    if (!(value < target)) return false;
    target = value;
    return true;
  }
  // After a reduce the mirror keeps its value: a smaller one is still a valid bound there.
  static constexpr bool reset_mirrors = false;
};

struct Max {
  template <class T>
  static constexpr T identity() { return std::numeric_limits<T>::lowest(); }
  template <class T>
  static bool combine(T& target, T value) {
    if (!(target < value)) return false;
    target = value;
    return true;
  }
  static constexpr bool reset_mirrors = false;
};

struct Sum {
  template <class T>
  static constexpr T identity() { return T{}; }
  template <class T>
  static bool combine(T& target, T value) {
    if (value == T{}) return false;
    target += value;
    return true;
  }
  // A mirror's partial sum must be counted once: it starts again from zero after a reduce.
  static constexpr bool reset_mirrors = true;
};

struct LogicalOr {
  template <class T>
  static constexpr T identity() { return T{}; }
  template <class T>
  static bool combine(T& target, T value) {
    if (!value || target) return false;
    target = value;
    return true;
  }
  static constexpr bool reset_mirrors = false;
};

}  // namespace courier::sync
