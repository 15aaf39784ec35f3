#pragma once
#include <cstdint>
#include <limits>

namespace courier::graph::reference {

// The level or integer distance of a vertex the source does not reach.
inline constexpr std::uint64_t kUnreached = std::numeric_limits<std::uint64_t>::max();

}  // namespace courier::graph::reference
