#pragma once
#include <vector>

#include "courier/algo/direction.hpp"
#include "courier/vertex/engine.hpp"

namespace courier::algo {

using graph::vertex_t;

// Weakly connected components, each vertex labelled by the smallest global id of its component,
// the same as graph::reference::connected_components: one entry per master of this rank.
// Collective. Label propagation needs the graph partitioned with in-edges; union-find uses them
// when they are there (to skip more edges) and works without.

// Label propagation: active vertices push their label both ways along edges (push), or every
// vertex takes the smallest label of its active neighbours either way (pull), or Gemini's rule
// (direction.hpp) chooses each round; rounds grow with the diameter.
std::vector<vertex_t> cc_label_propagation(vertex::Engine& engine, Direction direction = Direction::automatic);

// Union-find inside each rank (lock-free linking and path compression, as Afforest links), then
// rounds that only carry labels between proxies: a label crosses a whole local component in one
// round, so rounds grow with how often a component crosses ranks, not with its diameter. On one
// rank it finishes in one round. Labels of type L (std::uint32_t or std::uint64_t): 32 bits serve
// graphs of fewer than 2^32 vertices and halve what the rounds send and the result that is
// gathered; Error when the graph's ids do not fit L.
template <class L = vertex_t>
std::vector<L> cc_union_find(vertex::Engine& engine);

}  // namespace courier::algo
