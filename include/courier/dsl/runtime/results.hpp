#pragma once
// A property's values on this rank's masters, as the harness hands results on: integers (INF,
// the program's "not reached", becomes graph::reference::kUnreached) or reals.
#include <cstdint>
#include <vector>

#include "courier/dsl/runtime/node_property.hpp"
#include "courier/graph/reference/unreached.hpp"

namespace courier::dsl::rt {

template <class T>
std::vector<std::uint64_t> masters_as_integers(Graph& g, const NodeProperty<T>& p) {
  std::vector<std::uint64_t> out(g.masters());
  for (local v = 0; v < g.masters(); ++v)
    out[v] = p[v] == inf<T>() ? graph::reference::kUnreached : static_cast<std::uint64_t>(p[v]);
  return out;
}

template <class T>
std::vector<double> masters_as_reals(Graph& g, const NodeProperty<T>& p) {
  return std::vector<double>(p.values().begin(), p.values().begin() + g.masters());
}

}  // namespace courier::dsl::rt
