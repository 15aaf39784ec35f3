#pragma once
// What the algorithm descriptors (*_algorithm.cpp) share: the source option, the values' two
// shapes, and the summaries of distances.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "courier/harness/algorithm.hpp"

namespace courier::algo::describe {

// --source / -s, for algorithms that start from a vertex.
harness::OptionSpec source_option();

const std::vector<std::uint64_t>& integers(const harness::Output& output);
const std::vector<double>& reals(const harness::Output& output);

// The values as the output's integers; already 8-byte values are moved, not copied.
template <class T>
std::vector<std::uint64_t> widen(std::vector<T>&& values) {
  if constexpr (std::is_same_v<T, std::uint64_t>)
    return std::move(values);
  else
    return std::vector<std::uint64_t>(values.begin(), values.end());
}

// Source, reached vertices, and the levels (bfs) or the sum and largest distance (sssp).
harness::Summary distances(const harness::Values& values, graph::vertex_t source, bool levels);

// The verdict when the output is the reference itself and no independent checker exists.
harness::Verdict by_itself(const std::string& algorithm);

}  // namespace courier::algo::describe
