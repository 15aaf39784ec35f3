#include "save.hpp"

#include "courier/graph/csr.hpp"
#include "progress_options.hpp"

namespace courier::cli {

void save_graph(const std::string& path, const graph::EdgeList& edges, const graph::WriteOptions& options) {
  announce("writing", path);
  if (graph::format_from_path(path) == graph::Format::csr)
    graph::write_csr(path, graph::build_csr(edges), options);
  else
    graph::write_edge_list(path, edges, options);
}

}  // namespace courier::cli
