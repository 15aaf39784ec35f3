#pragma once
// Values: one result per vertex, integers (levels, distances, labels, counts) or reals (ranks,
// products); graph::reference::kUnreached marks an unreached vertex.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace courier::harness {

using Values = std::variant<std::vector<std::uint64_t>, std::vector<double>>;

// "vertex value" lines, one per vertex ("inf" for unreached), written atomically.
void write_values(const std::string& path, const Values& values);

}  // namespace courier::harness
