#pragma once
// Csr: compressed sparse rows of out-edges (or, transposed, of in-edges), with optional weights.
// Storage is a Buffer, so a Csr is either built in memory or mapped from a .csr file.
#include <cstdint>
#include <span>
#include <variant>

#include "courier/core/buffer.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/graph/types.hpp"

namespace courier::graph {

using CsrWeights = std::variant<std::monostate, Buffer<std::uint32_t>, Buffer<float>>;

class Csr {
 public:
  Csr() = default;
  // offsets has num_vertices + 1 entries (or none for the empty graph); targets and weights have
  // offsets.back() entries. Throws courier::Error if the arrays do not fit together.
  Csr(Buffer<edge_t> offsets, Buffer<vertex_t> targets, CsrWeights weights = {});

  vertex_t num_vertices() const { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  edge_t num_edges() const { return targets_.size(); }
  edge_t degree(vertex_t v) const { return offsets_[v + 1] - offsets_[v]; }
  std::span<const vertex_t> neighbors(vertex_t v) const {
    return targets_.span().subspan(offsets_[v], degree(v));
  }

  std::span<const edge_t> offsets() const { return offsets_.span(); }
  std::span<const vertex_t> targets() const { return targets_.span(); }

  WeightType weight_type() const;
  bool has_weights() const { return weight_type() != WeightType::none; }
  const CsrWeights& weights() const { return weights_; }
  // The weights as W (std::uint32_t or float); throws courier::Error if they are another type.
  template <class W>
  std::span<const W> weights_as() const;
  template <class W>
  std::span<const W> weights_as(vertex_t v) const {
    return weights_as<W>().subspan(offsets_[v], degree(v));
  }

  // Known symmetric: every edge's reverse is an edge with the same weight (made by --symmetrize,
  // or read from a .csr written so), so the in-edges are the out-edges. False means unknown.
  bool symmetric() const { return symmetric_; }
  void set_symmetric(bool symmetric) { symmetric_ = symmetric; }

 private:
  Buffer<edge_t> offsets_;
  Buffer<vertex_t> targets_;
  CsrWeights weights_;
  bool symmetric_ = false;
};

// Each vertex's out-edges in the order of targets (ties keep input order), weights alongside.
Csr build_csr(const EdgeList& edges);
// Back to an edge list, in CSR order.
EdgeList to_edge_list(const Csr& csr);

}  // namespace courier::graph
