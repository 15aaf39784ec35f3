#pragma once
#include <cstdint>
#include <vector>

#include "courier/vertex/engine.hpp"

namespace courier::algo {

struct TriangleResult {
  std::vector<std::uint64_t> per_vertex;  // triangles each master of this rank is a corner of
  std::uint64_t total = 0;                // all triangles, on every rank
};

// tc: the triangles of the undirected simple graph (partition graph::simple_undirected's edges), the same
// as graph::reference::triangles. Each triangle a < b < c is found once, on the rank that stores
// edge (a, b), by intersecting the forward lists N+(a) and N+(b) (neighbours with larger ids).
// Those lists need neighbours that other ranks store, so they travel:
//   1. every stored edge (a, b), a < b, goes to a's master: 16 bytes per undirected edge;
//   2. each master sends its forward list to every rank that mirrors it: 8 bytes per entry and
//      per list, i.e. about (replication - 1) x the forward edges;
//   3. corner credits for a third vertex c that is no proxy here go to c's master: 16 bytes per
//      distinct such c. Memory: each rank keeps the forward lists of all its proxies.
// Collective.
TriangleResult tc(vertex::Engine& engine);

}  // namespace courier::algo
