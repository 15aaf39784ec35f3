#pragma once
#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/graph/csr.hpp"

namespace courier::graph::reference::detail {

inline void check_source(const Csr& graph, vertex_t source, const char* algorithm) {
  if (source >= graph.num_vertices())
    throw InputError(fmt::format("{}: source {} is not a vertex of this graph ({} vertices); pick a "
                                 "source below {}",
                                 algorithm, source, graph.num_vertices(), graph.num_vertices()));
}

}  // namespace courier::graph::reference::detail
