#pragma once
#include <cstdint>
#include <vector>

#include "courier/vertex/engine.hpp"

namespace courier::algo {

// Out-degrees, the same as graph::reference::out_degrees: each proxy counts the out-edges its
// rank stores and the counts are summed into the master. One entry per master. Collective.
std::vector<std::uint64_t> out_degrees(vertex::Engine& engine);

}  // namespace courier::algo
