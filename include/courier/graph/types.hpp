#pragma once
// Vertex and edge ids. They are 64-bit at every interface: graphs beyond 2^32 vertices are normal
// in this field. (Partitions may use 32-bit local ids inside.)
#include <cstdint>
#include <limits>

namespace courier::graph {

using vertex_t = std::uint64_t;
using edge_t = std::uint64_t;

inline constexpr vertex_t kNoVertex = std::numeric_limits<vertex_t>::max();

enum class WeightType : std::uint8_t { none, u32, f32 };

const char* to_string(WeightType type);

}  // namespace courier::graph
