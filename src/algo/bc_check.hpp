#pragma once
// bc's sequential pieces beside the reference in bc_algorithm.cpp: Brandes over weighted shortest
// paths, and an independent check in GAP's manner that recomputes, for a sample of vertices, their
// dependencies from the definition rather than by Brandes' recursion.
#include <string>
#include <vector>

#include "courier/graph/csr.hpp"

namespace courier::algo::bc_check {

// Throws InputError unless every edge has a positive uint32 weight.
void require_positive_weights(const graph::Csr& g);

// Brandes from each source over shortest paths by uint32 weights (all positive), unnormalised.
std::vector<double> weighted_reference(const graph::Csr& g, const std::vector<graph::vertex_t>& sources);

struct DefinitionCheck {
  std::size_t vertices = 0;  // how many were checked (0: the graph and sources are too large)
  std::string mismatch;      // empty: all agree
};

// For up to 16 vertices t (the most central, then drawn at random), within a bounded cost:
// sum over sources s and targets x of sigma_st * sigma_tx / sigma_sx wherever
// d(s, t) + d(t, x) = d(s, x), from shortest-path searches out of s and out of t, compared with
// `centrality[t]` (relative 1e-6).
DefinitionCheck by_definition(const graph::Csr& g, const std::vector<graph::vertex_t>& sources, bool weighted,
                              const std::vector<double>& centrality);

}  // namespace courier::algo::bc_check
