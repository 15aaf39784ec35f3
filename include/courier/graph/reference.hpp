#pragma once
// Sequential reference algorithms: the answers every distributed result is checked against.
// Definitions follow what users of networkx, igraph and GAP expect. One header per algorithm.
#include "courier/graph/reference/bfs.hpp"
#include "courier/graph/reference/connected_components.hpp"
#include "courier/graph/reference/degrees.hpp"
#include "courier/graph/reference/kcore.hpp"
#include "courier/graph/reference/pagerank.hpp"
#include "courier/graph/reference/spmv.hpp"
#include "courier/graph/reference/sssp.hpp"
#include "courier/graph/reference/triangles.hpp"
