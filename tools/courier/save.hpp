#pragma once
// Writing a graph to a file whose extension names the format.
#include <string>

#include "courier/graph/edge_list.hpp"
#include "courier/graph/io.hpp"

namespace courier::cli {

void save_graph(const std::string& path, const graph::EdgeList& edges, const graph::WriteOptions& options);

}  // namespace courier::cli
