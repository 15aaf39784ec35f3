#include "graph_methods.hpp"

namespace courier::dsl {

namespace {

const std::vector<MethodSignature>& methods() {
  using K = TypeKind;
  static const std::vector<MethodSignature> table{
      {GraphMethod::Nodes, "nodes", {}, "", K::NodeRange},
      {GraphMethod::Neighbors, "neighbors", {K::Node}, "v", K::NodeRange},
      {GraphMethod::NodesTo, "nodes_to", {K::Node}, "v", K::NodeRange},
      {GraphMethod::GetEdge, "get_edge", {K::Node, K::Node}, "u, v", K::Edge},
      {GraphMethod::NumNodes, "num_nodes", {}, "", K::Long},
      {GraphMethod::NumEdges, "num_edges", {}, "", K::Long},
      {GraphMethod::CountOutNbrs, "count_outNbrs", {K::Node}, "v", K::Long},
      {GraphMethod::CountInNbrs, "count_inNbrs", {K::Node}, "v", K::Long},
      {GraphMethod::IsAnEdge, "is_an_edge", {K::Node, K::Node}, "u, v", K::Bool},
      {GraphMethod::AttachNodeProperty, "attachNodeProperty", {}, "property = value, ...", K::Void, true},
      {GraphMethod::AttachEdgeProperty, "attachEdgeProperty", {}, "property = value, ...", K::Void, true},
  };
  return table;
}

}  // namespace

const MethodSignature* find_method(std::string_view name) {
  for (const MethodSignature& m : methods()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string method_names() {
  std::string out;
  for (const MethodSignature& m : methods()) {
    if (!out.empty()) out += ", ";
    out += m.name;
  }
  return out;
}

}  // namespace courier::dsl
