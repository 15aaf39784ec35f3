#pragma once
// A property's values on this rank's masters, as the harness hands results on: integers (INF,
// the program's "not reached", becomes the harness's unreached mark) or reals. 32-bit integers stay
// 32-bit (harness::widen makes them 64-bit once the clock has stopped), so a run's result costs
// half the bytes to copy and to gather.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "courier/dsl/runtime/node_property.hpp"
#include "courier/graph/reference/unreached.hpp"
#include "courier/harness/values.hpp"

namespace courier::dsl::rt {

template <class T>
harness::Values masters_as_integers(Graph& g, const NodeProperty<T>& p) {
  static_assert(std::is_integral_v<T>);
  if constexpr (sizeof(T) <= sizeof(std::uint32_t)) {
    std::vector<std::uint32_t> out(g.masters());
    for (local v = 0; v < g.masters(); ++v)
      out[v] = p[v] == inf<T>() ? harness::kNarrowUnreached : static_cast<std::uint32_t>(p[v]);
    return out;
  } else {
    std::vector<std::uint64_t> out(g.masters());
    for (local v = 0; v < g.masters(); ++v)
      out[v] = p[v] == inf<T>() ? graph::reference::kUnreached : static_cast<std::uint64_t>(p[v]);
    return out;
  }
}

template <class T>
std::vector<double> masters_as_reals(Graph& g, const NodeProperty<T>& p) {
  return std::vector<double>(p.values().begin(), p.values().begin() + g.masters());
}

}  // namespace courier::dsl::rt
